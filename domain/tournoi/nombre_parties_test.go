package tournoi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
)

// TestArt6_3_NombreDePartiesDeLaCompetition: the tournament knows its
// number of games, which the appeals' deadline follows (§6.3); the director
// sets it, changes it only with his reason, never below one nor below the
// games already added. A refusal records nothing; a replay finds the
// number again.
func TestArt6_3_NombreDePartiesDeLaCompetition(t *testing.T) {
	tr := Nouveau()
	assert.Equal(t, erreur.CodeNotFound, erreur.CodeOf(tr.FixerNombreParties(2, "")), "no tournament yet")
	require.NoError(t, tr.Creer("t1", "Festival", true))
	require.NoError(t, tr.AjouterPartie("t1-1"))
	require.NoError(t, tr.AjouterPartie("t1-2"))
	assert.Zero(t, tr.NombreParties(), "not set")
	require.NoError(t, tr.FixerNombreParties(3, ""), "the first setting needs no reason")
	assert.Equal(t, 3, tr.NombreParties())

	refus := []struct {
		name   string
		nombre int
		motif  string
	}{
		{"changé sans motif", 4, ""},
		{"moins que les parties ajoutées", 1, "deux parties seulement"},
		{"aucune partie", 0, "tournoi annulé"},
	}
	for _, tt := range refus {
		t.Run(tt.name, func(t *testing.T) {
			v := tr.Version()
			err := tr.FixerNombreParties(tt.nombre, tt.motif)
			assert.Equal(t, CodeInvalidTournoi, erreur.CodeOf(err), "%v", err)
			assert.Equal(t, v, tr.Version())
			assert.Equal(t, 3, tr.NombreParties())
		})
	}
	require.NoError(t, tr.FixerNombreParties(2, "salle rendue plus tôt"))
	assert.Equal(t, 2, tr.NombreParties())

	replay := Nouveau()
	for _, e := range tr.Pending() {
		require.NoError(t, replay.Apply(e))
	}
	assert.Equal(t, 2, replay.NombreParties())
	assert.Equal(t, []any{NombreParties{Nombre: 3}, NombreParties{Nombre: 2, Motif: "salle rendue plus tôt"}}, tr.Pending()[3:])
}
