package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"unicode/utf8"

	gql "github.com/99designs/gqlgen/graphql"
)

// FuzzStrictRequests feeds arbitrary POST bodies to the edge's request
// check. Whatever the body: no panic; either gqlgen gets a body that decodes
// as exactly one GraphQL request, or the client gets a GraphQL error coded
// BAD_REQUEST (400) with a short French message that does not echo the
// body. Seeds are in testdata/fuzz/FuzzStrictRequests; CI runs them with
// `go test`, and `go test -fuzz FuzzStrictRequests -fuzztime 30s
// ./graphql/server` explores further.
func FuzzStrictRequests(f *testing.F) {
	for _, seed := range []string{`{"query": "{ __typename }"}`, `{"query": "q", "variables": {"a": [1, {"b": null}]}, "operationName": null}`,
		`[{"query": "{ x }"}]`, `{"query": 5}`, `{"query": "{ x }"`, ``, `null`, `{} {}`, "{\"query\": \"\xff\"}"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		passed := false
		next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			passed = true
			got, err := io.ReadAll(r.Body)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("gqlgen does not get the body as sent: %v", err)
			}
			var params gql.RawParams
			if err := json.Unmarshal(got, &params); err != nil {
				t.Fatalf("passed a body gqlgen cannot decode: %v", err)
			}
		})
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		strictRequests("1M", next).ServeHTTP(rec, req)
		if passed {
			return
		}
		if rec.Code != http.StatusBadRequest {
			t.Fatalf("refused with HTTP %d", rec.Code)
		}
		var out struct {
			Errors []struct {
				Message    string
				Extensions map[string]any
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Errors) != 1 {
			t.Fatalf("refusal not GraphQL-shaped: %s", rec.Body)
		}
		e := out.Errors[0]
		if e.Extensions["code"] != codeBadRequest || e.Message == "" || len(e.Message) > 200 || !utf8.ValidString(e.Message) {
			t.Fatalf("refusal %+v", e)
		}
		if len(body) >= 12 && bytes.Contains([]byte(e.Message), bytes.TrimSpace(body)) {
			t.Fatalf("the message echoes the body: %q", e.Message)
		}
	})
}
