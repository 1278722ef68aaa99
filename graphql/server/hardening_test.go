package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/graphql"
	"arbitre/graphql/server"
)

// serveWithTimeouts runs the server through server.HTTPServer, as `arbitre
// serve` does, with the given timeouts, and returns its address.
func serveWithTimeouts(t *testing.T, timeouts server.Timeouts) string {
	t.Helper()
	e := server.New(server.Config{Resolver: &graphql.Resolver{Version: "test"}, Tokens: acces.NewRegistre(), Now: time.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv := server.HTTPServer(e, timeouts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return ln.Addr().String()
}

var shortTimeouts = server.Timeouts{ReadHeader: 200 * time.Millisecond, Read: 300 * time.Millisecond,
	Write: 300 * time.Millisecond, Idle: 300 * time.Millisecond}

// Item 15: a client that never finishes its request is disconnected once
// the read timeout passes, instead of holding a connection for ever.
func TestSecurite_ClientLentDeconnecte(t *testing.T) {
	addr := serveWithTimeouts(t, shortTimeouts)
	for name, start := range map[string]string{
		"headers never ended": "POST /graphql HTTP/1.1\r\nHost: arbitre\r\n",
		"body never sent": "POST /graphql HTTP/1.1\r\nHost: arbitre\r\nContent-Type: application/json\r\n" +
			"Content-Length: 100\r\n\r\n{\"query\":",
	} {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			_, err = io.WriteString(conn, start)
			require.NoError(t, err)
			// The test's own deadline is far beyond the server's timeouts: a
			// timeout here means the server kept the connection open.
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
			_, err = io.ReadAll(bufio.NewReader(conn))
			var ne net.Error
			assert.False(t, errors.As(err, &ne) && ne.Timeout(), "the server closed the connection: %v", err)
		})
	}
}

// Item 15: the HTTP timeouts do not apply to a websocket once upgraded: a
// subscription connection outlives them and still reads and writes.
func TestSecurite_WebsocketSurvitAuxDelaisHTTP(t *testing.T) {
	addr := serveWithTimeouts(t, shortTimeouts)
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}}
	conn, _, err := dialer.Dial("ws://"+addr+"/graphql", nil)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{}}))
	var msg struct{ Type string }
	require.NoError(t, conn.ReadJSON(&msg))
	require.Equal(t, "connection_ack", msg.Type)

	// Well past every timeout of the server.
	time.Sleep(3 * (shortTimeouts.Read + shortTimeouts.Write + shortTimeouts.Idle))
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	require.NoError(t, conn.WriteJSON(map[string]any{"type": "ping"}))
	require.NoError(t, conn.ReadJSON(&msg))
	assert.Equal(t, "pong", msg.Type)

	// Plain requests are served as usual.
	resp, err := http.Post("http://"+addr+"/graphql", "application/json", strings.NewReader(`{"query":"{ __typename }"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// Item 13: methods gqlgen has no transport for, and GET parameters that are
// not JSON objects, get a GraphQL answer coded BAD_REQUEST (gqlgen's own is
// uncoded, in English, and text/plain).
func TestSecurite_MethodesEtParametresRefuses(t *testing.T) {
	url := "http://" + serveWithTimeouts(t, server.DefaultTimeouts) + "/graphql"
	for _, tc := range []struct {
		method, query string
		status        int
	}{
		{http.MethodPut, "", http.StatusMethodNotAllowed},
		{http.MethodDelete, "", http.StatusMethodNotAllowed},
		{http.MethodPatch, "", http.StatusMethodNotAllowed},
		{http.MethodGet, "?query=%7B__typename%7D&variables=pas-du-json", http.StatusBadRequest},
		{http.MethodGet, "?query=%7B__typename%7D&variables=%5B1%5D", http.StatusBadRequest},
		{http.MethodGet, "?query=%7B__typename%7D&extensions=%22x%22", http.StatusBadRequest},
		{http.MethodGet, "?query=%7B__typename%7D&variables=%7B%7D", http.StatusOK},
	} {
		t.Run(tc.method+tc.query, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, url+tc.query, strings.NewReader("{}"))
			require.NoError(t, err)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			var out gqlResponse
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
			if tc.status == http.StatusOK {
				assert.Empty(t, out.Errors)
				return
			}
			assert.Equal(t, "BAD_REQUEST", out.code())
			assert.NotContains(t, out.Errors[0].Message, "pas-du-json")
		})
	}
}

// A repeated field (the review of session 10), end to end: the body the
// edge check let through (a repeated field whose first value has the wrong
// kind) fails gqlgen's decoding, whose uncoded error (the body in it) comes out as
// INTERNAL « Erreur interne du serveur », where the edge answered 400
// BAD_REQUEST « le champ « query » doit être une chaîne »; docs/securite.md
// promises that no request gets an INTERNAL code.
func TestSecurite_ChampRepeteRefuseEnBadRequestPasEnInterne(t *testing.T) {
	h := newHarness(t)
	corps := `{"query": 5, "query": "{ __typename }", "operationName": "marqueur-du-corps-0123456789"}`
	req, err := http.NewRequest(http.MethodPost, h.url+"/graphql", strings.NewReader(corps))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out gqlResponse
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	require.Len(t, out.Errors, 1)
	assert.Equal(t, "BAD_REQUEST", out.Errors[0].Extensions["code"])
	assert.NotContains(t, out.Errors[0].Message, "marqueur-du-corps", "the refusal does not echo the body")
}
