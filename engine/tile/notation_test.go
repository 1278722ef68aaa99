package tile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotation_UnJokerDeuxEcritures: a top's joker in lower case (YEbLE)
// and a bulletin's circled letter (YE(B)LE, YE(b)LE) read the same.
func TestNotation_UnJokerDeuxEcritures(t *testing.T) {
	yeble := []Tile{'Y' - 'A' + 1, 'E' - 'A' + 1, ('B' - 'A' + 1) | JokerBit, 'L' - 'A' + 1, 'E' - 'A' + 1}
	for _, s := range []string{"YEbLE", "YE(B)LE", "YE(b)LE", "YÊbLÉ", "YE(B)LÉ"} {
		t.Run(s, func(t *testing.T) {
			w, err := ParseWord(s)
			require.NoError(t, err)
			assert.Equal(t, yeble, w)
			assert.Equal(t, "YEbLE", WordText(w), "the one output notation")
		})
	}
	for _, s := range []string{"YE(BL)E", "YE(B", "YE()LE", "YE(?)LE"} {
		_, err := ParseWord(s)
		assert.Error(t, err, s)
	}
}

// TestNotation_AccentsRepliesCommeLeLexique: wherever letters are
// expected, accents fold away and ligatures split, as in the word lists.
func TestNotation_AccentsRepliesCommeLeLexique(t *testing.T) {
	tests := []struct{ in, rack, letters, word string }{
		{"ÉTÉ?", "EET?", "ETE?", ""},
		{"ÇA", "AC", "CA", "CA"},
		{"CŒUR", "CEORU", "COEUR", "COEUR"},
		{"ÆGÎ", "AEGI", "AEGI", "AEGI"},
		{"élève", "EEELV", "ELEVE", "eleve"},
		{"E\u0301TE\u0301", "EET", "ETE", "ETE"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := ParseRack(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.rack, r.String())
			ls, err := ParseLetters(tt.in)
			require.NoError(t, err)
			var b []byte
			for _, l := range ls {
				b = append(b, l.Byte())
			}
			assert.Equal(t, tt.letters, string(b))
			if tt.word != "" {
				w, err := ParseWord(tt.in)
				require.NoError(t, err)
				assert.Equal(t, tt.word, WordText(w))
			}
		})
	}
}

// TestNotation_ErreurMontreLeCaractere: an error names the character as
// typed and its position, never the first byte of a multi-byte character
// (once 'Ã' for "Ã€").
func TestNotation_ErreurMontreLeCaractere(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"rack", func() error { _, err := ParseRack("AÉ€"); return err }, "« € » en position 3 n'est pas une lettre ni '?'"},
		{"letters", func() error { _, err := ParseLetters("π"); return err }, "« π » en position 1"},
		{"word", func() error { _, err := ParseWord("CŒU1"); return err }, "« 1 » en position 4 n'est pas une lettre"},
		{"word, bad parenthesis", func() error { _, err := ParseWord("AB(CD"); return err }, "la parenthèse en position 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "Ã")
		})
	}
}
