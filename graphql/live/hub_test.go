package live

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func receive(t *testing.T, ch <-chan uint64) uint64 {
	t.Helper()
	select {
	case pos, ok := <-ch:
		require.True(t, ok)
		return pos
	case <-time.After(2 * time.Second):
		t.Fatal("no wake-up")
	}
	return 0
}

func nothing(t *testing.T, ch <-chan uint64) {
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
	for i := 1; i <= 1000; i++ {
		h.Publish("partie-1", uint64(i)) // never blocks, even with nobody reading
	}
	assert.Equal(t, uint64(1000), receive(t, a), "the latest position")
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
			h.Publish("x", uint64(i))
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
