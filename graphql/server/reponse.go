package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// postDirect is gqlgen's POST transport whose answers are written without
// json.Marshal re-validating their data: gqlgen's executor writes it
// compact and valid already, and encoding/json checks every byte of it
// again (RawMessage is compacted) — for a 1,000-line standings answer,
// most of the server's time once the execution is shared (issue 17). The
// bytes sent are exactly json.Marshal's; an answer that marshalling
// would change (HTML characters escaped) or that has more than data,
// errors and extensions goes through json.Marshal as before. Everything
// else (headers, statuses, refusals) is the POST transport's own.
//
// The request the edge decoded (strictPOST) is the one executed: the POST
// transport, which reads and decodes the body whatever comes before it, is
// given an empty object to decode, and its executor the request decoded
// (issue 34 item 3: a bulletin's body was decoded twice, 14 allocations
// and two reads of the body more per request).
type postDirect struct{ transport.POST }

// corpsDecode is the body the POST transport decodes when the edge
// decoded the request already.
const corpsDecode = "{}"

func (t postDirect) Do(w http.ResponseWriter, r *http.Request, exec gql.GraphExecutor) {
	ew := &ecritureDirecte{ResponseWriter: w}
	x := executeurDirect{GraphExecutor: exec, w: ew}
	if params, ok := r.Context().Value(requeteDecodee{}).(*gql.RawParams); ok {
		x.params = params
		r.Body = io.NopCloser(strings.NewReader(corpsDecode))
	}
	t.POST.Do(ew, r, x)
}

// ecritureDirecte drops what the transport writes after the answer was
// written directly.
type ecritureDirecte struct {
	http.ResponseWriter
	ecrite bool
}

func (e *ecritureDirecte) Write(b []byte) (int, error) {
	if e.ecrite {
		return len(b), nil
	}
	return e.ResponseWriter.Write(b)
}

// executeurDirect writes the operation's answer itself, and gives the
// transport an empty one, which ecritureDirecte drops. With params, it
// runs them rather than what the transport decoded (corpsDecode).
type executeurDirect struct {
	gql.GraphExecutor
	w      *ecritureDirecte
	params *gql.RawParams
}

func (e executeurDirect) CreateOperationContext(ctx context.Context, p *gql.RawParams) (*gql.OperationContext, gqlerror.List) {
	if e.params != nil {
		e.params.Headers, e.params.ReadTime = p.Headers, p.ReadTime
		p = e.params
	}
	return e.GraphExecutor.CreateOperationContext(ctx, p)
}

func (e executeurDirect) DispatchOperation(ctx context.Context, oc *gql.OperationContext) (gql.ResponseHandler, context.Context) {
	h, ctx := e.GraphExecutor.DispatchOperation(ctx, oc)
	return func(ctx context.Context) *gql.Response {
		r := h(ctx)
		// The answer is built in one of the websocket's buffers (ws.go): a
		// national ranking of 6,000 lines is 690 KB, asked 500 times a
		// second, and a new buffer each time was zeroed then copied.
		t := tampons.Get().(*[]byte)
		defer tampons.Put(t)
		b, ok := ajouterDirect((*t)[:0], r)
		*t = b
		if !ok {
			return r
		}
		_, _ = e.w.Write(b)
		e.w.ecrite = true
		return &gql.Response{}
	}, ctx
}

// ajouterDirect appends to b the bytes json.Marshal(r) gives, built around
// r.Data without re-reading it; when ok is false b is returned as it was
// (r needs json.Marshal itself). The POST transport (postDirect) and the
// websocket's (ws.go) write their answers with it.
func ajouterDirect(b []byte, r *gql.Response) ([]byte, bool) {
	if r == nil || r.Label != "" || r.Path != nil || r.HasNext != nil || (r.Data != nil && len(r.Data) == 0) || !dataDirecteMemo(r.Data) {
		return b, false
	}
	// The fields in the order of gql.Response: errors, data, extensions.
	var erreurs, extensions []byte
	var err error
	if len(r.Errors) > 0 {
		if erreurs, err = json.Marshal(r.Errors); err != nil {
			return b, false
		}
	}
	if len(r.Extensions) > 0 {
		if extensions, err = json.Marshal(r.Extensions); err != nil {
			return b, false
		}
	}
	b = append(b, '{')
	if erreurs != nil {
		b = append(append(append(b, `"errors":`...), erreurs...), ',')
	}
	b = append(b, `"data":`...)
	if r.Data == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, r.Data...)
	}
	if extensions != nil {
		b = append(append(b, `,"extensions":`...), extensions...)
	}
	return append(b, '}'), true
}

// directesVues are the last large answers' data found to be sent as they
// are. A shared public answer (partage_requetes.go) is the same bytes,
// read only, for every caller: it is read once, not once per caller —
// several of them, since a hall asks for a game's standings and the
// tournament's cumul in turn (issue 34 item 3: with only the last one
// remembered, each of 200 requests a second read its 360 KB five times).
// Holding the slices keeps their memory from holding other bytes while
// they are compared; only answers the shared queries may keep
// (maxOctetsReponse) are held.
var (
	directesVues [4]atomic.Pointer[[]byte]
	prochaineVue atomic.Uint32
)

// dataDirecteMemo is dataDirecte, remembered for the last few large data
// (directesVues).
func dataDirecteMemo(data []byte) bool {
	if len(data) < 64<<10 {
		return dataDirecte(data)
	}
	for i := range directesVues {
		if d := directesVues[i].Load(); d != nil && len(*d) == len(data) && &(*d)[0] == &data[0] {
			return true
		}
	}
	if !dataDirecte(data) {
		return false
	}
	if len(data) <= maxOctetsReponse {
		directesVues[prochaineVue.Add(1)%uint32(len(directesVues))].Store(&data)
	}
	return true
}

// dataDirecte tells whether json.Marshal would send data as it is: gqlgen
// writes it compact, and only the characters encoding/json escapes for
// HTML (<, >, &, U+2028, U+2029) would change.
func dataDirecte(data []byte) bool {
	// One IndexByte per character (vectorized) rather than ContainsAny,
	// which reads the answer byte by byte.
	for _, c := range []byte("<>&") {
		if bytes.IndexByte(data, c) >= 0 {
			return false
		}
	}
	return !bytes.Contains(data, []byte("\u2028")) && !bytes.Contains(data, []byte("\u2029"))
}
