package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	gqlhandler "github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/acces"
	"arbitre/graphql"
	"arbitre/graphql/generated"
)

// reponseSource is one answer a sourceWS subscription sends: its data and
// an error the execution adds.
type reponseSource struct {
	data   string
	erreur *gqlerror.Error
}

// sourceWS is the real schema (validation, complexity, depth) whose
// subscriptions send the answers pushed into reponses, counting their
// executions and those whose context ended.
type sourceWS struct {
	gql.ExecutableSchema
	reponses   chan reponseSource
	executions atomic.Int32
	finies     atomic.Int32
	// attentes counts the executions waiting for a response (in Exec's
	// select): one whose operation ended may still be there for a moment,
	// and take a response pushed for the next.
	attentes atomic.Int32
}

func nouvelleSourceWS() *sourceWS {
	return &sourceWS{ExecutableSchema: generated.NewExecutableSchema(generated.Config{
		Resolvers: &graphql.Resolver{Version: "test"}, Directives: generated.DirectiveRoot{Acces: graphql.AccesDirective},
		Complexity: graphql.Complexity(),
	}), reponses: make(chan reponseSource)}
}

func (s *sourceWS) Exec(ctx context.Context) gql.ResponseHandler {
	if oc := gql.GetOperationContext(ctx); oc.Operation.Operation != ast.Subscription {
		return s.ExecutableSchema.Exec(ctx)
	}
	s.executions.Add(1)
	context.AfterFunc(ctx, func() { s.finies.Add(1) })
	return func(rctx context.Context) *gql.Response {
		s.attentes.Add(1)
		defer s.attentes.Add(-1)
		if rctx.Err() != nil { // ended before it waits: it takes nothing
			return nil
		}
		select {
		case r, ok := <-s.reponses:
			if !ok {
				return nil
			}
			if r.erreur != nil {
				gql.AddError(rctx, r.erreur)
			}
			return &gql.Response{Data: json.RawMessage(r.data)}
		case <-rctx.Done():
			return nil
		}
	}
}

// pousser has the running subscription send r.
func (s *sourceWS) pousser(t *testing.T, r reponseSource) {
	t.Helper()
	if r.erreur != nil { // the presenter writes into it: each source its own
		e := *r.erreur
		e.Extensions = maps.Clone(e.Extensions)
		r.erreur = &e
	}
	select {
	case s.reponses <- r:
	case <-time.After(5 * time.Second):
		t.Fatal("no subscription is running")
	}
}

// serveurWS is the whole server (nouveau: middlewares, transports, limits,
// authentication) over src; it returns the websocket address and the
// token registry.
func serveurWS(t *testing.T, src *sourceWS, base context.Context) (string, *acces.Registre) {
	t.Helper()
	reg := acces.NewRegistre()
	e := nouveau(Config{Resolver: &graphql.Resolver{Version: "test"}, Tokens: reg, Now: time.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: sansLimite}, src, nil)
	srv := httptest.NewUnstartedServer(e)
	if base != nil {
		srv.Config.BaseContext = func(net.Listener) context.Context { return base }
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/graphql", reg
}

// serveurSeul serves h (a gqlgen handler with one transport) and returns
// its websocket address.
func serveurSeul(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/graphql"
}

// clientWS is a client of the protocol, reading with a deadline.
type clientWS struct {
	t *testing.T
	c *websocket.Conn
}

// messageRecu is a message as received: its bytes and its fields.
type messageRecu struct {
	brut    string
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

func connecterWS(t *testing.T, url, protocole string) *clientWS {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{protocole}, HandshakeTimeout: 5 * time.Second}
	c, _, err := d.Dial(url, nil)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return &clientWS{t: t, c: c}
}

// ouvrir connects with graphql-transport-ws, sends connection_init with
// authorization (when given) and expects the ack.
func ouvrir(t *testing.T, url, authorization string) *clientWS {
	t.Helper()
	c := connecterWS(t, url, protocoleWS)
	c.init(authorization)
	ack := c.recevoir()
	require.Equal(t, "connection_ack", ack.Type)
	assert.Equal(t, "{\"type\":\"connection_ack\"}\n", ack.brut)
	return c
}

func (c *clientWS) init(authorization string) {
	payload := map[string]any{}
	if authorization != "" {
		payload["Authorization"] = authorization
	}
	c.envoyer(map[string]any{"type": "connection_init", "payload": payload})
}

func (c *clientWS) envoyer(m map[string]any) {
	c.t.Helper()
	require.NoError(c.t, c.c.WriteJSON(m))
}

func (c *clientWS) souscrire(id, query string) {
	c.envoyer(map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": query}})
}

func (c *clientWS) recevoir() messageRecu {
	c.t.Helper()
	require.NoError(c.t, c.c.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, b, err := c.c.ReadMessage()
	require.NoError(c.t, err)
	var m messageRecu
	require.NoError(c.t, json.Unmarshal(b, &m), string(b))
	m.brut = string(b)
	return m
}

// fermeture reads until the server closes the connection and returns its
// close frame; a message before it fails the test.
func (c *clientWS) fermeture(delai time.Duration) *websocket.CloseError {
	c.t.Helper()
	require.NoError(c.t, c.c.SetReadDeadline(time.Now().Add(delai)))
	_, b, err := c.c.ReadMessage()
	require.Error(c.t, err, "a message before the close: %s", b)
	var ce *websocket.CloseError
	require.True(c.t, errors.As(err, &ce), "the server closes the connection: %v", err)
	return ce
}

const (
	docClassementWS = `subscription { classementChange(partie: "P1") { rang nom } }`
	docCoupWS       = `subscription { coupAnnonce(partie: "P1") { version } }`
)

// graphql-transport-ws end to end: init, ack, subscribe, each answer as
// next with the bytes gqlgen wrote, complete when the execution ends.
func TestTransportWS_ParcoursComplet(t *testing.T) {
	src := nouvelleSourceWS()
	url, _ := serveurWS(t, src, nil)
	c := ouvrir(t, url, "")
	c.souscrire("a1", docClassementWS)
	for _, data := range []string{`{"classementChange":[{"rang":1,"nom":"Élodie \"la\" Ouvrard"}]}`, `{"classementChange":[]}`} {
		src.pousser(t, reponseSource{data: data})
		m := c.recevoir()
		assert.Equal(t, `{"payload":{"data":`+data+`},"id":"a1","type":"next"}`+"\n", m.brut)
	}
	close(src.reponses)
	m := c.recevoir()
	assert.Equal(t, "{\"id\":\"a1\",\"type\":\"complete\"}\n", m.brut)
	assert.EqualValues(t, 1, src.executions.Load())
}

// A token the server refuses closes the connection as gqlgen did (1000
// "terminated"), without an ack; an anonymous connection is acknowledged.
func TestTransportWS_JetonRefuse(t *testing.T) {
	url, _ := serveurWS(t, nouvelleSourceWS(), nil)
	for _, authorization := range []string{"Bearer arb_inconnu", "Basic abc"} {
		c := connecterWS(t, url, protocoleWS)
		c.init(authorization)
		ce := c.fermeture(5 * time.Second)
		assert.Equal(t, websocket.CloseNormalClosure, ce.Code, authorization)
		assert.Equal(t, "terminated", ce.Text, authorization)
	}
	ouvrir(t, url, "")
}

// A ping is answered by a pong with its payload.
func TestTransportWS_PingPong(t *testing.T) {
	url, _ := serveurWS(t, nouvelleSourceWS(), nil)
	c := ouvrir(t, url, "")
	c.envoyer(map[string]any{"type": "ping"})
	assert.Equal(t, "{\"type\":\"pong\"}\n", c.recevoir().brut)
	c.envoyer(map[string]any{"type": "ping", "payload": map[string]any{"n": 1}})
	assert.Equal(t, "{\"payload\":{\"n\":1},\"type\":\"pong\"}\n", c.recevoir().brut)
	c.envoyer(map[string]any{"type": "pong"}) // a client's keep-alive: no answer
	c.envoyer(map[string]any{"type": "ping"})
	assert.Equal(t, "pong", c.recevoir().Type)
}

// The server's own pings, when configured.
func TestTransportWS_PingsDuServeur(t *testing.T) {
	h := gqlhandler.New(nouvelleSourceWS())
	h.AddTransport(transportWS{Ping: 20 * time.Millisecond})
	c := ouvrir(t, serveurSeul(t, h), "")
	for range 2 {
		assert.Equal(t, "{\"type\":\"ping\"}\n", c.recevoir().brut)
	}
}

// The client's complete stops the operation: its execution ends, nothing
// more is sent for it, and its id can be used again.
func TestTransportWS_CompleteDuClientArreteLOperation(t *testing.T) {
	src := nouvelleSourceWS()
	url, _ := serveurWS(t, src, nil)
	c := ouvrir(t, url, "")
	c.souscrire("1", docCoupWS)
	src.pousser(t, reponseSource{data: `{"coupAnnonce":{"version":1}}`})
	require.Equal(t, "next", c.recevoir().Type)

	c.envoyer(map[string]any{"id": "1", "type": "complete"})
	assert.Equal(t, "{\"id\":\"1\",\"type\":\"complete\"}\n", c.recevoir().brut)
	require.Eventually(t, func() bool { return src.finies.Load() == 1 }, 5*time.Second, time.Millisecond, "the execution ends")
	// Its goroutine may still wait in the source's select, where both cases
	// are ready once the next response is pushed: select picks one at
	// random, and the response meant for the new subscription went to the
	// ended one (a CI failure on 2026-11-29, an i/o timeout below).
	require.Eventually(t, func() bool { return src.attentes.Load() == 0 }, 5*time.Second, time.Millisecond, "the ended execution left its wait")

	c.souscrire("1", docCoupWS)
	src.pousser(t, reponseSource{data: `{"coupAnnonce":{"version":2}}`})
	m := c.recevoir()
	assert.Equal(t, "1", m.ID)
	assert.JSONEq(t, `{"data":{"coupAnnonce":{"version":2}}}`, string(m.Payload))
	assert.EqualValues(t, 2, src.executions.Load())
	c.envoyer(map[string]any{"id": "inconnu", "type": "complete"}) // ignored
	c.envoyer(map[string]any{"type": "ping"})
	assert.Equal(t, "pong", c.recevoir().Type)
}

// A second subscribe with the id of a running operation closes the
// connection with 4409, and its operations end.
func TestTransportWS_IdentifiantEnDouble(t *testing.T) {
	src := nouvelleSourceWS()
	url, _ := serveurWS(t, src, nil)
	c := ouvrir(t, url, "")
	c.souscrire("x", docCoupWS)
	require.Eventually(t, func() bool { return src.executions.Load() == 1 }, 5*time.Second, time.Millisecond)
	c.souscrire("x", docCoupWS)
	ce := c.fermeture(5 * time.Second)
	assert.Equal(t, 4409, ce.Code)
	assert.Equal(t, "Subscriber for x already exists", ce.Text)
	require.Eventually(t, func() bool { return src.finies.Load() == 1 }, 5*time.Second, time.Millisecond)
}

// A token revoked while its connection is open closes it at once and
// ends its operations.
func TestTransportWS_JetonRevoqueFermeLaConnexion(t *testing.T) {
	src := nouvelleSourceWS()
	url, reg := serveurWS(t, src, nil)
	const secret = "arb_secret_de_test_ws"
	reg.Appliquer(acces.JetonEmis{ID: "j1", Empreinte: acces.Empreinte(secret), Role: acces.Directeur, Expire: time.Now().Add(time.Hour)})
	c := ouvrir(t, url, "Bearer "+secret)
	c.souscrire("1", docCoupWS)
	src.pousser(t, reponseSource{data: `{"coupAnnonce":{"version":1}}`})
	require.Equal(t, "next", c.recevoir().Type)

	reg.Appliquer(acces.JetonRevoque{ID: "j1"})
	ce := c.fermeture(time.Second)
	assert.Equal(t, websocket.CloseNormalClosure, ce.Code)
	assert.Equal(t, "terminated", ce.Text)
	require.Eventually(t, func() bool { return src.finies.Load() == 1 }, 5*time.Second, time.Millisecond)
}

// The server's shutdown (the requests' base context ends) closes the
// connections.
func TestTransportWS_ArretDuServeurFermeLesConnexions(t *testing.T) {
	base, arret := context.WithCancel(context.Background())
	defer arret()
	src := nouvelleSourceWS()
	url, _ := serveurWS(t, src, base)
	c := ouvrir(t, url, "")
	c.souscrire("1", docClassementWS)
	require.Eventually(t, func() bool { return src.executions.Load() == 1 }, 5*time.Second, time.Millisecond)
	arret()
	ce := c.fermeture(5 * time.Second)
	assert.Equal(t, websocket.CloseNormalClosure, ce.Code)
}

// A client that sends no connection_init in time is closed.
func TestTransportWS_DelaiDInitialisation(t *testing.T) {
	h := gqlhandler.New(nouvelleSourceWS())
	h.AddTransport(transportWS{DelaiInit: 50 * time.Millisecond})
	c := connecterWS(t, serveurSeul(t, h), protocoleWS)
	ce := c.fermeture(5 * time.Second)
	assert.Equal(t, websocket.CloseProtocolError, ce.Code)
	assert.Equal(t, "connection initialisation timeout", ce.Text)
}

// Answers with errors: an execution's errors come in the next message with
// the data, presented with their code; an operation the validation refuses
// gets an error message, then complete; a message out of protocol closes.
func TestTransportWS_ReponseAvecErreurs(t *testing.T) {
	src := nouvelleSourceWS()
	url, _ := serveurWS(t, src, nil)
	c := ouvrir(t, url, "")
	c.souscrire("1", docCoupWS)
	src.pousser(t, reponseSource{data: `null`, erreur: &gqlerror.Error{Message: "la partie <P1> & co n'existe pas",
		Path: ast.Path{ast.PathName("coupAnnonce")}, Extensions: map[string]any{"code": "NOT_FOUND"}}})
	m := c.recevoir()
	assert.Equal(t, "next", m.Type)
	var r struct {
		Data   json.RawMessage
		Errors []struct {
			Message    string
			Path       []string
			Extensions map[string]any
		}
	}
	require.NoError(t, json.Unmarshal(m.Payload, &r))
	assert.Equal(t, "null", string(r.Data))
	require.Len(t, r.Errors, 1)
	assert.Equal(t, "la partie <P1> & co n'existe pas", r.Errors[0].Message)
	assert.Equal(t, "NOT_FOUND", r.Errors[0].Extensions["code"])
	assert.Contains(t, m.brut, `\u003cP1\u003e \u0026 co`, "escaped as gqlgen did")

	c.souscrire("2", `subscription { champInconnu }`)
	m = c.recevoir()
	assert.Equal(t, "error", m.Type)
	assert.Equal(t, "2", m.ID)
	assert.Contains(t, string(m.Payload), "GRAPHQL_VALIDATION_FAILED")
	assert.Equal(t, "complete", c.recevoir().Type)

	c.envoyer(map[string]any{"id": "3", "type": "subscribe", "payload": "pas un objet"})
	m = c.recevoir()
	assert.Equal(t, "error", m.Type)
	assert.Equal(t, "3", m.ID)
	assert.JSONEq(t, `[{"message":"`+messageIllisible+`","extensions":{"code":"BAD_REQUEST"}}]`, string(m.Payload))
	assert.Equal(t, "complete", c.recevoir().Type)

	c.envoyer(map[string]any{"type": "next"})
	ce := c.fermeture(5 * time.Second)
	assert.Equal(t, websocket.CloseProtocolError, ce.Code)
	require.Eventually(t, func() bool { return src.finies.Load() == 1 }, 5*time.Second, time.Millisecond)
}

// Every message a client receives is the one gqlgen's transport sent,
// byte for byte (hence decoded alike): the answers written around their
// data, those with HTML characters in their data (which go through
// json.Marshal), errors, pongs, acks and completes; only the refusal of a
// payload that is no request is in French (gqlgen: "invalid json").
func TestTransportWS_MemesMessagesQueGqlgen(t *testing.T) {
	srcNotre, srcGqlgen := nouvelleSourceWS(), nouvelleSourceWS()
	notre := gqlhandler.New(srcNotre)
	notre.AddTransport(transportWS{})
	gqlgen := gqlhandler.New(srcGqlgen)
	gqlgen.AddTransport(transport.Websocket{Implementation: accepteurGorilla{}, KeepAlivePingInterval: 10 * time.Second})
	for _, h := range []*gqlhandler.Server{notre, gqlgen} {
		h.SetErrorPresenter(graphql.PresentError)
	}
	clients := []*clientWS{ouvrir(t, serveurSeul(t, notre), ""), ouvrir(t, serveurSeul(t, gqlgen), "")}
	sources := []*sourceWS{srcNotre, srcGqlgen}

	pareil := func(etape string) {
		t.Helper()
		a, b := clients[0].recevoir(), clients[1].recevoir()
		assert.Equal(t, b.brut, a.brut, etape)
		var da, db any
		require.NoError(t, json.Unmarshal([]byte(a.brut), &da))
		require.NoError(t, json.Unmarshal([]byte(b.brut), &db))
		assert.Equal(t, db, da, etape)
	}
	envoyer := func(m map[string]any) {
		for _, c := range clients {
			c.envoyer(m)
		}
	}
	for _, c := range clients {
		c.souscrire(`id "<1>"`, docCoupWS)
	}
	for _, r := range []reponseSource{
		{data: `{"coupAnnonce":{"version":1,"nom":"Élodie \"la\" Ouvrard","n":-3.5e2,"club":null}}`},
		{data: `{"coupAnnonce":{"club":"Paris & Co <1>"}}`},
		{data: "{\"coupAnnonce\":{\"nom\":\"a\u2028b\u2029\"}}"},
		{data: `null`, erreur: &gqlerror.Error{Message: "refus <x> & \u2028", Path: ast.Path{ast.PathName("coupAnnonce"), ast.PathIndex(0)},
			Extensions: map[string]any{"code": "NOT_FOUND", "z": 1, "a": []int{2}}}},
		{data: `{"coupAnnonce":{"version":2}}`, erreur: &gqlerror.Error{Message: "partiel"}},
	} {
		for _, s := range sources {
			s.pousser(t, r)
		}
		pareil(r.data)
	}
	for _, s := range sources {
		close(s.reponses)
	}
	pareil("complete")

	envoyer(map[string]any{"type": "ping", "payload": map[string]any{"<": "&"}})
	pareil("pong")
	envoyer(map[string]any{"id": "v", "type": "subscribe", "payload": map[string]any{"query": `subscription { inconnu }`}})
	pareil("validation error")
	pareil("complete after the error")
	// A payload that is no request: the same messages, the error's in French.
	envoyer(map[string]any{"id": "j", "type": "subscribe", "payload": 3})
	a, b := clients[0].recevoir(), clients[1].recevoir()
	assert.Equal(t, []string{b.ID, b.Type}, []string{a.ID, a.Type})
	assert.Contains(t, b.brut, "invalid json")
	assert.Contains(t, string(a.Payload), "BAD_REQUEST")
	pareil("complete after invalid json")
}

// The legacy graphql-ws subprotocol is still gqlgen's.
func TestTransportWS_GraphqlWSResteAGqlgen(t *testing.T) {
	url, _ := serveurWS(t, nouvelleSourceWS(), nil)
	c := connecterWS(t, url, "graphql-ws")
	assert.Equal(t, "graphql-ws", c.c.Subprotocol())
	c.init("")
	assert.Equal(t, "connection_ack", c.recevoir().Type)
	assert.Equal(t, "ka", c.recevoir().Type)
	assert.Equal(t, protocoleWS, ouvrir(t, url, "").c.Subprotocol())
}
