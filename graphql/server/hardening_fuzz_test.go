package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"unicode/utf8"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
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
		`[{"query": "{ x }"}]`, `{"query": 5}`, `{"query": "{ x }"`, ``, `null`, `{} {}`, "{\"query\": \"\xff\"}",
		`{"query": 5, "query": "{ x }"}`} {
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
			dec := json.NewDecoder(bytes.NewReader(got)) // as gqlgen's POST transport
			dec.UseNumber()
			if err := dec.Decode(&params); err != nil {
				t.Fatalf("passed a body gqlgen cannot decode: %v", err)
			}
			// What the edge decoded, and gqlgen runs, is what gqlgen's
			// own decoding gives.
			if decodee, ok := r.Context().Value(requeteDecodee{}).(*gql.RawParams); !ok || !reflect.DeepEqual(*decodee, params) {
				t.Fatalf("the edge decoded %+v, gqlgen decodes %+v", decodee, params)
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

// corpsBulletin is a bulletin of the hall as its client sends it.
var corpsBulletin = []byte(`{"query":"mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $m: String) {\n  deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b, clientMutationId:$m) { licence } }",` +
	`"variables":{"b":{"solutions":[{"ref":"H4","score":72,"word":"ZESTERAI"}]},"c":7,"l":"0012345","m":"charge-sim-1-1-7-0012345","p":"sim-1-1"}}`)

// BenchmarkIssue34_VerificationDUnBulletin is the edge's check of a
// bulletin's body, which decodes it for gqlgen.
func BenchmarkIssue34_VerificationDUnBulletin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, msg := lireRequete(corpsBulletin); msg != "" {
			b.Fatal(msg)
		}
	}
}

// Issue 34 item 3: what the check refuses, and with which message: a
// field of the wrong kind named (the first of query, operationName,
// variables, extensions, wherever it is in the body) before any trailing
// data; null fields, and numbers out of float64's range in the variables
// (decoded as json.Number, as gqlgen does), pass, decoded.
func TestSecurite_VerificationDesGenres(t *testing.T) {
	for _, tc := range []struct{ corps, message string }{
		{`{"query": 5}`, "le champ « query » doit être une chaîne"},
		{`{"query": "{ x }", "operationName": {"n": 1}}`, "le champ « operationName » doit être une chaîne"},
		{`{"query": "{ x }", "variables": "x"}`, "le champ « variables » doit être un objet"},
		{`{"query": "{ x }", "variables": [1]}`, "le champ « variables » doit être un objet"},
		{`{"query": "{ x }", "extensions": true}`, "le champ « extensions » doit être un objet"},
		{`{"query": "{ x }", "variables": 1} {}`, "le champ « variables » doit être un objet"},
		{`{"query": "{ x }"} {}`, "données après la requête, un seul objet JSON est attendu"},
		{`{"query": "{ x }", "variables": {"a": [1, }}`, "JSON invalide à l'octet 43"},
		{`{"query": "{ x }", "variables": {"a": `, "JSON tronqué"},
		{`{"query": null, "operationName": null, "variables": null, "extensions": null}`, ""},
		{`{"query": "{ x }", "variables": {"a": 1e999}}`, ""},
		{`{"query": "{ x }", "variables": {}, "extensions": {"persistedQuery": {}}}`, ""},
		// A field sent twice: any value of the wrong kind is refused, as
		// decoding it (gqlgen's, next) fails (the review of session 10:
		// the check kept the last value's kind, and gqlgen's refusal came
		// out as INTERNAL with the body in it).
		{`{"query": 5, "query": "{ x }"}`, "le champ « query » doit être une chaîne"},
		{`{"query": "{ x }", "query": 5}`, "le champ « query » doit être une chaîne"},
		{`{"query": "{ x }", "variables": [1], "variables": {}}`, "le champ « variables » doit être un objet"},
		{`{"query": "{ x }", "Extensions": true, "extensions": null}`, "le champ « extensions » doit être un objet"},
		{`{"query": 1, "query": 2}`, "le champ « query » doit être une chaîne"},
		{`{"query": null, "query": "{ x }", "variables": {}, "variables": null}`, ""},
	} {
		params, msg := lireRequete([]byte(tc.corps))
		assert.Equal(t, tc.message, msg, tc.corps)
		assert.Equal(t, msg == "", params != nil, tc.corps)
	}
}
