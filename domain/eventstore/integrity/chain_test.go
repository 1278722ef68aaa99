package integrity

import (
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
)

// TestChainHash_EmpreintesFigees pins the hash of fixed events: every store
// already written is chained with it, so any change to how it is computed
// must give the same bytes (issue 16, item 1).
func TestChainHash_EmpreintesFigees(t *testing.T) {
	previous, err := hex.DecodeString("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
	require.NoError(t, err)
	event := eventstore.Event{
		ID: uuid.MustParse("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"), Stream: "partie-7", Revision: 12, Position: 345,
		Type: "duplicate.bulletin_depose", Version: 2, Data: []byte(`{"coup":3,"licence":"012345"}`),
		Metadata: eventstore.Metadata{Actor: "jeton:a", Role: "arbitre", CorrelationID: "c-1", CausationID: "m-4",
			Request: "deposer:3", RecordedAt: time.Unix(1_700_000_000, 123_456_789)},
	}
	large := event
	large.Data = []byte(`"` + strings.Repeat("é", 3000) + `"`)
	cases := []struct {
		name     string
		previous []byte
		event    eventstore.Event
		want     string
	}{
		{"first event of the log", nil, eventstore.Event{Position: 1, Stream: "s", Type: "t"}, "0e7607d633ea7b741b883a209547f7171dc947b9f571fdb720823a19597f05e1"},
		{"an event after another", previous, event, "17c3999105d924f8c0de56b600361c55fea40b5d630378d1a87d4b493ceaabb7"},
		{"a payload larger than a page of memory", previous, large, "fd1513c4fde18acb511e82be52c62d2fe50b9b812cae9146ccdb4aa9ad226dbe"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, hex.EncodeToString(ChainHash(tc.previous, tc.event)))
		})
	}
}
