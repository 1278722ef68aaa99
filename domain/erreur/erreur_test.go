package erreur

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

type codeA string
type codeB string

func TestRefusals(t *testing.T) {
	cause := errors.New("disque plein")
	err := fmt.Errorf("enregistrement: %w", RefusCause(codeA("CONFLICT"), cause, "partie %s", "p1"))
	assert.Equal(t, codeA("CONFLICT"), CodeOf[codeA](err))
	assert.Equal(t, codeB(""), CodeOf[codeB](err), "another package's codes do not match")
	assert.ErrorIs(t, err, &Erreur[codeA]{Code: "CONFLICT"})
	assert.NotErrorIs(t, err, &Erreur[codeA]{Code: "NOT_FOUND"})
	assert.ErrorIs(t, err, cause)
	assert.EqualError(t, Refus(codeA("X"), "n°%d", 3), "X: n°3")
	assert.Equal(t, "CONFLICT: partie p1: disque plein", errors.Unwrap(err).Error())
}
