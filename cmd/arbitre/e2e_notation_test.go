package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotation_JokerEtAccentsParLAPI (issue 12 items 3 and 4), over HTTP: a
// word typed with its joker in lower case (as the tops are written) or
// circled (as in a bulletin) is the same move, accents fold as in the
// lexicon, the answer writes the joker in lower case, and an error about a
// character shows the character, not its first byte.
func TestNotation_JokerEtAccentsParLAPI(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()

	vide := make([]string, 15)
	for i := range vide {
		vide[i] = strings.Repeat(".", 15)
	}
	const verifier = `query($p: PositionInput!, $m: String!, $r: String!) {
  verifierCoup(position:$p, mot:$m, reference:$r) { probleme jouable score mots { mot } } }`
	type verdict struct {
		Probleme string
		Jouable  bool
		Score    int
		Mots     []struct{ Mot string }
	}
	var attendu verdict
	for i, mot := range []string{"CHeMIN", "CH(E)MIN", "CH(e)MIN", "CH(É)MIN", "ÇHéMIN"} {
		var v verdict
		s.gql(director, verifier, map[string]any{"p": map[string]any{"grille": vide, "tirage": "ÇHMIN?R"}, "m": mot, "r": "H8"}).
			into(t, "verifierCoup", &v)
		require.True(t, v.Jouable, mot)
		require.Len(t, v.Mots, 1, mot)
		assert.Equal(t, "CHeMIN", v.Mots[0].Mot, "%s: the answer writes the joker in lower case", mot)
		if i == 0 {
			attendu = v
			continue
		}
		assert.Equal(t, attendu, v, "%s is the same move as CHeMIN", mot)
	}

	for _, tt := range []struct{ tirage, mot, montre string }{
		{"AB€DEFG", "AB", "« € »"},
		{"ABCDEFG", "AÃ€", "« € »"},
	} {
		res := s.gql(director, verifier, map[string]any{"p": map[string]any{"grille": vide, "tirage": tt.tirage}, "m": tt.mot, "r": "H8"})
		require.NotEmpty(t, res.Errors, tt.mot)
		assert.Equal(t, "INVALID_INPUT", res.code())
		msg := res.Errors[0].Message
		assert.Contains(t, msg, tt.montre)
		assert.NotContains(t, msg, `'\xc3'`)
	}
}
