package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/tournoi"
)

// TestArt6_1_ExclusionAnnuleLesPartiesAnterieures: a player excluded for
// cheating or proven fraud is shown as excluded and ranked after everyone;
// when the director so decides, the exclusion also annuls his earlier games
// of the competition, which count zero for him (2020 §6.1). A leads after
// p1 (58 against 20 and 10) and is excluded in p2.
func TestArt6_1_ExclusionAnnuleLesPartiesAnterieures(t *testing.T) {
	type attendu struct {
		licence     string
		score, rang int
		exclu       bool
	}
	tests := []struct {
		name           string
		annulerParties bool
		p1, cumul      []attendu
	}{
		{"parties antérieures maintenues", false,
			[]attendu{{"A", 58, 1, false}, {"B", 20, 2, false}, {"C", 10, 3, false}},
			[]attendu{{"B", 45, 1, false}, {"C", 30, 2, false}, {"A", 58, 3, true}}},
		{"parties antérieures annulées", true,
			[]attendu{{"B", 20, 1, false}, {"C", 10, 2, false}, {"A", 0, 3, true}},
			[]attendu{{"B", 45, 1, false}, {"C", 30, 2, false}, {"A", 0, 3, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New()
			for _, l := range []string{"A", "B", "C"} {
				require.NoError(t, c.Appliquer("tournoi-t1", tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: l, Nom: l, Arbitre: "A"}}))
			}
			jouer(t, c, "p1", duplicate.ModeNormal, 60, map[string]int{"A": 58, "B": 20, "C": 10}, "A", "B", "C")
			jouer(t, c, "p2", duplicate.ModeNormal, 60, map[string]int{"A": 59, "B": 25, "C": 20}, "A", "B", "C")
			require.NoError(t, c.Appliquer("partie-p2", duplicate.SanctionDisciplinaire{Coup: 1, Licence: "A",
				Nature: duplicate.SanctionExclusion, Motif: "fraude avérée"}))
			require.NoError(t, c.Appliquer("tournoi-t1", tournoi.JoueurExclu{Licence: "A", Partie: "p2",
				Motif: "fraude avérée", AnnulerParties: tt.annulerParties}))

			lignes := func(ls []Ligne, err error) []attendu {
				require.NoError(t, err)
				var out []attendu
				for _, l := range ls {
					out = append(out, attendu{l.Licence, l.Score, l.Rang, l.Exclu})
				}
				return out
			}
			assert.Equal(t, tt.p1, lignes(c.Partie("p1")))
			assert.Equal(t, tt.cumul, lignes(c.Cumul()))
		})
	}
}
