package eventstore_test

import (
	"encoding/json"
	"errors"
	"testing"

	"arbitre/domain/eventstore"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tirageV3 is the current payload; v1 had "lettres" as one string, v2
// renamed it "tirage", v3 split it into a list.
type tirageV3 struct {
	Tirage []string `json:"tirage"`
}

type decisionRendue struct {
	Verdict string `json:"verdict"`
}

func newTestRegistry(t *testing.T) *eventstore.Registry {
	t.Helper()
	reg := eventstore.NewRegistry()
	v1to2 := func(data json.RawMessage) (json.RawMessage, error) {
		var v1 struct {
			Lettres string `json:"lettres"`
		}
		if err := json.Unmarshal(data, &v1); err != nil {
			return nil, err
		}
		return json.Marshal(map[string]string{"tirage": v1.Lettres})
	}
	v2to3 := func(data json.RawMessage) (json.RawMessage, error) {
		var v2 struct {
			Tirage string `json:"tirage"`
		}
		if err := json.Unmarshal(data, &v2); err != nil {
			return nil, err
		}
		letters := []string{}
		for _, r := range v2.Tirage {
			letters = append(letters, string(r))
		}
		return json.Marshal(tirageV3{Tirage: letters})
	}
	require.NoError(t, eventstore.Register[tirageV3](reg, "partie.tirage", 3, v1to2, v2to3))
	require.NoError(t, eventstore.Register[decisionRendue](reg, "appel.decision_rendue", 1))
	return reg
}

func TestRegistryUpcastsOldVersionsToTheCurrentOne(t *testing.T) {
	reg := newTestRegistry(t)
	cases := []struct {
		name    string
		version int
		data    string
	}{
		{"FromVersion1", 1, `{"lettres":"ABC"}`},
		{"FromVersion2", 2, `{"tirage":"ABC"}`},
		{"AlreadyCurrent", 3, `{"tirage":["A","B","C"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := reg.Decode(eventstore.Event{Type: "partie.tirage", Version: tc.version, Data: json.RawMessage(tc.data)})
			require.NoError(t, err)
			assert.Equal(t, tirageV3{Tirage: []string{"A", "B", "C"}}, got)
		})
	}
}

func TestRegistryRefusesWhatItCannotRead(t *testing.T) {
	reg := newTestRegistry(t)
	cases := []struct {
		name  string
		event eventstore.Event
		is    error
		code  eventstore.Code
	}{
		{"UnknownType", eventstore.Event{Type: "partie.inconnu", Version: 1, Data: json.RawMessage(`{}`)}, eventstore.ErrUnknownEventType, eventstore.CodeUnknownEventType},
		{"FutureVersion", eventstore.Event{Type: "partie.tirage", Version: 4, Data: json.RawMessage(`{}`)}, eventstore.ErrFutureSchemaVersion, eventstore.CodeFutureSchemaVersion},
		{"VersionZero", eventstore.Event{Type: "partie.tirage", Version: 0, Data: json.RawMessage(`{}`)}, eventstore.ErrMalformedPayload, eventstore.CodeMalformedPayload},
		{"UpcasterFails", eventstore.Event{Type: "partie.tirage", Version: 1, Data: json.RawMessage(`[1]`)}, eventstore.ErrMalformedPayload, eventstore.CodeMalformedPayload},
		{"PayloadDoesNotFitType", eventstore.Event{Type: "appel.decision_rendue", Version: 1, Data: json.RawMessage(`{"verdict":12}`)}, eventstore.ErrMalformedPayload, eventstore.CodeMalformedPayload},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got any
			var err error
			require.NotPanics(t, func() { got, err = reg.Decode(tc.event) })
			assert.Nil(t, got)
			assert.ErrorIs(t, err, tc.is)
			assert.Equal(t, tc.code, eventstore.CodeOf(err))
		})
	}
	var future *eventstore.FutureSchemaVersionError
	_, err := reg.Upcast(eventstore.Event{Type: "partie.tirage", Version: 9})
	require.ErrorAs(t, err, &future)
	assert.Equal(t, 3, future.Supported)
}

func TestRegisterRefusesAmbiguousDeclarations(t *testing.T) {
	identity := func(d json.RawMessage) (json.RawMessage, error) { return d, nil }
	cases := []struct {
		name     string
		register func(*eventstore.Registry) error
	}{
		{"NameTakenFromGoStyle", func(r *eventstore.Registry) error { return eventstore.Register[decisionRendue](r, "DecisionRendue", 1) }},
		{"SystemName", func(r *eventstore.Registry) error { return eventstore.Register[decisionRendue](r, "$stats", 1) }},
		{"VersionZero", func(r *eventstore.Registry) error { return eventstore.Register[decisionRendue](r, "appel.decision", 0) }},
		{"MissingUpcaster", func(r *eventstore.Registry) error {
			return eventstore.Register[decisionRendue](r, "appel.decision", 3, identity)
		}},
		{"NilUpcaster", func(r *eventstore.Registry) error {
			return eventstore.Register[decisionRendue](r, "appel.decision", 2, nil)
		}},
		{"NameTwice", func(r *eventstore.Registry) error { return eventstore.Register[struct{ A int }](r, "partie.tirage", 1) }},
		{"GoTypeTwice", func(r *eventstore.Registry) error { return eventstore.Register[tirageV3](r, "partie.autre", 1) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.register(newTestRegistry(t))
			assert.ErrorIs(t, err, eventstore.ErrInvalidArgument)
		})
	}
}

func TestNewEventDataUsesTheRegisteredNameAndVersion(t *testing.T) {
	reg := newTestRegistry(t)
	id := uuid.MustParse("7b0c6f1e-8f38-4c3e-9d3c-3f2b8f0b1a01")
	md := eventstore.Metadata{Actor: "a", Role: "arbitre"}
	data, err := reg.NewEventData(id, tirageV3{Tirage: []string{"Z"}}, md)
	require.NoError(t, err)
	assert.Equal(t, eventstore.EventData{ID: id, Type: "partie.tirage", Version: 3, Data: json.RawMessage(`{"tirage":["Z"]}`), Metadata: md}, data)

	_, err = reg.NewEventData(id, struct{ X int }{}, md)
	assert.ErrorIs(t, err, eventstore.ErrUnknownEventType)
}

func TestErrorsMatchTheirSentinelsAndCodes(t *testing.T) {
	conflict := error(&eventstore.ConflictError{Stream: "partie-1", Expected: eventstore.Exact(3), Current: 5, StreamExists: true})
	wrapped := errors.Join(errors.New("context"), conflict)
	assert.ErrorIs(t, wrapped, eventstore.ErrConflict)
	assert.Equal(t, eventstore.CodeConflict, eventstore.CodeOf(wrapped))
	assert.Equal(t, "eventstore.conflict: stream partie-1: expected revision 3, found revision 5", conflict.Error())
	assert.NotErrorIs(t, conflict, eventstore.ErrDuplicateEventID)

	cause := errors.New("disk I/O error")
	err := eventstore.NewError(eventstore.CodeUnavailable, "reading", cause)
	assert.ErrorIs(t, err, eventstore.ErrUnavailable)
	assert.ErrorIs(t, err, cause, "the cause is kept")
	assert.NotErrorIs(t, err, eventstore.ErrCorruptStore)
	assert.Equal(t, eventstore.Code(""), eventstore.CodeOf(cause))
}
