package main

// End-to-end tests of issue 27 items 3 and 6 and of the operations'
// deadline: the websocket on both subprotocols (graphql-transport-ws, the
// pages', and the legacy graphql-ws) against a real `arbitre serve`.

import (
	"encoding/json"
	"errors"
	"fmt"
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

	"arbitre/graphql/server"
)

// sousProtocoles are the websocket subprotocols the server speaks, each
// with its message types: connection_init's answer, an operation's start,
// its answers.
var sousProtocoles = []struct {
	nom, ack, debut, donnees string
}{
	{"graphql-transport-ws", "connection_ack", "subscribe", "next"},
	{"graphql-ws", "connection_ack", "start", "data"},
}

// ouvrirWS opens a websocket to the server with subprotocol and header,
// without sending anything.
func ouvrirWS(t *testing.T, s *apiServer, protocole string, header http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	dialer := websocket.Dialer{Subprotocols: []string{protocole}, WriteBufferSize: 1 << 20}
	conn, resp, err := dialer.Dial(strings.Replace(s.url, "http", "ws", 1)+"/graphql", header)
	if conn != nil {
		t.Cleanup(func() { conn.Close() })
	}
	return conn, resp, err
}

// initialiserWS sends connection_init and waits for its ack.
func initialiserWS(t *testing.T, conn *websocket.Conn, ack string) {
	t.Helper()
	require.NoError(t, conn.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{}}))
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	var m struct{ Type string }
	require.NoError(t, conn.ReadJSON(&m))
	require.Equal(t, ack, m.Type)
}

// fermeture reads conn until the server closes it and returns the close
// code; the test fails if it is still open at deadline.
func fermeture(t *testing.T, conn *websocket.Conn, deadline time.Time) int {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(deadline))
	for {
		_, _, err := conn.ReadMessage()
		if err == nil {
			continue // keep-alives, a connection_error before the close
		}
		var closeErr *websocket.CloseError
		var netErr net.Error
		require.False(t, errors.As(err, &netErr) && netErr.Timeout(), "the connection is still open at %s", deadline.Format(time.RFC3339Nano))
		require.True(t, errors.As(err, &closeErr), "the server closes the connection: %v", err)
		return closeErr.Code
	}
}

// Item 3: one message larger than 1 MB is refused on both subprotocols,
// before connection_init as after: the server stops reading it and closes
// the connection, instead of holding it whole in memory (today 700 MB in
// one frame take 700 MB); its memory stays under memoireMax and /healthz
// answers meanwhile.
func TestSecurite_WebsocketMessageGeant(t *testing.T) {
	const envoi = 700 << 20
	for _, p := range sousProtocoles {
		t.Run(p.nom, func(t *testing.T) {
			s := serveProcessus(t, t.TempDir(), "--rate", "0")
			conn, _, err := ouvrirWS(t, s, p.nom, nil)
			require.NoError(t, err)
			v := surveiller(t, s)
			w, err := conn.NextWriter(websocket.TextMessage)
			require.NoError(t, err)
			_, err = io.WriteString(w, `{"type":"connection_init","payload":{"x":"`)
			require.NoError(t, err)
			morceau := []byte(strings.Repeat("A", 1<<20))
			envoye := 0
			for envoye < envoi {
				if _, err = w.Write(morceau); err != nil {
					break
				}
				envoye += len(morceau)
			}
			if err == nil {
				err = w.Close()
			}
			v.verifier(t, fmt.Sprintf("%s : un message de %d Mo (%d Mo envoyés)", p.nom, envoi>>20, envoye>>20))
			require.Error(t, err, "the server stops reading and closes the connection")
			assert.Less(t, envoye, envoi)
			assert.Empty(t, s.gql("", `{ serveur { version } }`, nil).Errors, "the server still answers")
		})
	}
}

// Item 3: a page of another origin cannot open a websocket to the server
// (a phone in the hall opens any page): the upgrade is refused with 403
// and a GraphQL error FORBIDDEN, on both subprotocols. The server's own
// pages (Origin naming its host) and clients that are no browser (no
// Origin) connect.
func TestSecurite_WebsocketAutreOrigine(t *testing.T) {
	s := startAPIServer(t, t.TempDir())
	defer s.stop()
	for _, p := range sousProtocoles {
		t.Run(p.nom, func(t *testing.T) {
			for _, origine := range []string{"http://evil.example", "null", "http://127.0.0.1.evil.example", "http://localhost:1"} {
				_, resp, err := ouvrirWS(t, s, p.nom, http.Header{"Origin": {origine}})
				require.Error(t, err, origine)
				require.NotNil(t, resp, origine)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode, origine)
				var res apiResult
				require.NoError(t, json.NewDecoder(resp.Body).Decode(&res), origine)
				assert.Equal(t, "FORBIDDEN", res.code(), origine)
				assert.Contains(t, res.Errors[0].Message, "origine")
			}
			for _, header := range []http.Header{{"Origin": {s.url}}, nil} {
				conn, _, err := ouvrirWS(t, s, p.nom, header)
				require.NoError(t, err, "%v", header)
				initialiserWS(t, conn, p.ack)
			}
		})
	}
}

// Item 3: a websocket that sends no connection_init is closed once the
// delay passes (1002), on both subprotocols (the legacy one waited
// for ever).
func TestSecurite_WebsocketSansInitFerme(t *testing.T) {
	s := startAPIServerWith(t, t.TempDir(), slogDiscard(), func(c *server.Config) {
		c.Limits.Rate = 0
		c.Delais.InitWS = 200 * time.Millisecond
	})
	defer s.stop()
	for _, p := range sousProtocoles {
		t.Run(p.nom, func(t *testing.T) {
			conn, _, err := ouvrirWS(t, s, p.nom, nil)
			require.NoError(t, err)
			assert.Equal(t, websocket.CloseProtocolError, fermeture(t, conn, time.Now().Add(5*time.Second)))
		})
	}
}

// Item 6: a websocket that runs no operation is closed once the idle delay
// passes, on both subprotocols (2,000 legacy sockets were held for
// minutes, 20 upgrades a second reached the file-descriptor limit in 17
// minutes); one that follows a subscription stays open.
func TestSecurite_WebsocketInactifFerme(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	const inactivite = 300 * time.Millisecond
	s := startAPIServerWith(t, data, slogDiscard(), func(c *server.Config) {
		c.Limits.Rate = 0
		c.Delais.InactiviteWS = inactivite
	})
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	for i, p := range sousProtocoles {
		t.Run(p.nom, func(t *testing.T) {
			partie := fmt.Sprintf("T1-%d", i+1)
			require.Empty(t, s.gql(director, `mutation($p: ID!) { creerPartie(tournoi:"T1", partie:$p, config:{source: logiciel, graine: 7}) { version } }`,
				map[string]any{"p": partie}).Errors)
			var inactifs []*websocket.Conn
			for range 20 {
				conn, _, err := ouvrirWS(t, s, p.nom, nil)
				require.NoError(t, err)
				initialiserWS(t, conn, p.ack)
				inactifs = append(inactifs, conn)
			}
			suivi, _, err := ouvrirWS(t, s, p.nom, nil)
			require.NoError(t, err)
			initialiserWS(t, suivi, p.ack)
			require.NoError(t, suivi.WriteJSON(map[string]any{"id": "1", "type": p.debut,
				"payload": map[string]any{"query": `subscription($p: ID!) { coupAnnonce(partie:$p) { version } }`, "variables": map[string]any{"p": partie}}}))
			for _, conn := range inactifs {
				assert.Equal(t, websocket.CloseNormalClosure, fermeture(t, conn, time.Now().Add(10*time.Second)))
			}
			// Well past the idle delay, the subscription's connection
			// still answers: a change of the game reaches it.
			time.Sleep(3 * inactivite)
			require.Empty(t, s.gql(director, `mutation($p: ID!) { tirer(partie:$p) { version } }`, map[string]any{"p": partie}).Errors)
			require.NoError(t, suivi.SetReadDeadline(time.Now().Add(5*time.Second)))
			recues := 0
			for recues < 2 { // the state at once, then the tirage
				var m struct{ ID, Type string }
				require.NoError(t, suivi.ReadJSON(&m), "the subscribed connection is open")
				if m.ID == "1" && m.Type == p.donnees {
					recues++
				}
			}
		})
	}
}

// Issue 27: every query and mutation, over HTTP or a websocket, runs
// under a deadline. Here it is so short that every operation has passed
// it before its fields start: each is answered TIMEOUT and nothing runs
// (that the engine's search stops at the deadline, with TIMEOUT, is
// TestSecurite_ResoudreDelaiDepasse in package graphql).
func TestSecurite_DelaiDesOperations(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServerWith(t, data, slogDiscard(), func(c *server.Config) {
		c.Limits.Rate = 0
		c.Delais.Operation = time.Nanosecond
	})
	defer s.stop()
	grille := make([]string, 15)
	for i := range grille {
		grille[i] = strings.Repeat(".", 15)
	}
	vars := map[string]any{"p": map[string]any{"grille": grille, "tirage": "ZENS", "formule": "normal"}}
	const resoudre = `query($p: PositionInput!) { resoudre(position:$p) { scoreTop } }`
	assert.Equal(t, "TIMEOUT", s.gql(director, resoudre, vars).code(), "the engine, over HTTP")
	sub := s.subscribe(director, resoudre, vars)
	assert.Equal(t, "TIMEOUT", sub.answer(t, "1").code(), "the engine, over the websocket")
	assert.Equal(t, "TIMEOUT", s.gql(director, `{ partie(id:"T1-1") { id } }`, nil).code(), "a read")
}

// Issue 27: an answer lists at most 50 errors; the 51st says how many
// more there were.
func TestSecurite_ErreursBornees(t *testing.T) {
	s := startAPIServer(t, t.TempDir())
	defer s.stop()
	var b strings.Builder
	b.WriteString("query($p: PositionInput!) {")
	for i := range 90 {
		fmt.Fprintf(&b, ` v%d: verifierCoup(position:$p, mot:"ZEN", reference:"H8") { jouable }`, i)
	}
	b.WriteString("}")
	grille := make([]string, 15)
	for i := range grille {
		grille[i] = strings.Repeat(".", 15)
	}
	res := s.gql("", b.String(), map[string]any{"p": map[string]any{"grille": grille, "tirage": "ZEN"}})
	require.Len(t, res.Errors, 51)
	assert.Equal(t, "UNAUTHENTICATED", res.code())
	dernier := res.Errors[50]
	assert.Equal(t, "TOO_MANY_ERRORS", dernier.Extensions["code"])
	assert.Contains(t, dernier.Message, "40 de plus")
}

// slogDiscard is a logger that writes nothing.
func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
