package lexicon

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ligatures are the French letters that decompose into two letters rather
// than into a letter and an accent.
var ligatures = strings.NewReplacer("œ", "OE", "Œ", "OE", "æ", "AE", "Æ", "AE")

// Fold turns one entry of a word list into the A–Z form the board uses: case
// is ignored, accents and cedillas are dropped ("élève" → "ELEVE"), ligatures
// are split ("cœur" → "COEUR"). Any other character is an error.
func Fold(entry string) (string, error) {
	s := ligatures.Replace(strings.TrimSpace(entry))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFD.String(s) {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case unicode.Is(unicode.Mn, r):
			// an accent or a cedilla, folded away
		default:
			return "", fmt.Errorf("character %q is not a letter", r)
		}
	}
	return b.String(), nil
}
