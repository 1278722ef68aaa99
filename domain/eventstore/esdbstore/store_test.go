package esdbstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
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

// watchdog fails the test when wg is not done in time: a call that hangs
// past its deadline shows as this failure, not as a stuck test run.
func watchdog(t *testing.T, wg *sync.WaitGroup, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: still running 30 s later, long past every deadline", what)
	}
}

// stalledServer accepts connections and never answers, like a server that
// hangs; it returns its address.
func stalledServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// closedPort is an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// Issue 16, item 8: concurrent appends to a server that accepts and never
// answers each return by their own deadline (the client library makes
// them wait for its discovery, which ignores contexts).
func TestEsdb_AjoutsConcurrentsRespectentLeurEcheance(t *testing.T) {
	store, err := Open("esdb://"+stalledServer(t)+"?tls=false", Options{Timeout: time.Minute})
	require.NoError(t, err)
	defer store.Close()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			_, errs[i] = store.Append(ctx, "partie-1", eventstore.Any, eventstoretest.Events(1)...)
		}()
	}
	watchdog(t, &wg, "8 concurrent appends with a 300 ms deadline")
	for i, err := range errs {
		assert.ErrorIs(t, err, context.DeadlineExceeded, "append %d", i)
	}
}

// Issue 16, item 8: without a server, every call fails within the store's
// timeout even when its context has no deadline, and after the client
// library gave up (it closes its client for good after about a second) the
// store connects again rather than answering "connection closed" forever.
func TestEsdb_ServeurAbsent_EchecRapideEtReconnexion(t *testing.T) {
	cases := []struct {
		name string
		addr func(t *testing.T) string
	}{
		{"PortFerme", closedPort},
		{"ServeurMuet", stalledServer},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store, err := Open("esdb://"+tc.addr(t)+"?tls=false", Options{Timeout: 2 * time.Second, Backoff: time.Millisecond})
			require.NoError(t, err)
			defer store.Close()
			clients := 0
			newClient := store.liaison.newClient
			store.liaison.newClient = func() (*esdb.Client, error) { clients++; return newClient() }
			var wg sync.WaitGroup
			var errs []error
			wg.Add(1)
			go func() {
				defer wg.Done()
				for attempt := 0; attempt < 3; attempt++ {
					_, err := store.Append(context.Background(), "partie-1", eventstore.Any, eventstoretest.Events(1)...)
					errs = append(errs, err)
					time.Sleep(10 * time.Millisecond) // past the backoff
				}
			}()
			watchdog(t, &wg, "3 appends without a server")
			for i, err := range errs {
				require.ErrorIs(t, err, eventstore.ErrUnavailable, "append %d", i)
				var esErr *esdb.Error
				if errors.As(err, &esErr) {
					assert.NotEqual(t, esdb.ErrorCodeConnectionClosed, esErr.Code(), "append %d met a client closed for good: %v", i, err)
				}
			}
			assert.GreaterOrEqual(t, clients, 2, "the store connected again")
		})
	}
}

// Issue 16, item 8: a subscription without a server keeps trying, with
// backoff, and stops at once when cancelled or when the store closes.
func TestEsdb_AbonnementSansServeurSArreteSurDemande(t *testing.T) {
	store, err := Open("esdb://"+closedPort(t)+"?tls=false", Options{Timeout: time.Second, Backoff: time.Millisecond})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled, closed sync.WaitGroup
	var subErr, closedErr error
	cancelled.Add(1)
	go func() {
		defer cancelled.Done()
		subErr = store.Subscribe(ctx, 0, func(context.Context, eventstore.Event) error { return nil })
	}()
	closed.Add(1)
	go func() {
		defer closed.Done()
		closedErr = store.Subscribe(context.Background(), 0, func(context.Context, eventstore.Event) error { return nil })
	}()
	time.Sleep(200 * time.Millisecond) // a few failed tries
	cancel()
	watchdog(t, &cancelled, "a subscription after its cancellation")
	assert.ErrorIs(t, subErr, context.Canceled)
	require.NoError(t, store.Close())
	watchdog(t, &closed, "a subscription after Close")
	assert.ErrorIs(t, closedErr, eventstore.ErrClosed)
}
