package aggregate

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compteur is the smallest aggregate: it adds positive numbers and refuses
// the others, changing nothing.
type compteur struct {
	Base
	total  int
	termes []int
}

func (c *compteur) Apply(e any) error { return Apply(&c.Base, c.transition, e) }

func (c *compteur) transition(e any) error {
	n, ok := e.(int)
	if !ok || n <= 0 {
		return errors.New("refusé")
	}
	c.total += n
	c.termes = append(c.termes, n)
	return nil
}

func (c *compteur) Copie() *compteur {
	k := *c
	k.termes = slices.Clone(c.termes)
	return &k
}

// TestRecord_ToutOuRien: a command's events are kept all or nothing, and
// the events held are counted, saved or not.
func TestRecord_ToutOuRien(t *testing.T) {
	c := &compteur{}
	require.NoError(t, Record(c, 1, 2))
	avant := *c.Copie()
	for _, lot := range [][]any{{-1}, {3, -1}, {3, "x", 4}} {
		assert.Error(t, Record(c, lot...))
		assert.Equal(t, avant, *c, "%v", lot)
	}
	require.NoError(t, Record(c, 3))
	assert.Equal(t, 3, c.Version())
	assert.Equal(t, []any{1, 2, 3}, c.Pending())
	assert.Equal(t, []any{1, 2, 3}, c.Pending(), "Pending forgets nothing")
	c.MarkSaved()
	assert.Empty(t, c.Pending())
	assert.Equal(t, 3, c.Version())
}

// TestDecider_SurUneCopie: a command that decides its later events on the
// state its earlier ones leave runs on a copy, which becomes the aggregate
// only when the command succeeds.
func TestDecider_SurUneCopie(t *testing.T) {
	c := &compteur{}
	require.NoError(t, Record(c, 1))
	avant := *c.Copie()
	assert.Error(t, Decide(c, func(k *compteur) error {
		require.NoError(t, Record(k, k.total+1))
		return Record(k, -k.total)
	}))
	assert.Equal(t, avant, *c)
	require.NoError(t, Decide(c, func(k *compteur) error { return Record(k, k.total+1) }))
	assert.Equal(t, 3, c.total)
	assert.Equal(t, []any{1, 2}, c.Pending())
}

// TestRecord_CopiesNePartagentPasLesEvenementsEnAttente: an aggregate and its copy
// record apart: neither sees the other's new events.
func TestRecord_CopiesNePartagentPasLesEvenementsEnAttente(t *testing.T) {
	c := &compteur{}
	require.NoError(t, Record(c, 1, 2, 3))
	k := c.Copie()
	require.NoError(t, Record(k, 10))
	require.NoError(t, Record(c, 20))
	assert.Equal(t, []any{1, 2, 3, 10}, k.Pending())
	assert.Equal(t, []any{1, 2, 3, 20}, c.Pending())
}
