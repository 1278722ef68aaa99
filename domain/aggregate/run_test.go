package aggregate

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
)

// comptes is a repository of compteur whose first saves meet another
// writer's: each fails with a conflict after that writer added 1.
type comptes struct {
	stocke   compteur
	conflits int
	charges  int
	deja     bool
}

func (r *comptes) Charger(ctx context.Context, id string) (*compteur, error) {
	r.charges++
	if r.deja {
		return nil, idempotency.ErrAlreadyApplied
	}
	c := r.stocke.Copie()
	c.MarkSaved()
	return c, nil
}

func (r *comptes) Enregistrer(ctx context.Context, c *compteur, md eventstore.Metadata) error {
	if r.conflits > 0 {
		r.conflits--
		if err := Record(&r.stocke, 1); err != nil {
			return err
		}
		return &eventstore.ConflictError{Stream: "compteur", StreamExists: true}
	}
	r.stocke = *c.Copie()
	return nil
}

// TestRun_ConflitRedecideSansVersion: a command that meets another writer
// is decided again on the fresher aggregate, a bounded number of times,
// and only when the client sent no version; one already applied is not
// decided again.
func TestRun_ConflitRedecideSansVersion(t *testing.T) {
	double := func(c *compteur) error { return Record(c, c.total) }
	un := 1
	avecVersion := idempotency.WithCommand(context.Background(), idempotency.Command{ID: "m", Version: &un})
	tests := []struct {
		name        string
		ctx         context.Context
		conflits    int
		deja        bool
		erreur      bool
		charges     int
		total       int
		sansAgregat bool
	}{
		{"sans conflit", context.Background(), 0, false, false, 1, 4, false},
		{"deux conflits, décidé sur l'état frais", context.Background(), 2, false, false, 3, 8, false},
		{"conflits sans fin : cinq essais", context.Background(), 9, false, true, 5, 7, true},
		{"version du client : pas de nouvel essai", avecVersion, 1, false, true, 1, 3, true},
		{"commande déjà appliquée", context.Background(), 0, true, false, 1, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &comptes{conflits: tt.conflits, deja: tt.deja}
			require.NoError(t, Record(&r.stocke, 2))
			c, err := Run[*compteur](tt.ctx, r, "c", eventstore.Metadata{}, double)
			assert.Equal(t, tt.erreur, err != nil, "%v", err)
			assert.Equal(t, tt.charges, r.charges)
			assert.Equal(t, tt.total, r.stocke.total)
			assert.Equal(t, tt.sansAgregat, c == nil)
		})
	}
}
