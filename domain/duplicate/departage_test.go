package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArt3_8_3_DepartageSelonLeReglement2020: the départage of ex aequo is a
// « mort subite » (2020 §3.8.3, which wins over guide §2.14's older
// schedule): three coups in 1 min + 20 s, three in 40 s + 20 s, then 20 s +
// 20 s, the 20 s being added to the thinking time (ruling: the guide writes
// the same pair as « 1 min 30 (1 min 10 + 20 s) »); and every penalty is
// applied on the coup (§5.9), the 5-point one as the one of an
// avertissement beyond the free ones.
func TestArt3_8_3_DepartageSelonLeReglement2020(t *testing.T) {
	bareme := []time.Duration{80, 80, 80, 60, 60, 60, 40, 40}
	for _, mode := range []Mode{ModeMortSubite, ModeBarrage} {
		t.Run(string(mode), func(t *testing.T) {
			cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: mode}
			for n, s := range bareme {
				assert.Equal(t, s*time.Second, cfg.TempsDuCoup(n+1), "§3.8.3 coup %d", n+1)
			}
			p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C")
			require.NoError(t, p.Tirer("ABCDEF?"))
			require.NoError(t, p.RetenirTop("H8", "BAC"))
			require.NoError(t, p.CorrigerAMain(aMain(1, "A", paye(14))))
			require.NoError(t, p.CorrigerAMain(aMain(1, "B", penalite(14))))
			require.NoError(t, p.CorrigerAMain(aMain(1, "C", paye(14))))
			for range 6 {
				require.NoError(t, p.Sanctionner(sanction(1, "C", SanctionAvertissement)))
			}
			vider(p)
			require.NoError(t, p.Eliminer())
			assert.Equal(t, []any{
				EliminationsDecidees{Coup: 1, Reference: 14, Elimines: []string{"B", "C"}},
				PartieTerminee{Motif: FinVainqueur, DernierCoup: 1, Vainqueur: "A"},
			}, vider(p), "§5.9 the −5 of B and the sixth avertissement of C count on the coup")
		})
	}
}
