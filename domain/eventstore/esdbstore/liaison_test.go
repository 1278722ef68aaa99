package esdbstore

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"

	"github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
