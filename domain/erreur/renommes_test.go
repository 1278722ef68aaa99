package erreur

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Issue 33 item 4: a renamed code is read under its new name, and keeps
// its old name for one release (INVALID_DRAW had no other name).
func TestCodesRenommes_AncienEtNouveauNom(t *testing.T) {
	tests := []struct {
		code, actuel, ancien Code
	}{
		{"LEXIQUE_ABSENT", "LEXICON_NOT_LOADED", ""},
		{"LEXICON_NOT_LOADED", "LEXICON_NOT_LOADED", "LEXIQUE_ABSENT"},
		{"PAQUET_CORROMPU", "CORRUPT_BUNDLE", ""},
		{"INVALID_TIRAGE", "INVALID_DRAW", ""},
		{"INVALID_DRAW", "INVALID_DRAW", ""},
		{"CONFLICT", "CONFLICT", ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.code), func(t *testing.T) {
			assert.Equal(t, tt.actuel, Actuel(tt.code))
			ancien, ok := AncienNom(tt.code)
			assert.Equal(t, tt.ancien, ancien)
			assert.Equal(t, tt.ancien != "", ok)
		})
	}
}
