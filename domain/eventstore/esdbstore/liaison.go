package esdbstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"arbitre/domain/eventstore"

	"github.com/EventStore/EventStore-Client-Go/v4/esdb"
)

// The client library (v4.2.0) has two traits this file works around (issue
// 16, item 8):
//
//   - when discovery fails (MaxDiscoverAttempts tries, DiscoveryInterval
//     apart: about a second with the defaults), its connection goroutine
//     exits and the client is closed for good: every later call fails with
//     ErrorCodeConnectionClosed;
//   - a call first asks that goroutine for a connection without any context,
//     so a call queued behind a discovery waits for it (up to
//     MaxDiscoverAttempts × GossipTimeout against a server that accepts and
//     stalls), and one queued when the goroutine exits waits forever.
//
// So the store runs each call in a goroutine and returns at the caller's
// deadline (or Options.Timeout); it lets one call at a time through a client
// until that client has answered once, so a failing discovery strands no
// other caller; and it replaces a client that failed to connect, or missed a
// deadline, by a new one, after a backoff that doubles from Options.Backoff
// up to MaxBackoff. Calls that arrive during the backoff fail at once with
// eventstore.ErrUnavailable and the last error. A replaced client is closed
// once no call of ours is inside it (closing it earlier would make a caller
// blocked inside panic).

// liaison holds the current client and replaces it when it fails.
type liaison struct {
	newClient func() (*esdb.Client, error)
	backoff   time.Duration

	mu       sync.Mutex
	cur      *client
	failures int
	retryAt  time.Time
	lastErr  error
	closed   bool
}

// client is one esdb.Client and the calls of ours inside it.
type client struct {
	esdb *esdb.Client
	// gate lets one call through until the client has answered once.
	gate chan struct{}

	mu       sync.Mutex
	proven   bool
	inflight int
	dead     bool
}

// MaxBackoff bounds the wait between two connections.
const MaxBackoff = 5 * time.Second

// get returns the current client, or a new one when the backoff after the
// last failure has passed.
func (l *liaison) get() (*client, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, eventstore.ErrClosed
	case l.cur != nil:
		return l.cur, nil
	case time.Now().Before(l.retryAt):
		return nil, eventstore.NewError(eventstore.CodeUnavailable,
			fmt.Sprintf("EventStoreDB is unreachable (%d failed connections; next try in %s)", l.failures, time.Until(l.retryAt).Round(time.Millisecond)), l.lastErr)
	}
	c, err := l.newClient()
	if err != nil {
		return nil, eventstore.NewError(eventstore.CodeUnavailable, "creating EventStoreDB client", err)
	}
	l.cur = &client{esdb: c, gate: make(chan struct{}, 1)}
	return l.cur, nil
}

// discard replaces c after a connection failure or a missed deadline.
func (l *liaison) discard(c *client, cause error) {
	l.mu.Lock()
	if l.cur == c {
		l.cur = nil
		l.failures++
		l.retryAt = time.Now().Add(min(l.backoff<<min(l.failures-1, 16), MaxBackoff))
		l.lastErr = cause
	}
	l.mu.Unlock()
	c.mu.Lock()
	c.dead = true
	c.closeIfIdle()
	c.mu.Unlock()
}

// succeeded resets the backoff once c answered.
func (l *liaison) succeeded(c *client) {
	c.mu.Lock()
	c.proven = true
	c.mu.Unlock()
	l.mu.Lock()
	if l.cur == c {
		l.failures = 0
	}
	l.mu.Unlock()
}

// close closes the current client; a replaced one closes when idle.
func (l *liaison) close() {
	l.mu.Lock()
	c := l.cur
	l.cur, l.closed = nil, true
	l.mu.Unlock()
	if c != nil {
		c.mu.Lock()
		c.dead = true
		c.closeIfIdle()
		c.mu.Unlock()
	}
}

// enter counts a call in, waiting for the gate while the client has not
// answered yet; the returned function counts it out.
func (c *client) enter(ctx context.Context) (func(), error) {
	c.mu.Lock()
	gated := !c.proven
	c.inflight++
	c.mu.Unlock()
	leave := func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.inflight--
		c.closeIfIdle()
	}
	if !gated {
		return leave, nil
	}
	select {
	case c.gate <- struct{}{}:
		return func() { <-c.gate; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}

// closeIfIdle closes a dead client no call is inside; c.mu is held.
func (c *client) closeIfIdle() {
	if c.dead && c.inflight == 0 && c.esdb != nil {
		c.esdb.Close()
		c.esdb = nil
	}
}

// broken tells whether err means the connection, not the request, failed.
func broken(err error) bool {
	return hasCode(err, esdb.ErrorCodeConnectionClosed) || hasCode(err, esdb.ErrorUnavailable) ||
		hasCode(err, esdb.ErrorCodeDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
}

// call runs fn on a client and returns by ctx's deadline, or timeout when
// ctx has none earlier, whatever the client does.
func (l *liaison) call(ctx context.Context, timeout time.Duration, fn func(ctx context.Context, c *esdb.Client) error) error {
	opCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := l.get()
	if err != nil {
		return err
	}
	leave, err := c.enter(opCtx)
	if err == nil {
		done := make(chan error, 1)
		cl := c.esdb
		go func() {
			defer leave()
			done <- fn(opCtx, cl)
		}()
		select {
		case err = <-done:
		case <-opCtx.Done():
			err = opCtx.Err()
		}
	}
	switch {
	case err == nil:
		l.succeeded(c)
	case ctx.Err() != nil:
		// The caller's own deadline or cancellation.
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			l.discard(c, ctx.Err())
		}
		return ctx.Err()
	case broken(err):
		l.discard(c, err)
		if opCtx.Err() != nil {
			return eventstore.NewError(eventstore.CodeUnavailable, fmt.Sprintf("EventStoreDB did not answer within %s", timeout), err)
		}
	case !errors.Is(err, context.Canceled):
		l.succeeded(c)
	}
	return err
}
