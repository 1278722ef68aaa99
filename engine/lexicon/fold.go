package lexicon

import (
	"fmt"
	"strings"

	"arbitre/engine/tile"
)

// Fold turns one entry of a word list into the A–Z form the board uses: case
// is ignored, accents and cedillas are dropped ("élève" → "ELEVE"), ligatures
// are split ("cœur" → "COEUR"), as tile.Fold folds what players type. Any
// other character is an error.
func Fold(entry string) (string, error) {
	s := tile.Fold(strings.TrimSpace(entry))
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z') && !(r >= 'a' && r <= 'z') {
			return "", fmt.Errorf("« %c » n'est pas une lettre", r)
		}
	}
	return strings.ToUpper(s), nil
}
