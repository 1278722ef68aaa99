package charge

import (
	"arbitre/apiclient"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The displays phase: live screens on websockets waiting for the announced
// top and the standings that show it.

const (
	displayGame      = `subscription($p: ID!) { coupAnnonce(partie:$p) { version coup dernierTop { mot score } } }`
	displayStandings = `subscription($p: ID!) { classementChange(partie:$p) { rang nom score top } }`
)

// displaysPhase connects c.Displays screens following the live game, has
// the director draw and announce the top, and measures for each screen the
// delay from the announcement's response to the screen showing the top, in
// the game's state and in its standings.
func displaysPhase(ctx context.Context, cl *chargeClient, tk chargeTokens, c Config, r *displaysReport) error {
	_, top, err := cl.draw(ctx, tk.director)
	if err != nil {
		return err
	}
	waitCtx, cancel := context.WithTimeout(ctx, chargeWait)
	defer cancel()
	start := time.Now()
	screens := make([]*display, c.Displays)
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(64, c.Displays) {
		wg.Go(func() {
			for i := range work {
				screens[i] = openDisplay(ctx, cl.URL)
			}
		})
	}
	for i := range screens {
		work <- i
	}
	close(work)
	wg.Wait()
	defer func() {
		for _, s := range screens {
			s.close()
		}
	}()
	for _, s := range screens {
		if s.waitOrDeadline(s.initial, waitCtx.Done()) {
			r.Connected++
		}
	}
	r.ConnectMS = ms(time.Since(start))

	sentAt := time.Now()
	err = cl.Do(ctx, tk.director, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
		map[string]any{"p": chargeLive, "r": top.Reference, "m": top.Mot}, nil)
	answered := time.Now()
	if err != nil {
		return fmt.Errorf("annonce du top : %w", err)
	}
	r.MutationMS = ms(answered.Sub(sentAt))
	waitCtx, cancel = context.WithTimeout(ctx, chargeWait)
	defer cancel()
	for _, s := range screens {
		s.waitOrDeadline(s.topped, waitCtx.Done())
	}
	var coup, standings []time.Duration
	for _, s := range screens {
		s.close()
		if !s.coupAt.IsZero() {
			coup = append(coup, max(0, s.coupAt.Sub(answered)))
		}
		if !s.standingsAt.IsZero() {
			standings = append(standings, max(0, s.standingsAt.Sub(answered)))
		}
		if s.err != nil {
			r.Errors++
		}
	}
	r.CoupAnnounced, r.StandingsChanged = summarize(coup), summarize(standings)
	r.TargetOK = r.Errors == 0 && r.CoupAnnounced.N == c.Displays && r.StandingsChanged.N == c.Displays &&
		r.CoupAnnounced.P99 <= ms(targetDisplayP99) && r.StandingsChanged.P99 <= ms(targetDisplayP99)
	return ctx.Err()
}

// display is one screen on a websocket (graphql-transport-ws), following the
// live game's state (subscription "c") and standings ("s"). Its reader
// notes when each first shows the announced top.
type display struct {
	conn    *websocket.Conn
	initial chan struct{} // closed once both first states arrived
	topped  chan struct{} // closed once both show the top
	done    chan struct{} // closed when the reader ends
	// Written by the reader, read after done.
	coupAt, standingsAt time.Time
	err                 error
}

// openDisplay connects a screen; a failure is recorded in the display, whose
// channels then stay open.
func openDisplay(ctx context.Context, url string) *display {
	d := &display{initial: make(chan struct{}), topped: make(chan struct{}), done: make(chan struct{})}
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: chargeWait}
	conn, _, err := dialer.DialContext(ctx, "ws"+strings.TrimPrefix(url, "http"), nil)
	if err != nil {
		d.err = err
		close(d.done)
		return d
	}
	d.conn = conn
	msgs := []map[string]any{
		{"type": "connection_init", "payload": map[string]any{}},
		{"id": "c", "type": "subscribe", "payload": map[string]any{"query": displayGame, "variables": map[string]any{"p": chargeLive}}},
		{"id": "s", "type": "subscribe", "payload": map[string]any{"query": displayStandings, "variables": map[string]any{"p": chargeLive}}},
	}
	for _, m := range msgs {
		if err := conn.WriteJSON(m); err != nil {
			d.err = err
			conn.Close()
			close(d.done)
			return d
		}
	}
	go d.read()
	return d
}

// read handles the server's messages until the connection closes.
func (d *display) read() {
	defer close(d.done)
	var first, top [2]bool // [coupAnnonce, classementChange]
	// Each message is read into the same buffer: a standings message is
	// 109 KB for 2,000 players, and ReadMessage grew a new one from 512
	// bytes for each.
	var tampon bytes.Buffer
	for {
		_, r, err := d.conn.NextReader()
		if err != nil {
			return
		}
		tampon.Reset()
		_, err = tampon.ReadFrom(r)
		now := time.Now()
		if err != nil {
			return
		}
		msg, err := lireEnveloppe(tampon.Bytes())
		if err != nil {
			d.err = err
			return
		}
		switch msg.Type {
		case "connection_ack", "pong":
		case "ping":
			if err := d.conn.WriteJSON(map[string]any{"type": "pong"}); err != nil {
				d.err = err
				return
			}
		case "next":
			shows, err := showsTop(msg.ID, msg.Payload)
			if err != nil {
				d.err = fmt.Errorf("subscription %s: %w", msg.ID, err)
				return
			}
			k := 0
			if msg.ID == "s" {
				k = 1
			}
			if !first[k] {
				first[k] = true
				if first[0] && first[1] {
					close(d.initial)
				}
			}
			if shows && !top[k] {
				top[k] = true
				if k == 0 {
					d.coupAt = now
				} else {
					d.standingsAt = now
				}
				if top[0] && top[1] {
					close(d.topped)
				}
			}
		default:
			d.err = fmt.Errorf("unexpected %s message: %s", msg.Type, msg.Payload)
			return
		}
	}
}

// enveloppe is a graphql-transport-ws message: its type, its id and its
// payload as sent.
type enveloppe struct {
	ID, Type string
	Payload  []byte
}

// lireEnveloppe reads a message's type and id and leaves its payload as
// sent, within raw: a next message laid out as the server writes it by its
// ends (enveloppeDuServeur), any other by lireValeurs, where each value of
// the envelope is delimited by finValeur, which counts brackets outside
// strings and decodes nothing. The payload (2,000 standings lines) is not
// decoded, since a display reads only its start (showsTop). Skipping it
// token by token (jsontext's SkipValue) was most of the displays phase's
// samples (issue 34).
func lireEnveloppe(raw []byte) (enveloppe, error) {
	if m, ok := enveloppeDuServeur(raw); ok {
		return m, nil
	}
	return lireValeurs(raw)
}

// lireValeurs reads any message's envelope value after value.
func lireValeurs(raw []byte) (enveloppe, error) {
	var m enveloppe
	i := sauterBlancs(raw, 0)
	if i == len(raw) || raw[i] != '{' {
		return m, fmt.Errorf("message sans objet JSON : %.40q", raw)
	}
	for i = sauterBlancs(raw, i+1); i < len(raw) && raw[i] != '}'; {
		fin := finValeur(raw, i)
		var cle string
		if err := json.Unmarshal(raw[i:fin], &cle); err != nil {
			return m, err
		}
		if i = sauterBlancs(raw, fin); i == len(raw) || raw[i] != ':' {
			return m, fmt.Errorf("« : » attendu après %q", cle)
		}
		i = sauterBlancs(raw, i+1)
		fin = finValeur(raw, i)
		switch cle {
		case "payload":
			m.Payload = raw[i:fin]
		case "id":
			if err := json.Unmarshal(raw[i:fin], &m.ID); err != nil {
				return m, err
			}
		case "type":
			if err := json.Unmarshal(raw[i:fin], &m.Type); err != nil {
				return m, err
			}
		}
		if i = sauterBlancs(raw, fin); i < len(raw) && raw[i] == ',' {
			i = sauterBlancs(raw, i+1)
		}
	}
	if i == len(raw) {
		return m, fmt.Errorf("message JSON inachevé : %.40q", raw)
	}
	return m, nil
}

// Where the server puts what a next message holds besides its payload
// (graphql/server/ws.go, envoyerReponse): the payload first, its id and
// type after it.
var (
	teteServeur  = []byte(`{"payload":`)
	idServeur    = []byte(`,"id":"`)
	queueServeur = []byte(`","type":"next"}`)
)

// enveloppeDuServeur reads a next message laid out as the server writes
// it, `{"payload":` P `,"id":"` I `","type":"next"}` and a newline, I
// without quote or backslash, from its ends: P, an object, is what lies
// between, not read at all. In JSON a string holds no bare quote, so the
// last `,"id":"` of such a message is its own, not one inside P. Any other
// message (ok false) is read by lireValeurs, value after value: the
// bracket counting, at 2,000 standings lines, was most of what the
// benchmark's displays spent of the cores the server runs on (issue 34).
func enveloppeDuServeur(raw []byte) (m enveloppe, ok bool) {
	raw = bytes.TrimRight(raw, " \t\r\n")
	if !bytes.HasPrefix(raw, teteServeur) || !bytes.HasSuffix(raw, queueServeur) {
		return m, false
	}
	fin := len(raw) - len(queueServeur)
	i := bytes.LastIndex(raw[:fin], idServeur)
	if i < len(teteServeur) {
		return m, false
	}
	id := raw[i+len(idServeur) : fin]
	payload := bytes.TrimSpace(raw[len(teteServeur):i])
	if bytes.ContainsAny(id, `"\`) || len(payload) < 2 || payload[0] != '{' || payload[len(payload)-1] != '}' {
		return m, false
	}
	return enveloppe{ID: string(id), Type: "next", Payload: payload}, true
}

// sauterBlancs is the first index from i that is not JSON whitespace.
func sauterBlancs(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n') {
		i++
	}
	return i
}

// finValeur is the end of the JSON value that starts at raw[i]: after a
// string's closing quote, after the bracket that closes an object or an
// array (brackets counted outside strings), at what follows a literal;
// len(raw) when the value does not end.
func finValeur(raw []byte, i int) int {
	profondeur, chaine := 0, false
	for j := i; j < len(raw); j++ {
		c := raw[j]
		switch {
		case chaine:
			if c == '\\' {
				j++
			} else if c == '"' {
				chaine = false
				if profondeur == 0 {
					return j + 1
				}
			}
		case c == '"':
			chaine = true
		case c == '{' || c == '[':
			profondeur++
		case c == '}' || c == ']':
			if profondeur == 0 {
				return j
			}
			if profondeur--; profondeur == 0 {
				return j + 1
			}
		case profondeur == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return j
		}
	}
	return len(raw)
}

// showsTop tells whether a subscription's answer shows the announced top:
// the game's dernierTop (subscription "c"), or a top on the first line of
// the standings ("s"). The standings are 1,000 lines for every display:
// only the answer's start is decoded, up to the first line, so that the
// client, in the same process, spends little of the machine on them.
func showsTop(id string, payload []byte) (bool, error) {
	if id != "s" {
		var p struct {
			Data struct {
				CoupAnnounced *struct {
					DernierTop *struct{ Score int }
				} `json:"coupAnnonce"`
			}
			Errors []apiclient.Error
		}
		if err := json.Unmarshal(payload, &p); err != nil || len(p.Errors) > 0 {
			return false, fmt.Errorf("%s", payload)
		}
		return p.Data.CoupAnnounced != nil && p.Data.CoupAnnounced.DernierTop != nil, nil
	}
	// {"data":{"classementChange":[{...first line...}, ...]}}: errors,
	// when there are, come before data.
	dec := json.NewDecoder(bytes.NewReader(payload))
	for _, want := range []any{json.Delim('{'), "data", json.Delim('{'), "classementChange", json.Delim('[')} {
		if tok, err := dec.Token(); err != nil || tok != want {
			return false, fmt.Errorf("%.200s", payload)
		}
	}
	var first struct{ Top int }
	if dec.More() {
		if err := dec.Decode(&first); err != nil {
			return false, err
		}
	}
	return first.Top > 0, nil
}

// waitOrDeadline waits for ch unless the reader ended or the deadline
// passed; it reports whether ch was closed.
func (d *display) waitOrDeadline(ch, deadline <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-d.done:
		select {
		case <-ch:
			return true
		default:
			return false
		}
	case <-deadline:
		return false
	}
}

// close ends the connection and waits for the reader; closing twice is
// harmless.
func (d *display) close() {
	if d.conn != nil {
		d.conn.Close()
	}
	<-d.done
}
