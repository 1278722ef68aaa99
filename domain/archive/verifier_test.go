package archive

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssue34_VerifierSansAllocationParLigne: checking what a file's lines
// say together allocates for the players and games it meets, not for each
// line (a year of the federation is 787,000 lines, twenty years 16
// million): the message of a refusal is made when a line is refused, and
// the columns a player's lines repeat are compared as they are, not boxed.
func TestIssue34_VerifierSansAllocationParLigne(t *testing.T) {
	const joueurs, parties = 200, 3
	var dup []LigneDuplicate
	var numeros []int
	for p := range parties {
		for j := range joueurs {
			dup = append(dup, LigneDuplicate{Partie: fmt.Sprintf("t-%d", p+1), Numero: p + 1, Licence: fmt.Sprintf("L%04d", j),
				Nom: fmt.Sprintf("Joueur %d", j), Club: "Vichy", Serie: "A", Score: 700 + j, Top: 1000, Rang: joueurs - j,
				Cumul: 3000 + j, TopCumul: 3000, Pourcentage: 77.5, RangGeneral: joueurs - j})
			numeros = append(numeros, len(numeros)+2)
		}
	}
	var cla []LigneClassique
	var numerosCla []int
	for r := range 7 {
		for j := 0; j < joueurs; j += 2 {
			a, b := fmt.Sprintf("L%04d", j), fmt.Sprintf("L%04d", j+1)
			match := fmt.Sprintf("m-%d-%d", r+1, j)
			cla = append(cla,
				LigneClassique{Ronde: r + 1, Match: match, Licence: a, Nom: "A " + a, Club: "Vichy", Adversaire: b, Score: 400, ScoreAdversaire: 350, PointsDeMatch: 3, CoteAvant: 1500 + j, CoteApres: 1510 + j},
				LigneClassique{Ronde: r + 1, Match: match, Licence: b, Nom: "B " + b, Club: "Lyon", Adversaire: a, Score: 350, ScoreAdversaire: 400, PointsDeMatch: 1, CoteAvant: 1400 + j, CoteApres: 1390 + j})
			numerosCla = append(numerosCla, len(numerosCla)+2, len(numerosCla)+3)
		}
	}
	for _, c := range []struct {
		nom    string
		lignes int
		d      Document
		num    []int
	}{
		{"duplicate", len(dup), Document{Genre: GenreDuplicate, Duplicate: dup}, numeros},
		{"classique", len(cla), Document{Genre: GenreClassique, Classique: cla}, numerosCla},
	} {
		t.Run(c.nom, func(t *testing.T) {
			require.NoError(t, c.d.verifier(c.num, 0))
			allocs := testing.AllocsPerRun(3, func() {
				d := c.d
				d.Exempt = nil
				require.NoError(t, d.verifier(c.num, 0))
			})
			assert.Less(t, allocs, float64(c.lignes)/4, "allocations for %d lines", c.lignes)
		})
	}
}
