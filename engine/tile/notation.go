package tile

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// What people type is read here, once for the whole engine: racks, lists of
// letters and words, with accents folded as the lexicon folds its entries
// (É→E, Ç→C, Œ→OE) and errors that show the offending character.
//
// A word has one notation for jokers in and two accepted on input: the
// engine writes a joker as a lower-case letter ("YEbLE"); a bulletin circles
// it, written between parentheses ("YE(B)LE"). Both are read everywhere and
// mean the same; a circled letter may itself be in lower case ("YE(b)LE").

// ligatures are the French letters that split into two letters rather than
// into a letter and an accent; the case is kept.
var ligatures = strings.NewReplacer("œ", "oe", "Œ", "OE", "æ", "ae", "Æ", "AE")

// Fold drops accents and cedillas and splits ligatures, keeping the case:
// "Élève" → "Eleve", "cœur" → "coeur". Other characters are left as they are.
func Fold(s string) string {
	if isASCII(s) {
		return s
	}
	s = norm.NFD.String(ligatures.Replace(s))
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// typed is one character after folding, with where it was typed: its
// position (in characters, from 1) and the character as typed.
type typed struct {
	c    rune
	pos  int
	orig rune
}

// foldTyped folds s character by character, so that an error can show the
// character as typed and its position.
func foldTyped(s string) []typed {
	out := make([]typed, 0, len(s))
	pos := 0
	for _, r := range s {
		pos++
		if r < 0x80 {
			out = append(out, typed{r, pos, r})
			continue
		}
		for _, c := range Fold(string(r)) {
			out = append(out, typed{c, pos, r})
		}
	}
	return out
}

// ErreurLecture is typed text that cannot be read as a word, a rack or
// letters. Its message is French and shows the character as it was typed:
// a client can show it as it is.
type ErreurLecture struct{ message string }

func (e *ErreurLecture) Error() string { return e.message }

// errCharacter names a character that is not what was expected, as typed.
func errCharacter(t typed, want string) error {
	return &ErreurLecture{fmt.Sprintf("« %c » en position %d n'est pas %s", t.orig, t.pos, want)}
}

// ParseRack reads a rack such as "AEIRST?" ('?' is a joker, case ignored,
// accents folded).
func ParseRack(s string) (Rack, error) {
	var r Rack
	for _, t := range foldTyped(s) {
		if t.c == '?' {
			r[NoLetter]++
			continue
		}
		l, ok := letterOfRune(t.c)
		if !ok {
			return Rack{}, errCharacter(t, "une lettre ni '?'")
		}
		r[l]++
	}
	return r, nil
}

// ParseLetters reads letters in the order given ('?', a joker, is NoLetter;
// case ignored, accents folded).
func ParseLetters(s string) ([]Letter, error) {
	f := foldTyped(s)
	out := make([]Letter, 0, len(f))
	for _, t := range f {
		if t.c == '?' {
			out = append(out, NoLetter)
			continue
		}
		l, ok := letterOfRune(t.c)
		if !ok {
			return nil, errCharacter(t, "une lettre ni '?'")
		}
		out = append(out, l)
	}
	return out, nil
}

// ParseWord reads a word as typed: a capital is a letter, a joker is a
// lower-case letter ("YEbLE") or a letter between parentheses ("YE(B)LE");
// accents are folded. It does not bound the length: callers do.
func ParseWord(s string) ([]Tile, error) {
	f := foldTyped(s)
	out := make([]Tile, 0, len(f))
	for i := 0; i < len(f); i++ {
		t, circled := f[i], false
		if t.c == '(' {
			if i+2 >= len(f) || f[i+2].c != ')' {
				return nil, &ErreurLecture{fmt.Sprintf("la parenthèse en position %d n'entoure pas une seule lettre, le joker", t.pos)}
			}
			t, circled = f[i+1], true
			i += 2
		}
		l, ok := letterOfRune(t.c)
		if !ok {
			return nil, errCharacter(t, "une lettre")
		}
		x := Tile(l)
		if circled || (t.c >= 'a' && t.c <= 'z') {
			x |= JokerBit
		}
		out = append(out, x)
	}
	return out, nil
}

// WordText writes a word in the engine's notation, a joker in lower case:
// the notation every answer uses.
func WordText(w []Tile) string {
	b := make([]byte, len(w))
	for i, t := range w {
		b[i] = t.Byte()
	}
	return string(b)
}

func letterOfRune(r rune) (Letter, bool) {
	if r >= 0x80 {
		return NoLetter, false
	}
	return LetterOf(byte(r))
}
