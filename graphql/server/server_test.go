package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql"
	"arbitre/graphql/server"
	"arbitre/projections/projection"
)

// harness is a real server on loopback over a fresh SQLite store.
type harness struct {
	t      *testing.T
	url    string
	svc    *acces.Service
	tokens *acces.Registre
	now    time.Time
}

func newHarness(t *testing.T) *harness { return newLimitedHarness(t, server.DefaultLimits) }

// newLimitedHarness is a harness whose server applies limits.
func newLimitedHarness(t *testing.T, limits server.Limits) *harness {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, acces.RegisterEvents(reg))
	h := &harness{t: t, tokens: acces.NewRegistre(), now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	clock := eventstore.ClockFunc(func() time.Time { return h.now })
	h.svc = &acces.Service{Store: store, Registry: reg, Clock: clock, Jetons: h.tokens}
	jetons, err := projection.NewRunnerEnMemoire(ctx, h.tokens, store)
	require.NoError(t, err)
	acces.Brancher(reg, jetons, h.tokens)
	go func() { _ = store.Subscribe(ctx, 0, h.tokens.Apply) }()
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	e := server.New(server.Config{
		Resolver: &graphql.Resolver{Version: "test", Lexicon: lex, Engine: solve.NewPool(lex), Acces: h.svc},
		Tokens:   h.tokens, Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: limits,
	})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

// token issues a token straight through the service (as the CLI does).
func (h *harness) token(d acces.Demande) string {
	secret, ev, err := h.svc.Emettre(context.Background(), d, eventstore.Metadata{Actor: "test"})
	require.NoError(h.t, err)
	require.Eventually(h.t, func() bool { return h.tokens.Existe(ev.ID) }, 5*time.Second, 5*time.Millisecond)
	return secret
}

type gqlResponse struct {
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	return r.Errors[0].Extensions["code"].(string)
}

func (h *harness) query(token, q string, vars map[string]any) gqlResponse {
	_, out := h.post(token, q, vars)
	return out
}

// post sends one query and returns the HTTP status with the answer.
func (h *harness) post(token, q string, vars map[string]any) (int, gqlResponse) {
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, h.url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	var out gqlResponse
	require.NoError(h.t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

var emptyGrid = strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n")

func TestHealthAndEngine(t *testing.T) {
	h := newHarness(t)
	resp, err := http.Get(h.url + "/healthz")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp.Body.Close()
	director := h.token(acces.Demande{Role: acces.Directeur, Duree: time.Hour})

	out := h.query(director, `query($g:[String!]!){ resoudre(position:{grille:$g, tirage:"ZEN"}, tous: 2) { scoreTop coups tops { mot reference score } tous { mot } } }`,
		map[string]any{"g": emptyGrid})
	require.Empty(t, out.Errors)
	sol := out.Data["resoudre"].(map[string]any)
	assert.EqualValues(t, 24, sol["scoreTop"])
	assert.EqualValues(t, 7, sol["coups"])
	assert.Len(t, sol["tops"], 3)
	assert.Len(t, sol["tous"], 2)

	out = h.query(director, `query($g:[String!]!){ verifierCoup(position:{grille:$g, tirage:"ZEN"}, mot:"ZEN", reference:"8H") { probleme jouable score } }`,
		map[string]any{"g": emptyGrid})
	require.Empty(t, out.Errors)
	assert.Equal(t, "FIRST_NOT_HORIZONTAL", out.Data["verifierCoup"].(map[string]any)["probleme"])

	out = h.query(director, `{ resoudre(position:{grille:["..."], tirage:"ZEN"}) { scoreTop } }`, nil)
	assert.Equal(t, "INVALID_INPUT", out.code())
}

// Tokens: unknown or expired → UNAUTHENTICATED, wrong role → FORBIDDEN,
// nothing done; a director issues scoped tokens.
func TestTokensAndRoles(t *testing.T) {
	h := newHarness(t)
	director := h.token(acces.Demande{Role: acces.Directeur, Duree: time.Hour})
	arbiter := h.token(acces.Demande{Role: acces.Arbitre, Tournoi: "T1", Tables: acces.Tables{Min: 1, Max: 40}, Duree: time.Hour})
	issue := `mutation { emettreJeton(demande:{role: ARBITER, tournoi:"T1", tables:"41-80", heures: 4}) { id secret role tables } }`

	assert.Equal(t, "UNAUTHENTICATED", h.query("", issue, nil).code())
	assert.Equal(t, "UNAUTHENTICATED", h.query("arb_unknown", issue, nil).code())
	assert.Equal(t, "FORBIDDEN", h.query(arbiter, issue, nil).code())

	out := h.query(director, issue, nil)
	require.Empty(t, out.Errors)
	issued := out.Data["emettreJeton"].(map[string]any)
	assert.Equal(t, "41-80", issued["tables"])
	require.Eventually(t, func() bool { return h.tokens.Existe(issued["id"].(string)) }, 5*time.Second, 5*time.Millisecond)

	me := h.query(issued["secret"].(string), `{ moi { role tournoi tables } }`, nil)
	require.Empty(t, me.Errors)
	assert.Equal(t, map[string]any{"role": "ARBITER", "tournoi": "T1", "tables": "41-80"}, me.Data["moi"])
	assert.Nil(t, h.query("", `{ moi { role } }`, nil).Data["moi"])

	h.now = h.now.Add(5 * time.Hour)
	expired := h.query(issued["secret"].(string), `{ moi { role } }`, nil)
	assert.Equal(t, "UNAUTHENTICATED", expired.code())
	assert.Contains(t, expired.Errors[0].Message, "expiré")
}

// Limits: over-deep queries are refused with a code.
func TestDepthLimit(t *testing.T) {
	h := newHarness(t)
	nested := "name"
	for i := 0; i < 14; i++ {
		nested = "ofType { " + nested + " }"
	}
	deep := `{ __schema { types { fields { type { ` + nested + ` } } } } }` // 18 levels
	ok := h.query("", introspection, nil)
	require.Empty(t, ok.Errors, "GraphiQL's introspection query passes")
	out := h.query("", deep, nil)
	assert.Equal(t, "QUERY_TOO_DEEP", out.code())
}

// introspection is the query GraphiQL sends to learn the schema (graphql-js
// getIntrospectionQuery): 15 levels deep.
const introspection = `query IntrospectionQuery { __schema { queryType { name } mutationType { name } subscriptionType { name }
  types { ...FullType } directives { name description locations args { ...InputValue } } } }
fragment FullType on __Type { kind name description fields(includeDeprecated: true) { name description args { ...InputValue }
  type { ...TypeRef } isDeprecated deprecationReason } inputFields { ...InputValue } interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType {
  kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }`

// Issue 34 item 3: the guard keeps the documents it admitted, and nothing
// after it is skipped: the same text, admitted for a director, is refused
// to an anonymous caller, and a document over the depth limit is refused
// every time it is sent.
func TestSecurite_DocumentAdmisSansLeverLesAutresLimites(t *testing.T) {
	h := newHarness(t)
	director := h.token(acces.Demande{Role: acces.Directeur, Duree: time.Hour})
	issue := `mutation { emettreJeton(demande:{role: ARBITER, tournoi:"T1", tables:"1-40", heures: 4}) { id } }`
	require.Empty(t, h.query(director, issue, nil).Errors)
	for range 2 {
		assert.Equal(t, "UNAUTHENTICATED", h.query("", issue, nil).code())
	}
	deep := `{ __schema { types { fields { type { ` + strings.Repeat("ofType { ", 14) + "name" + strings.Repeat(" }", 14) + ` } } } } }`
	for range 2 {
		assert.Equal(t, "QUERY_TOO_DEEP", h.query(director, deep, nil).code())
	}
}
