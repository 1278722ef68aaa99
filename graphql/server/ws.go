package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// protocoleWS is the websocket subprotocol transportWS speaks
// (https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md): the
// pages', `arbitre charge`'s and a twinned site's. gqlgen's own
// transport.Websocket, registered after it, keeps serving the legacy
// graphql-ws subprotocol (and a request naming none).
const protocoleWS = "graphql-transport-ws"

// protocoleWSAncien is the legacy subprotocol gqlgen's transport keeps.
const protocoleWSAncien = "graphql-ws"

// transportWS serves graphql-transport-ws as gqlgen's transport.Websocket
// does — the same messages, close codes and executor calls, so the same
// limits, rate limit and authentication — but writes each answer of a
// subscription without re-reading it (issue 17). gqlgen marshals a `next`
// message's response (its data, a RawMessage, compacted and validated
// again) and then the message (the payload compacted and HTML-escaped
// once more), in frames of the write buffer's size: two full scans and
// about 170 writes of a 170 KB standings answer for each of 1,000
// displays. Here the message is built around the data as the execution
// gave it (ajouterDirect, as postDirect's answers) and sent as one frame;
// its bytes are those gqlgen sent.
type transportWS struct {
	// Upgrader upgrades the request; its Subprotocols are replaced by
	// protocoleWS.
	Upgrader websocket.Upgrader
	// InitFunc authenticates connection_init's payload (as gqlgen's); an
	// error refuses the connection, the context it returns is the
	// connection's: when it ends, the connection closes.
	InitFunc transport.WebsocketInitFunc
	// DelaiInit is how long a client has to send connection_init after
	// the upgrade; 0 waits for ever.
	DelaiInit time.Duration
	// Ping, when set, is how often the server sends a ping of its own
	// (the client answers pong). gqlgen's KeepAlivePingInterval only ever
	// applied to graphql-ws; on graphql-transport-ws the clients ping and
	// the server answers, which Arbitre keeps (Ping 0).
	Ping time.Duration
}

var _ gql.Transport = transportWS{}

// Supports takes the upgrades whose client prefers graphql-transport-ws
// (the first of the two subprotocols it names, the one gqlgen's upgrader
// would choose); the others go on to gqlgen's transport.
func (t transportWS) Supports(r *http.Request) bool {
	if r.Header.Get("Upgrade") == "" {
		return false
	}
	for _, p := range websocket.Subprotocols(r) {
		switch p {
		case protocoleWS:
			return true
		case protocoleWSAncien:
			return false
		}
	}
	return false
}

// Do upgrades the request and serves the connection until it closes.
func (t transportWS) Do(w http.ResponseWriter, r *http.Request, exec gql.GraphExecutor) {
	up := t.Upgrader
	up.Subprotocols = []string{protocoleWS}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered the request with its refusal
	}
	ws.SetReadLimit(maxMessageWS)
	c := &connexionWS{t: t, ws: ws, exec: exec, ctx: r.Context(), headers: r.Header, operations: map[string]*operationWS{}}
	if c.initialiser() {
		c.servir()
	}
}

// Close codes and reasons, gqlgen's (1000 "terminated" for a refused
// token as for a revoked one: on graphql-transport-ws gqlgen sends no
// connection_error message) and the protocol's 4409.
const (
	fermetureNormale  = websocket.CloseNormalClosure
	fermetureProtocol = websocket.CloseProtocolError
	fermetureDoublon  = 4409
	raisonTerminee    = "terminated"
)

// messageIllisible refuses a subscribe whose payload is not a request.
const messageIllisible = "Requête refusée : message illisible, un objet JSON est attendu"

// messageWS is a graphql-transport-ws message, its fields in the order
// gqlgen writes them.
type messageWS struct {
	Payload json.RawMessage `json:"payload,omitempty"`
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
}

// connexionWS is one client's connection.
type connexionWS struct {
	t       transportWS
	ws      *websocket.Conn
	exec    gql.GraphExecutor
	headers http.Header
	// ctx is the request's context, then connection_init's (it ends when
	// the token is revoked or expires, or the server shuts down).
	ctx context.Context

	// ecriture serializes the writes of messages; fermee is set once the
	// close frame is sent, after which nothing is written.
	ecriture sync.Mutex
	fermee   atomic.Bool

	mu         sync.Mutex
	operations map[string]*operationWS
}

// operationWS is one running operation of the connection.
type operationWS struct {
	cancel context.CancelFunc
	// arretee (guarded by connexionWS.ecriture) is set when the client
	// completes the operation: nothing more is written for it.
	arretee bool
}

// lire reads the next message. A message that is not JSON, or whose type
// is not a string, is an error.
func (c *connexionWS) lire() (messageWS, error) {
	_, b, err := c.ws.ReadMessage()
	if err != nil {
		return messageWS{}, err
	}
	var m messageWS
	if err := json.Unmarshal(b, &m); err != nil {
		return messageWS{}, fmt.Errorf("message illisible : %w", err)
	}
	return m, nil
}

// typesClient are the messages a client may send.
var typesClient = map[string]bool{"connection_init": true, "subscribe": true, "complete": true, "ping": true, "pong": true}

// initialiser waits for connection_init, authenticates it and
// acknowledges it; false when the connection was refused and closed.
func (c *connexionWS) initialiser() bool {
	if c.t.DelaiInit > 0 {
		_ = c.ws.SetReadDeadline(time.Now().Add(c.t.DelaiInit))
	}
	m, err := c.lire()
	if err != nil {
		if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
			c.fermer(fermetureProtocol, "connection initialisation timeout")
		} else {
			c.fermer(fermetureProtocol, "decoding error")
		}
		return false
	}
	_ = c.ws.SetReadDeadline(time.Time{})
	switch {
	case m.Type != "connection_init" && typesClient[m.Type]:
		c.fermer(fermetureProtocol, "unexpected message")
		return false
	case m.Type != "connection_init":
		c.fermer(fermetureProtocol, "decoding error")
		return false
	}
	var charge transport.InitPayload
	if len(m.Payload) > 0 {
		if err := json.Unmarshal(m.Payload, &charge); err != nil {
			c.fermer(fermetureProtocol, "decoding error")
			return false
		}
	}
	var ack *transport.InitPayload
	if c.t.InitFunc != nil {
		ctx, a, err := c.t.InitFunc(c.ctx, charge)
		if err != nil {
			c.fermer(fermetureNormale, raisonTerminee)
			return false
		}
		c.ctx, ack = ctx, a
	}
	msg := messageWS{Type: "connection_ack"}
	if ack != nil {
		b, err := json.Marshal(*ack)
		if err != nil {
			c.fermer(fermetureProtocol, "internal error")
			return false
		}
		msg.Payload = b
	}
	c.envoyer(nil, msg)
	return true
}

// servir reads the client's messages until the connection closes, which
// it does when the connection's context ends (token revoked or expired,
// server shut down), the client leaves or breaks the protocol.
func (c *connexionWS) servir() {
	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	c.ctx = ctx
	go func() {
		<-ctx.Done()
		c.fermer(fermetureNormale, raisonTerminee)
	}()
	if c.t.Ping > 0 {
		go c.pinger(ctx)
	}
	for {
		debut := gql.Now()
		m, err := c.lire()
		if err != nil {
			return
		}
		switch m.Type {
		case "subscribe":
			c.souscrire(debut, m)
		case "complete":
			c.arreter(m.ID)
		case "ping":
			c.envoyer(nil, messageWS{Type: "pong", Payload: m.Payload})
		case "pong":
		default:
			c.fermer(fermetureProtocol, "unexpected message")
			return
		}
	}
}

// pinger sends a ping every t.Ping until ctx ends.
func (c *connexionWS) pinger(ctx context.Context) {
	tic := time.NewTicker(c.t.Ping)
	defer tic.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tic.C:
			c.envoyer(nil, messageWS{Type: "ping"})
		}
	}
}

// souscrire starts the operation of a subscribe message: created (parsed,
// validated, limited) and dispatched as gqlgen's transport does, each
// answer sent as next, then complete.
func (c *connexionWS) souscrire(debut time.Time, m messageWS) {
	c.mu.Lock()
	_, doublon := c.operations[m.ID]
	c.mu.Unlock()
	if doublon {
		c.fermer(fermetureDoublon, "Subscriber for "+m.ID+" already exists")
		return
	}
	ctx := gql.StartOperationTrace(c.ctx)
	var params *gql.RawParams
	dec := json.NewDecoder(bytes.NewReader(m.Payload))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil || params == nil {
		// gqlgen's message is "invalid json"; Arbitre speaks French, coded.
		c.envoyerErreurs(nil, m.ID, &gqlerror.Error{Message: messageIllisible, Extensions: map[string]any{"code": codeBadRequest}})
		c.terminer(nil, m.ID)
		return
	}
	params.ReadTime = gql.TraceTiming{Start: debut, End: gql.Now()}
	params.Headers = c.headers

	oc, errs := c.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		r := c.exec.DispatchError(gql.WithOperationContext(ctx, oc), errs)
		if errcode.GetErrorKind(errs) == errcode.KindProtocol {
			c.envoyerErreurs(nil, m.ID, r.Errors...)
		} else {
			c.envoyerReponse(nil, m.ID, &gql.Response{Errors: errs})
		}
		c.terminer(nil, m.ID)
		return
	}
	ctx, cancel := context.WithCancel(gql.WithOperationContext(ctx, oc))
	op := &operationWS{cancel: cancel}
	c.mu.Lock()
	c.operations[m.ID] = op
	c.mu.Unlock()
	if c.fermee.Load() { // closed meanwhile: fermer may have missed it
		cancel()
	}
	go c.executer(ctx, m.ID, op, oc)
}

// executer sends the operation's answers until it ends, then complete
// (or the error of a panic, then complete, as gqlgen).
func (c *connexionWS) executer(ctx context.Context, id string, op *operationWS, oc *gql.OperationContext) {
	defer func() {
		if v := recover(); v != nil {
			err := oc.Recover(ctx, v)
			var ge *gqlerror.Error
			if !errors.As(err, &ge) {
				ge = &gqlerror.Error{}
				if err != nil {
					ge.Message = err.Error()
				}
			}
			c.envoyerErreurs(op, id, ge)
		}
		if c.ctx.Err() == nil { // else the connection is closing: no more messages
			c.terminer(op, id)
		}
		c.mu.Lock()
		if c.operations[id] == op {
			delete(c.operations, id)
		}
		c.mu.Unlock()
		op.cancel()
	}()
	reponses, ctx := c.exec.DispatchOperation(ctx, oc)
	for {
		r := reponses(ctx)
		if r == nil {
			return
		}
		// Written before the next call: an execution may reuse r.Data.
		c.envoyerReponse(op, id, r)
	}
}

// arreter ends the operation id the client completed: it is cancelled,
// nothing more is sent for it but a complete, at once, and its id is free
// again (gqlgen sends that complete when the operation has ended, and
// keeps the id until then).
func (c *connexionWS) arreter(id string) {
	c.mu.Lock()
	op := c.operations[id]
	if op != nil {
		delete(c.operations, id)
	}
	c.mu.Unlock()
	if op == nil {
		return
	}
	// Marked before it is cancelled: the execution, once cancelled, ends
	// with a complete of its own, which must find it stopped (one complete
	// only, never one after the id is used again).
	b := encoder(messageWS{ID: id, Type: "complete"})
	c.ecriture.Lock()
	c.ecrire(b, nil)
	op.arretee = true
	c.ecriture.Unlock()
	op.cancel()
}

// tampons hold the next messages being built: a standings answer is
// 150–200 KB, and 1,000 displays are sent each change.
var tampons = sync.Pool{New: func() any { return new([]byte) }}

// envoyerReponse sends r as the next message of operation id: the bytes
// gqlgen's transport sends (messageNext), in one frame. An answer a
// diffusion shares (partage.go: the standings a hall's 2,000 displays
// follow, 109 KB) is framed once per operation id and the same frame
// written to every connection (issue 34); any other is built in a pooled
// buffer.
func (c *connexionWS) envoyerReponse(op *operationWS, id string, r *gql.Response) {
	if pm := messagePartage(id, r); pm != nil {
		c.ecrirePour(op, nil, pm)
		return
	}
	t := tampons.Get().(*[]byte)
	defer tampons.Put(t)
	b := messageNext((*t)[:0], id, r)
	*t = b
	c.ecrirePour(op, b, nil)
}

// messageNext appends to b the next message of operation id carrying r:
// `{"payload":<json.Marshal(r)>,"id":…,"type":"next"}` and a newline,
// built around r.Data as it is when ajouterDirect can (json.Marshal would
// leave it unchanged).
func messageNext(b []byte, id string, r *gql.Response) []byte {
	b = append(b, `{"payload":`...)
	b, ok := ajouterDirect(b, r)
	if !ok {
		p, err := json.Marshal(r)
		if err != nil {
			p, _ = json.Marshal(&gql.Response{Errors: gqlerror.List{{Message: "réponse illisible : " + err.Error()}}})
		}
		b = append(b, p...)
	}
	if id != "" {
		i, _ := json.Marshal(id)
		b = append(append(b, `,"id":`...), i...)
	}
	return append(b, ",\"type\":\"next\"}\n"...)
}

// envoyerErreurs sends an error message for operation id.
func (c *connexionWS) envoyerErreurs(op *operationWS, id string, erreurs ...*gqlerror.Error) {
	errs := make([]error, len(erreurs))
	for i, e := range erreurs {
		errs[i] = e
	}
	p, err := json.Marshal(errs)
	if err != nil {
		p = []byte(`[{"message":"erreur illisible"}]`)
	}
	c.envoyer(op, messageWS{Type: "error", ID: id, Payload: p})
}

// terminer sends complete for operation id.
func (c *connexionWS) terminer(op *operationWS, id string) {
	c.envoyer(op, messageWS{Type: "complete", ID: id})
}

// envoyer sends m, unless it belongs to an operation the client completed.
func (c *connexionWS) envoyer(op *operationWS, m messageWS) {
	c.ecrirePour(op, encoder(m), nil)
}

// ecrirePour writes a message of operation op (nil: of the connection),
// b or else pm, unless the client completed op.
func (c *connexionWS) ecrirePour(op *operationWS, b []byte, pm *websocket.PreparedMessage) {
	c.ecriture.Lock()
	defer c.ecriture.Unlock()
	if op == nil || !op.arretee {
		c.ecrire(b, pm)
	}
}

// encoder is m as gqlgen's transport writes it (json.Encoder: HTML
// escaped, a newline after).
func encoder(m messageWS) []byte {
	b, err := json.Marshal(m)
	if err != nil { // a payload that is not JSON: sent without it
		b, _ = json.Marshal(messageWS{ID: m.ID, Type: m.Type})
	}
	return append(b, '\n')
}

// ecrire writes one message in one frame, b or else the frame prepared
// in pm, c.ecriture held; nothing once the connection's context ended (a
// revoked token's connection is sent nothing more). A failed write is not
// reported: the read that follows fails as well and ends the connection.
func (c *connexionWS) ecrire(b []byte, pm *websocket.PreparedMessage) {
	if c.fermee.Load() || c.ctx.Err() != nil {
		return
	}
	if pm != nil {
		_ = c.ws.WritePreparedMessage(pm)
		return
	}
	_ = c.ws.WriteMessage(websocket.TextMessage, b)
}

// delaiFermeture bounds the write of the close frame to a client that
// does not read.
const delaiFermeture = time.Second

// fermer sends the close frame (once), cancels every operation and closes
// the connection. It does not wait for a write in progress: a display
// that stopped reading is closed as promptly as any other.
func (c *connexionWS) fermer(code int, raison string) {
	if c.fermee.Swap(true) {
		return
	}
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, raison), time.Now().Add(delaiFermeture))
	c.mu.Lock()
	for _, op := range c.operations {
		op.cancel()
	}
	c.mu.Unlock()
	_ = c.ws.Close()
}

// accepteurGorilla lets gqlgen's websocket transport (the legacy
// graphql-ws) upgrade with gorilla's upgrader, as transportWS does: the
// same origin check, the same buffers.
type accepteurGorilla struct{ up websocket.Upgrader }

var _ transport.WebsocketImplementation = accepteurGorilla{}

func (a accepteurGorilla) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	up := a.up
	up.Subprotocols = o.Subprotocols
	ws, err := up.Upgrade(w, r, o.ResponseHeader)
	if err != nil {
		return nil, err
	}
	return connexionGorilla{ws}, nil
}

// connexionGorilla is a gorilla connection as gqlgen's transport reads
// and closes it; it sets its read limit and deadlines (gorilla's own).
type connexionGorilla struct{ *websocket.Conn }

var _ interface {
	transport.WebsocketConn
	transport.WebsocketReadLimiter
	transport.WebsocketReadDeadliner
} = connexionGorilla{}

// NextReader reports the client's normal close as gqlgen expects it.
func (c connexionGorilla) NextReader() (int, io.Reader, error) {
	t, r, err := c.Conn.NextReader()
	if websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		err = transport.ErrWebsocketClosed
	}
	return t, r, err
}

func (c connexionGorilla) WriteClose(code int, raison string) error {
	return c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, raison), time.Now().Add(delaiFermeture))
}
