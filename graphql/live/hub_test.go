package live

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func receive(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case _, ok := <-ch:
		require.True(t, ok)
	case <-time.After(2 * time.Second):
		t.Fatal("no wake-up")
	}
}

func nothing(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
		t.Fatal("unexpected wake-up")
	case <-time.After(20 * time.Millisecond):
	}
}

func TestHubWakesMatchingSubscribersAndCoalesces(t *testing.T) {
	h := NewHub()
	ctx, cancel := context.WithCancel(context.Background())
	a := h.Subscribe(ctx, func(s string) bool { return s == "partie-1" })
	b := h.Subscribe(ctx, func(s string) bool { return s == "partie-2" })
	receive(t, a) // immediate first state
	receive(t, b)
	for i := 0; i < 1000; i++ {
		h.Publish("partie-1") // never blocks, even with nobody reading
	}
	receive(t, a)
	nothing(t, b)
	cancel()
	assert.Eventually(t, func() bool { return h.Subscribers() == 0 }, time.Second, time.Millisecond, "no leak after cancel")
}

// A subscriber that never reads does not slow the others.
func TestSlowSubscriberDoesNotBlock(t *testing.T) {
	h := NewHub()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_ = h.Subscribe(ctx, func(string) bool { return true }) // never read
	fast := h.Subscribe(ctx, func(string) bool { return true })
	receive(t, fast)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 10000; i++ {
			h.Publish("x")
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("publish blocked")
	}
	receive(t, fast)
}
