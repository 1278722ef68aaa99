package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
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
type postDirect struct{ transport.POST }

func (t postDirect) Do(w http.ResponseWriter, r *http.Request, exec gql.GraphExecutor) {
	ew := &ecritureDirecte{ResponseWriter: w}
	t.POST.Do(ew, r, executeurDirect{GraphExecutor: exec, w: ew})
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
// transport an empty one, which ecritureDirecte drops.
type executeurDirect struct {
	gql.GraphExecutor
	w *ecritureDirecte
}

func (e executeurDirect) DispatchOperation(ctx context.Context, oc *gql.OperationContext) (gql.ResponseHandler, context.Context) {
	h, ctx := e.GraphExecutor.DispatchOperation(ctx, oc)
	return func(ctx context.Context) *gql.Response {
		r := h(ctx)
		b, ok := encoderDirect(r)
		if !ok {
			return r
		}
		_, _ = e.w.Write(b)
		e.w.ecrite = true
		return &gql.Response{}
	}, ctx
}

// encoderDirect is json.Marshal(r) built around r.Data without
// re-reading it; ok is false when r needs json.Marshal itself.
func encoderDirect(r *gql.Response) ([]byte, bool) {
	if r == nil {
		return nil, false
	}
	return ajouterDirect(make([]byte, 0, len(r.Data)+40), r)
}

// ajouterDirect appends encoderDirect's bytes for r to b; when ok is
// false b is returned as it was (r needs json.Marshal itself). The
// websocket transport writes each subscription answer with it (ws.go).
func ajouterDirect(b []byte, r *gql.Response) ([]byte, bool) {
	if r == nil || r.Label != "" || r.Path != nil || r.HasNext != nil || (r.Data != nil && len(r.Data) == 0) || !dataDirecte(r.Data) {
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
