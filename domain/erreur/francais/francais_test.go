package francais

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnglais_DetecteLesFragments(t *testing.T) {
	tests := []struct {
		msg  string
		mots []string
	}{
		{"Placement invalide (ZOO at H8: NOT_IN_RACK)", []string{"not", "at", "in", "rack"}},
		{"Donnée invalide (0 rounds)", []string{"rounds"}},
		{"Ce n'est pas le tour de ce joueur (it is not c1's turn)", []string{"is", "not", "turn"}},
		{`Cannot query field "x" on type "Query".`, []string{"cannot", "query", "field", "type"}},
		{"le mot %q n'est pas au lexique", nil},
		{"sanction inconnue : « none » ou « penalty »", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.mots, Anglais(tt.msg), tt.msg)
	}
}
