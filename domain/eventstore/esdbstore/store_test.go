package esdbstore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"

	"github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// urlEnv names the server the conformance suite runs against.
const urlEnv = "ARBITRE_ESDB_URL"

func TestEventStoreDBConformsToTheContract(t *testing.T) {
	url := os.Getenv(urlEnv)
	if url == "" {
		t.Skip(urlEnv + " is not set, so there is no EventStoreDB server to test against: start one " +
			"(docs/esdb-cluster/docker-compose.yml) and set e.g. " + urlEnv + "=esdb://localhost:2113?tls=false")
	}
	eventstoretest.Run(t, func(t *testing.T, clock eventstore.Clock) eventstore.Store {
		store, err := openForSuite(url, clock)
		require.NoError(t, err)
		t.Cleanup(func() { store.Close() })
		return store
	}, eventstoretest.Capabilities{GaplessPositions: false})
}

// suiteTimeout bounds each call of the suite and the first contact: a server
// that is gone fails the suite quickly, saying so, instead of hanging it.
const suiteTimeout = 5 * time.Second

// openForSuite opens the store and checks that the server answers.
func openForSuite(url string, clock eventstore.Clock) (*Store, error) {
	store, err := Open(url, Options{Clock: clock, Timeout: suiteTimeout})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	if _, err := store.LastPosition(ctx); err != nil {
		store.Close()
		return nil, fmt.Errorf("EventStoreDB at %s does not answer within %s (is it running? %s chooses the server): %w", url, suiteTimeout, urlEnv, err)
	}
	return store, nil
}

// Issue 16, item 8: the suite stops at once, naming the server, when no
// server answers.
func TestEsdb_SuiteEchoueVitePourUnServeurAbsent(t *testing.T) {
	url := "esdb://" + closedPort(t) + "?tls=false"
	var wg sync.WaitGroup
	var err error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err = openForSuite(url, nil)
	}()
	watchdog(t, &wg, "opening the suite's store without a server")
	require.Error(t, err)
	assert.Contains(t, err.Error(), url)
	assert.Contains(t, err.Error(), "does not answer")
}

func TestExpectedRevisionMapsToTheClientsTypes(t *testing.T) {
	cases := []struct {
		in   eventstore.ExpectedRevision
		want esdb.ExpectedRevision
	}{
		{eventstore.Any, esdb.Any{}},
		{eventstore.NoStream, esdb.NoStream{}},
		{eventstore.StreamExists, esdb.StreamExists{}},
		{eventstore.Exact(0), esdb.Revision(0)},
		{eventstore.Exact(41), esdb.Revision(41)},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, toExpected(tc.in), "%s", tc.in)
	}
}

func TestEventRoundTripsThroughTheServersRecordShape(t *testing.T) {
	recordedAt := time.Date(2025, 3, 15, 9, 30, 0, 123456789, time.UTC)
	in := eventstore.EventData{
		ID: uuid.New(), Type: "partie.tirage", Version: 3, Data: json.RawMessage(`{"tirage":["A"]}`),
		Metadata: eventstore.Metadata{Actor: "arbitre-1", Role: "arbitre", CorrelationID: "c", CausationID: "k"},
	}
	proposed, err := toEventData(in, recordedAt)
	require.NoError(t, err)
	assert.Equal(t, esdb.ContentTypeJson, proposed.ContentType)
	assert.JSONEq(t, `{"actor":"arbitre-1","role":"arbitre","$correlationId":"c","$causationId":"k","recordedAt":"2025-03-15T09:30:00.123456789Z","schemaVersion":3}`, string(proposed.Metadata))

	got := fromRecorded(&esdb.RecordedEvent{
		EventID: in.ID, EventType: in.Type, StreamID: "partie-9", EventNumber: 4,
		Position: esdb.Position{Commit: 1234, Prepare: 1234}, Data: proposed.Data, UserMetadata: proposed.Metadata,
		CreatedDate: time.Now(),
	})
	want := eventstore.Event{ID: in.ID, Stream: "partie-9", Revision: 4, Position: 1234, Type: in.Type, Version: 3, Data: in.Data,
		Metadata: eventstore.Metadata{Actor: "arbitre-1", Role: "arbitre", CorrelationID: "c", CausationID: "k", RecordedAt: recordedAt}}
	assert.Equal(t, want, got)
}

func TestForeignEventsReadAsVersionOneAtTheServersDate(t *testing.T) {
	created := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	got := fromRecorded(&esdb.RecordedEvent{EventType: "legacy", StreamID: "x", Data: []byte(`{}`), UserMetadata: []byte(`not json`), CreatedDate: created})
	assert.Equal(t, 1, got.Version)
	assert.Equal(t, created, got.Metadata.RecordedAt)
}

func TestSystemEventsAreRecognized(t *testing.T) {
	cases := []struct {
		stream, typ string
		system      bool
	}{
		{"partie-1", "partie.tirage", false},
		{"$stats-127.0.0.1:2113", "$statsCollected", true},
		{"$$partie-1", "$metadata", true},
		{"partie-1", "$>", true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.system, isSystem(&esdb.RecordedEvent{StreamID: tc.stream, EventType: tc.typ}), "%s/%s", tc.stream, tc.typ)
	}
}

func TestAllPositionStartsAtTheBeginningForZero(t *testing.T) {
	assert.Equal(t, esdb.Start{}, allPosition(0))
	assert.Equal(t, esdb.Position{Commit: 77, Prepare: 77}, allPosition(77))
}

func TestOpenRefusesAMalformedURL(t *testing.T) {
	_, err := Open("http://not-an-esdb-url", Options{})
	assert.ErrorIs(t, err, eventstore.ErrInvalidArgument)
}
