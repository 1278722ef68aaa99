package graphql

import (
	"testing"
	"time"

	"arbitre/domain/duplicate"
	"arbitre/projections/parties"

	"github.com/stretchr/testify/assert"
)

// TestSecurite_GraineDeTestCacheeJusquALaFin (issue 28 item 2): the seed of
// the software's bag was public while the game ran (partie{config{graine}}),
// so a mirror game foresaw the next tirage. A game's view now says only
// whether its draws come from a test seed; the seed itself is shown once
// the game is over, and never when there is none.
func TestSecurite_GraineDeTestCacheeJusquALaFin(t *testing.T) {
	graine := uint64(7)
	deTest := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: &graine}
	crypto := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel}
	tests := []struct {
		name   string
		statut duplicate.Statut
		cfg    duplicate.Config
		graine *int
	}{
		{"graine de test, tirage en cours", duplicate.StatutTirage, deTest, nil},
		{"graine de test, entre deux coups", duplicate.StatutAttenteTirage, deTest, nil},
		{"graine de test, partie interrompue", duplicate.StatutInterrompue, deTest, nil},
		{"graine de test, partie terminée", duplicate.StatutTerminee, deTest, new(7)},
		{"sans graine, partie terminée", duplicate.StatutTerminee, crypto, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := modelePartie(&parties.Vue{ID: "p1", Statut: tt.statut, Config: tt.cfg})
			assert.Equal(t, tt.graine, v.Config.Graine)
			assert.Equal(t, tt.cfg.GraineTest != nil, v.Config.GraineTest)
		})
	}
}
