package idempotency

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"arbitre/domain/eventstore"
)

func TestCommandeVerifier(t *testing.T) {
	events := []eventstore.Event{{Revision: 0}, {Revision: 1, Metadata: eventstore.Metadata{CausationID: "m-1"}},
		{Revision: 2, Metadata: eventstore.Metadata{Actor: "jeton:a", CausationID: "m-4", Request: "tirer:1"}}}
	three, one := 3, 1
	cases := []struct {
		name string
		c    Command
		want error
	}{
		{"no envelope", Command{}, nil},
		{"new command at the right version", Command{ID: "m-2", Version: &three}, nil},
		{"retry of a fingerprinted request", Command{ID: "m-4", Author: "jeton:a", Request: "tirer:1"}, ErrAlreadyApplied},
		{"another request under a used key", Command{ID: "m-4", Author: "jeton:a", Request: "rejeter:1"}, ErrKeyReused},
		{"the same id of another author", Command{ID: "m-4", Author: "jeton:b", Request: "rejeter:1", Version: &three}, nil},
		{"retry of an applied command", Command{ID: "m-1", Version: &one}, ErrAlreadyApplied},
		{"stale version", Command{ID: "m-3", Version: &one}, eventstore.ErrConflict},
	}
	for _, c := range cases {
		err := c.c.Check("partie-1", events)
		if c.want == nil {
			assert.NoError(t, err, c.name)
			continue
		}
		assert.ErrorIs(t, err, c.want, c.name)
	}
	err := Command{Version: &one}.Check("partie-1", events)
	v, ok := VersionOf(err)
	assert.True(t, ok)
	assert.Equal(t, 3, v, "the conflict tells the current version")
	ctx := WithCommand(context.Background(), Command{ID: "x", Request: "tirer:1"})
	assert.Equal(t, "x", CommandFrom(ctx).ID)
	assert.Equal(t, eventstore.Metadata{CausationID: "x", Request: "tirer:1"}, CommandFrom(ctx).Metadata(eventstore.Metadata{}))
	assert.False(t, errors.Is(nil, ErrAlreadyApplied))
}
