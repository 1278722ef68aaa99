package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/graphql/server"
)

// answer reads the websocket until the first answer to operation id.
func (sub *apiSubscription) answer(t *testing.T, id string) apiResult {
	t.Helper()
	require.NoError(t, sub.conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		var msg struct {
			ID      string    `json:"id"`
			Type    string    `json:"type"`
			Payload apiResult `json:"payload"`
		}
		require.NoError(t, sub.conn.ReadJSON(&msg))
		switch {
		case msg.Type == "ping":
			require.NoError(t, sub.conn.WriteJSON(map[string]any{"type": "pong"}))
		case msg.ID == id && msg.Type == "next":
			return msg.Payload
		case msg.ID == id && msg.Type == "error":
			t.Fatalf("operation %s refused: %+v", id, msg)
		}
	}
}

// ask sends one more operation on the subscription's connection and
// returns its answer.
func (sub *apiSubscription) ask(t *testing.T, id, query string) apiResult {
	t.Helper()
	require.NoError(t, sub.conn.WriteJSON(map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": query}}))
	return sub.answer(t, id)
}

// Issue 11 item 4: the rate limit counts the operations a websocket
// carries, not only the upgrade request, under the connection's token (or
// its address without one), and a caller's allowance is shared between
// HTTP and the websocket.
func TestSecurite_LimiteDeDebitWebsocket(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	limits := server.DefaultLimits
	limits.Rate, limits.Burst = 0.001, 3 // no refill while the test runs
	s := startLimitedAPIServer(t, data, limits)
	defer s.stop()
	const moi = `{ moi { role } }`

	// The director's connection: the upgrade counts for the address, the
	// operations for the token.
	sub := s.subscribe(director, moi, nil)
	require.Empty(t, sub.answer(t, "1").Errors)
	for i := 2; i <= 3; i++ {
		require.Empty(t, sub.ask(t, fmt.Sprint(i), moi).Errors, "operation %d", i)
	}
	assert.Equal(t, "RATE_LIMITED", sub.ask(t, "4", moi).code(), "the director's fourth operation")
	assert.Equal(t, "RATE_LIMITED", s.gql(director, moi, nil).code(), "nor over HTTP")

	// An anonymous connection: the address has two requests left.
	anon := s.subscribe("", moi, nil)
	require.Empty(t, anon.answer(t, "1").Errors)
	refused := anon.ask(t, "2", moi)
	assert.Equal(t, "RATE_LIMITED", refused.code())
	assert.EqualValues(t, 1, refused.Errors[0].Extensions["retryAfter"], "when to send again")
	assert.Empty(t, refused.Data)
	overHTTP := s.gql("", moi, nil)
	assert.Equal(t, "RATE_LIMITED", overHTTP.code(), "nor over HTTP")
	assert.EqualValues(t, 1, overHTTP.Errors[0].Extensions["retryAfter"], "when to send again")
}
