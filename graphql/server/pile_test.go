package server

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

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/acces"
	"arbitre/engine/correction"
	"arbitre/graphql"
	"arbitre/graphql/generated"
	"arbitre/graphql/model"
)

// The stack of one bulletin request (issue 34 item 3): the hall's
// deposerBulletin mutation, as the load generator sends it, through the
// whole echo server — middlewares, the strict request check, the token,
// the rate limit, gqlgen's transport, the guard, validation and limits,
// the field middleware, the answer's writing — with a resolver that
// answers at once, so that what is counted is the stack alone.

// racinePile is the API's resolvers with deposerBulletin answering at once.
type racinePile struct{ *graphql.Resolver }

func (r racinePile) Mutation() generated.MutationResolver {
	return mutationPile{r.Resolver.Mutation()}
}

type mutationPile struct{ generated.MutationResolver }

func (mutationPile) DeposerBulletin(_ context.Context, partie string, coup int, licence string, _ correction.Bulletin, _ *int, _ *string) (*model.Bulletin, error) {
	return &model.Bulletin{Partie: partie, Coup: coup, Licence: licence}, nil
}

// pile is the server and one arbiter's bulletin request.
type pile struct {
	handler http.Handler
	jeton   string
	corps   []byte
}

// docBulletin is the load generator's mutation (cmd/arbitre/internal/charge).
const docBulletin = `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $m: String) {
  deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b, clientMutationId:$m) { licence } }`

func nouvellePile(tb testing.TB) *pile {
	tokens := acces.NewRegistre()
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	secret, ev, err := acces.Emettre(nil, now, acces.Demande{Role: acces.Arbitre, Tournoi: "T1", Tables: acces.Tables{Min: 1, Max: 20}, Duree: time.Hour})
	require.NoError(tb, err)
	tokens.Appliquer(ev)
	res := &graphql.Resolver{Version: "pile"}
	es := generated.NewExecutableSchema(generated.Config{
		Resolvers: racinePile{res}, Directives: generated.DirectiveRoot{Acces: graphql.AccesDirective},
		Complexity: graphql.Complexity(),
	})
	e := nouveau(Config{Resolver: res, Tokens: tokens, Now: func() time.Time { return now },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: sansLimite}, es, nil)
	corps, err := json.Marshal(map[string]any{"query": docBulletin, "variables": map[string]any{
		"p": "T1-1", "c": 7, "l": "L0042",
		"b": map[string]any{"solutions": []any{map[string]any{"word": "ZENS", "ref": "H4", "score": 28}}},
		"m": "charge-T1-1-7-L0042",
	}})
	require.NoError(tb, err)
	return &pile{handler: e, jeton: "Bearer " + secret, corps: corps}
}

// reponsePile is a ResponseWriter kept from one request to the next.
type reponsePile struct {
	entetes http.Header
	statut  int
	corps   bytes.Buffer
}

func (r *reponsePile) Header() http.Header         { return r.entetes }
func (r *reponsePile) WriteHeader(statut int)      { r.statut = statut }
func (r *reponsePile) Write(b []byte) (int, error) { return r.corps.Write(b) }

// poster sends the bulletin once through the server's handler, over the
// request and the answer given (reset here).
func (p *pile) poster(req *http.Request, rep *reponsePile) {
	clear(rep.entetes)
	rep.statut = http.StatusOK
	rep.corps.Reset()
	req.Body = io.NopCloser(bytes.NewReader(p.corps))
	p.handler.ServeHTTP(rep, req)
}

func (p *pile) requete(tb testing.TB) (*http.Request, *reponsePile) {
	req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", p.jeton)
	return req, &reponsePile{entetes: http.Header{}}
}

// The stack answers the bulletin, as the real resolver's answer reads.
func TestIssue34_PileRepondAuBulletin(t *testing.T) {
	p := nouvellePile(t)
	req, rep := p.requete(t)
	for range 2 {
		p.poster(req, rep)
		require.Equal(t, http.StatusOK, rep.statut)
		require.JSONEq(t, `{"data":{"deposerBulletin":{"licence":"L0042"}}}`, rep.corps.String())
	}
}

func BenchmarkIssue34_PileDUnBulletin(b *testing.B) {
	p := nouvellePile(b)
	req, rep := p.requete(b)
	p.poster(req, rep)
	require.Equal(b, http.StatusOK, rep.statut, rep.corps.String())
	b.ReportAllocs()
	for b.Loop() {
		p.poster(req, rep)
	}
}

// executeurTemoin records the request it is asked to run, and refuses it.
type executeurTemoin struct {
	gql.GraphExecutor
	recue *gql.RawParams
}

func (e *executeurTemoin) CreateOperationContext(_ context.Context, p *gql.RawParams) (*gql.OperationContext, gqlerror.List) {
	e.recue = p
	return &gql.OperationContext{}, gqlerror.List{gqlerror.Errorf("témoin")}
}

func (e *executeurTemoin) DispatchError(_ context.Context, list gqlerror.List) *gql.Response {
	return &gql.Response{Errors: list}
}

// Issue 34 item 3: the edge decoded a bulletin's body to check it, and
// gqlgen's POST transport decoded it again. The request gqlgen runs is the
// edge's, decoded once (FuzzStrictRequests checks it is what gqlgen's own
// decoding gives).
func TestIssue34_RequeteDecodeeUneFois(t *testing.T) {
	var recue *gql.RawParams
	var decodee *gql.RawParams
	h := strictRequests("1M", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		decodee, _ = r.Context().Value(requeteDecodee{}).(*gql.RawParams)
		x := &executeurTemoin{}
		postDirect{}.Do(w, r, x)
		recue = x.recue
	}))
	p := nouvellePile(t)
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(p.corps))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)
	require.NotNil(t, decodee)
	assert.Same(t, decodee, recue)
	assert.Equal(t, docBulletin, recue.Query)
	assert.Equal(t, json.Number("7"), recue.Variables["c"])
	assert.Equal(t, "application/json", recue.Headers.Get("Content-Type"))
}

// Issue 34 item 3: the answer's handler, called with the operation's own
// context (the POST transport's), runs under its deadline without a
// second context and its timer; called with another context (a
// websocket's), it gets the deadline.
func TestIssue34_UnDelaiParOperation(t *testing.T) {
	d := delaiOperation{delai: time.Minute}
	ctx := gql.WithOperationContext(context.Background(), &gql.OperationContext{Operation: &ast.OperationDefinition{Operation: ast.Mutation}})
	var operation, reponse context.Context
	h := d.InterceptOperation(ctx, func(ctx context.Context) gql.ResponseHandler {
		operation = ctx
		return func(ctx context.Context) *gql.Response { reponse = ctx; return &gql.Response{} }
	})
	h(operation)
	assert.Same(t, operation, reponse)
	fin, ok := operation.Deadline()
	require.True(t, ok)

	h = d.InterceptOperation(ctx, func(ctx context.Context) gql.ResponseHandler {
		return func(ctx context.Context) *gql.Response { reponse = ctx; return &gql.Response{} }
	})
	h(context.Background())
	finReponse, ok := reponse.Deadline()
	require.True(t, ok)
	assert.WithinDuration(t, fin, finReponse, time.Second)
	assert.Error(t, reponse.Err(), "the answer's context ends with the handler")
}

// Issue 34 item 3: the request's log line boxed its values (method, uri,
// latency) into key-value pairs, and the regexp masking token-shaped text
// ran on addresses too short to hold one, whether the line is written or
// not: 5 allocations per request.
func TestIssue34_JournalDesRequetesSansAllocation(t *testing.T) {
	sans := slog.New(slog.DiscardHandler)
	allocations := func(mw echo.MiddlewareFunc) float64 {
		e := echo.New()
		h := mw(func(c echo.Context) error { return nil })
		req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
		rec := httptest.NewRecorder()
		c := e.NewContext(req, rec)
		return testing.AllocsPerRun(100, func() { _ = h(c) })
	}
	nu := middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogError: true, HandleError: true,
		LogValuesFunc: func(echo.Context, middleware.RequestLoggerValues) error { return nil },
	})
	assert.Equal(t, allocations(nu), allocations(requestLogger(sans)))
}

// The masking of token-shaped text is the same with its shortcut: a run of
// 43 characters is masked, of 42 is not; each character may be 3 bytes.
func TestSecurite_MasqueSelonLaLongueur(t *testing.T) {
	for _, tc := range []struct{ uri, masquee string }{
		{"/" + strings.Repeat("a", 42), "/" + strings.Repeat("a", 42)},
		{"/" + strings.Repeat("a", 43), "/REDACTED"},
		{"/x?s=" + strings.Repeat("%41", 14), "/x?s=" + strings.Repeat("%41", 14)},
		{"/x?s=" + strings.Repeat("%41", 43), "/x?s=REDACTED"},
		{"/graphql", "/graphql"},
		{"/a?jeton=b", "/a?jeton=REDACTED"},
	} {
		assert.Equal(t, tc.masquee, redactURI(tc.uri), tc.uri)
	}
}

// Issue 34 item 3: what the stack allocates for one bulletin, the
// resolver aside (381 at the start of session 12: the body decoded twice,
// a second deadline, the log line's boxed values and the regexp; 365 at
// the start of session 13). echo composed the /graphql route's own
// middlewares (authentication, rate limit) again for every request, and
// echo.WrapMiddleware wrapped the response once more: 7 allocations, which
// composing the route once takes away (361 → 354 with the prepared
// security headers, TestIssue34_EntetesDeSecuritePrepares).
func TestIssue34_RouteGraphQLComposeeUneFois(t *testing.T) {
	p := nouvellePile(t)
	req, rep := p.requete(t)
	allocations := testing.AllocsPerRun(50, func() { p.poster(req, rep) })
	require.Equal(t, http.StatusOK, rep.statut)
	assert.LessOrEqual(t, allocations, 354.0)
}

// Issue 34 item 3: echo's Secure middleware built each header's value
// again for every answer (4 allocations); the headers set are the same.
func TestIssue34_EntetesDeSecuritePrepares(t *testing.T) {
	e := echo.New()
	pose := func(mw echo.MiddlewareFunc) (http.Header, float64) {
		h := mw(func(echo.Context) error { return nil })
		rec := httptest.NewRecorder()
		c := e.NewContext(httptest.NewRequest(http.MethodPost, "/graphql", nil), rec)
		require.NoError(t, h(c))
		return rec.Header().Clone(), testing.AllocsPerRun(100, func() { _ = h(c) })
	}
	attendues, _ := pose(middleware.SecureWithConfig(middleware.SecureConfig{
		ContentTypeNosniff: "nosniff", XFrameOptions: "DENY", ContentSecurityPolicy: contentSecurityPolicy, ReferrerPolicy: "no-referrer",
	}))
	entetes, allocations := pose(securityHeaders())
	assert.Equal(t, attendues, entetes)
	assert.Zero(t, allocations)

	// A header added later to one answer is its own.
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec)
	require.NoError(t, securityHeaders()(func(c echo.Context) error {
		c.Response().Header().Add("X-Frame-Options", "SAMEORIGIN")
		return nil
	})(c))
	assert.Equal(t, []string{"DENY", "SAMEORIGIN"}, rec.Header().Values("X-Frame-Options"))
	assert.Equal(t, []string{"DENY"}, entetesDeSecurite.Values("X-Frame-Options"))
}
