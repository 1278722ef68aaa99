package duplicate

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arbitre/engine/correction"
)

// TestArt5_6_DecisionPenaliteSousCinqPoints: a penalty on a word under 5
// points pays a negative score, down to −5 (§5.6); nothing else does.
func TestArt5_6_DecisionPenaliteSousCinqPoints(t *testing.T) {
	tests := []struct {
		name     string
		decision correction.Decision
		ok       bool
	}{
		{"pénalité sur 2 points : −3", correction.Decision{Paid: -3, Sanction: correction.Penalty}, true},
		{"pénalité : −5 au plus", correction.Decision{Paid: -6, Sanction: correction.Penalty}, false},
		{"avertissement négatif", correction.Decision{Paid: -1, Sanction: correction.Warning}, false},
		{"sans sanction négatif", correction.Decision{Paid: -1, Sanction: correction.None}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validerDecision(&tt.decision, 20)
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			var e *Erreur
			assert.ErrorAs(t, err, &e)
			assert.Equal(t, CodeInvalidBulletin, e.Code)
		})
	}
}
