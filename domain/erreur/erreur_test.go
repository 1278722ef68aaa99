package erreur

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRefusals(t *testing.T) {
	cause := errors.New("disque plein")
	err := fmt.Errorf("enregistrement: %w", RefusCause("CONFLICT", cause, "partie %s", "p1"))
	assert.Equal(t, Code("CONFLICT"), CodeOf(err))
	assert.Equal(t, Code(""), CodeOf(cause))
	assert.ErrorIs(t, err, &Erreur{Code: "CONFLICT"})
	assert.NotErrorIs(t, err, &Erreur{Code: "NOT_FOUND"})
	assert.ErrorIs(t, err, cause)
	assert.EqualError(t, Refus("X", "n°%d", 3), "X: n°3")
	assert.Equal(t, "CONFLICT: partie p1: disque plein", errors.Unwrap(err).Error())
}

func TestAvec_CopieLesDetails(t *testing.T) {
	base := &Erreur{Code: "CONFLICT", Message: "m", Details: map[string]any{"a": 1}}
	plus := base.Avec("version", 3)
	assert.Equal(t, map[string]any{"a": 1, "version": 3}, plus.Details)
	assert.Equal(t, map[string]any{"a": 1}, base.Details, "the original is unchanged")
}
