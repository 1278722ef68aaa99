package duplicate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
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
			var e *erreur.Erreur
			assert.ErrorAs(t, err, &e)
			assert.Equal(t, CodeInvalidBulletin, e.Code)
		})
	}
}

// TestArt5_6_UpcastV1PenaliteSousCinqPoints: a stored version-1
// partie.bulletin_corrige with a penalty on a word under 5 points replays
// as a negative score (§5.6, down to −5), not clamped at 0.
func TestArt5_6_UpcastV1PenaliteSousCinqPoints(t *testing.T) {
	r := eventstore.NewRegistry()
	require.NoError(t, RegisterEvents(r))
	tests := []struct {
		name string
		v1   string
		paid int
	}{
		{"pénalité sur 3 points : −2", `{"coup":1,"licence":"L1","score":3,"penalites":1}`, -2},
		{"pénalité sur 0 point : −5", `{"coup":1,"licence":"L1","score":0,"penalites":1}`, -5},
		{"pénalité sur 30 points : 25", `{"coup":1,"licence":"L1","score":30,"penalites":1}`, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Decode(eventstore.Event{Type: TypeBulletinCorrige, Version: 1, Data: json.RawMessage(tt.v1)})
			require.NoError(t, err)
			d := v.(BulletinCorrige).Finale()
			assert.Equal(t, correction.Penalty, d.Sanction)
			assert.Equal(t, tt.paid, d.Paid)
			assert.NoError(t, validerDecision(&d, 30), "the upcast decision is one the rules can produce")
		})
	}
}
