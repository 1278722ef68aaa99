package server

import (
	"sync"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/gorilla/websocket"
)

// reponsesPartagees are the latest answers of the running diffusions
// (partage.go), by the address of their data, which nothing writes once
// shared: the websocket transport frames each answer once per operation id
// and writes that frame to every caller (messagePartage). Each caller used
// to copy the answer into its own buffer first: 2,000 displays of a
// 2,000-player hall, 109 KB each, 220 MB a change (issue 34).
var reponsesPartagees sync.Map // *byte → *diffusee

// diffusee is a shared answer and the messages prepared from it.
type diffusee struct {
	r *gql.Response

	mu    sync.Mutex
	parId map[string]*websocket.PreparedMessage
}

// maxIdsPartages bounds the messages prepared from one answer: the pages
// number their subscriptions in order, so a hall's displays send the same
// few ids; callers beyond get a message of their own.
const maxIdsPartages = 16

// partager makes r, a diffusion's latest answer, one whose messages are
// prepared once.
func partager(r *gql.Response) {
	if len(r.Data) > 0 {
		reponsesPartagees.Store(&r.Data[0], &diffusee{r: r, parId: map[string]*websocket.PreparedMessage{}})
	}
}

// oublier forgets r, an answer its diffusion replaced or ended with:
// callers still sending it build their message themselves.
func oublier(r *gql.Response) {
	if len(r.Data) > 0 {
		reponsesPartagees.Delete(&r.Data[0])
	}
}

// messagePartage is the next message of operation id carrying r prepared
// once for every caller, when r is a caller's copy of a shared answer,
// with nothing of its own (no error, no extension); nil otherwise.
func messagePartage(id string, r *gql.Response) *websocket.PreparedMessage {
	if r == nil || len(r.Data) == 0 || len(r.Errors) > 0 || len(r.Extensions) > 0 || r.Label != "" || r.Path != nil || r.HasNext != nil {
		return nil
	}
	v, ok := reponsesPartagees.Load(&r.Data[0])
	if !ok {
		return nil
	}
	p := v.(*diffusee)
	if len(p.r.Data) != len(r.Data) || len(p.r.Errors) > 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if pm := p.parId[id]; pm != nil {
		return pm
	}
	if len(p.parId) == maxIdsPartages {
		return nil
	}
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, messageNext(nil, id, r))
	if err != nil {
		return nil
	}
	p.parId[id] = pm
	return pm
}
