package federation

import (
	"arbitre/domain/erreur"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecurite_ResultatsBornes: a centre's results past TailleResultatsMax
// (2,000 players with names of 1,000 letters: 2 MB) are refused
// (INVALID_RESULTS) by an event played in centres and by a twinning,
// and nothing is recorded: each sending is one event, kept for good (issue
// 27, item 9).
func TestSecurite_ResultatsBornes(t *testing.T) {
	gros := ResultatsCentre{Centre: "Lyon", Partie: "P-1"}
	for i := range 2000 {
		gros.Joueurs = append(gros.Joueurs, JoueurCentre{Licence: fmt.Sprintf("L%05d", i), Nom: strings.Repeat("N", 1000), Serie: "3A", Points: []int{10, 20, 30}})
	}
	e := epreuveOuverte(t, 3)
	j := NouveauJumelage()
	require.NoError(t, j.Creer("J", FormuleSatellites, "Vichy", "V", []string{"Lyon"}))
	for _, c := range []struct {
		nom      string
		recevoir func() error
		nouveaux func() []any
	}{
		{"épreuve", func() error { return e.Recevoir(gros, OrigineEnLigne, "h") }, e.Pending},
		{"jumelage", func() error { return j.RecevoirResultats(gros, "h", Controle{}) }, j.Pending},
	} {
		avant := len(c.nouveaux())
		err := c.recevoir()
		assert.Equal(t, CodeResultatsInvalides, erreur.CodeOf(err), c.nom)
		assert.ErrorContains(t, err, fmt.Sprintf("%d au plus", TailleResultatsMax), c.nom)
		assert.Equal(t, avant, len(c.nouveaux()), "%s: nothing recorded", c.nom)
	}
}
