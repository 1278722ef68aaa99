package repository

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// Issue 33 item 3: every repository words a store conflict the same way:
// CONFLICT, in French, the store's error kept as the cause.
func TestConflict_UneSeuleTraduction(t *testing.T) {
	conflit := &eventstore.ConflictError{Stream: "tournoi-T1", Current: 4, StreamExists: true}
	autre := errors.New("disque plein")
	tests := []struct {
		name string
		err  error
		code erreur.Code
	}{
		{"a store conflict is CONFLICT", conflit, erreur.CodeConflict},
		{"wrapped too", errors.Join(errors.New("enregistrement"), conflit), erreur.CodeConflict},
		{"any other error as it is", autre, ""},
		{"no error", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Conflict(tt.err, "le tournoi %s a été modifié entre-temps : recharger", "T1")
			assert.Equal(t, tt.code, erreur.CodeOf(err))
			if tt.code == "" {
				assert.Equal(t, tt.err, err)
				return
			}
			assert.ErrorIs(t, err, eventstore.ErrConflict, "the runner still sees the conflict")
			assert.Contains(t, err.Error(), "le tournoi T1 a été modifié entre-temps")
		})
	}
}
