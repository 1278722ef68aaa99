package catalogue

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Every package's registrations fit in one registry: no name or Go type is
// claimed twice.
func TestRegistreHoldsEveryType(t *testing.T) {
	r, err := Registre()
	require.NoError(t, err)
	for _, name := range []string{"acces.jeton_emis", "partie.creee", "partie.top_retenu", "tournoi.cree"} {
		_, err := r.CurrentVersion(name)
		require.NoError(t, err, name)
	}
}
