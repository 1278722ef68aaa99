package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Codes of the refusals made at the HTTP edge, before any GraphQL runs.
// An oversized body has its own code: the client must send less, not fix
// its syntax.
const (
	codeBadRequest            = "BAD_REQUEST"
	codePayloadTooLarge       = "PAYLOAD_TOO_LARGE"
	codeIntrospectionDisabled = "INTROSPECTION_DISABLED"
	codeForbidden             = "FORBIDDEN"
)

// Timeouts bound how long one connection may hold the server. They apply
// to HTTP requests only: a websocket, once upgraded, is no longer the HTTP
// server's (gorilla clears the deadlines) and lives as long as its pings.
type Timeouts struct {
	// ReadHeader is the time to send the request's headers.
	ReadHeader time.Duration
	// Read is the time to send the whole request, body included.
	Read time.Duration
	// Write is the time from the end of the headers to the end of the
	// answer: the longest a query may run.
	Write time.Duration
	// Idle is how long a kept-alive connection waits for its next request.
	Idle time.Duration
}

// DefaultTimeouts let a slow hall network send a full body and the engine
// answer a hard position, and close what stays silent longer.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 60 * time.Second, Idle: 120 * time.Second}

// HTTPServer is the http.Server that serves h with the timeouts.
func HTTPServer(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}

// contentSecurityPolicy admits what the pages and GraphiQL load: their own
// scripts, styles and images (plus the empty data: favicon), requests and
// websockets to this server; no inline script, no frame, no plugin.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// entetesDeSecurite are the security headers of every answer, their keys
// canonical and their values built once: echo's Secure middleware built
// each value's slice again for every answer (four allocations a request,
// issue 34 item 3). A value's slice holds exactly one element, so that a
// later Header().Add appends to a copy, never to the shared slice.
var entetesDeSecurite = http.Header{
	"X-Content-Type-Options":  {"nosniff"},
	"X-Frame-Options":         {"DENY"},
	"Content-Security-Policy": {contentSecurityPolicy},
	"Referrer-Policy":         {"no-referrer"},
}

// securityHeaders sets the security headers on every answer.
func securityHeaders() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			for k, v := range entetesDeSecurite {
				h[k] = v[:1:1]
			}
			return next(c)
		}
	}
}

// get registers a read-only route for GET and HEAD.
func get(e *echo.Echo, path string, h echo.HandlerFunc) {
	e.Match([]string{http.MethodGet, http.MethodHead}, path, h)
}

// tokenShaped is what a token secret looks like, wherever it is in an
// address: at least 43 base64url characters in a row (a secret is "arb_"
// and 43 of them, domain/acces.Emettre; without its prefix it gives the
// token away all the same), each plain or percent-encoded.
var tokenShaped = regexp.MustCompile(`(?:[A-Za-z0-9_-]|%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|2[Dd]|5[Ff])){43,}`)

// minTokenShaped is the shortest text tokenShaped matches.
const minTokenShaped = 43

// redactURI masks the values of the query parameters that may carry a
// secret (jeton, token, authorization, in any case, percent-encoded or not,
// separated by & or ;), and anything shaped like a token secret in the
// path or in any parameter (issue 28 item 14), so that no log keeps one,
// even from a client that put it in the address.
func redactURI(uri string) string {
	if len(uri) >= minTokenShaped { // shorter, nothing is token-shaped (the regexp allocates)
		uri = tokenShaped.ReplaceAllString(uri, "REDACTED")
	}
	path, query, found := strings.Cut(uri, "?")
	if !found {
		return uri
	}
	var b strings.Builder
	b.WriteString(path)
	b.WriteByte('?')
	for query != "" {
		pair, sep := query, ""
		if end := strings.IndexAny(query, "&;"); end >= 0 {
			pair, sep = query[:end], query[end:end+1]
		}
		query = query[len(pair)+len(sep):]
		key, value, hasValue := strings.Cut(pair, "=")
		if name, err := url.QueryUnescape(key); err == nil {
			key = name
		}
		if hasValue && isSecretParam(key) {
			pair = pair[:len(pair)-len(value)] + "REDACTED"
		}
		b.WriteString(pair)
		b.WriteString(sep)
	}
	return b.String()
}

func isSecretParam(name string) bool {
	name = strings.ToLower(name)
	return strings.Contains(name, "jeton") || strings.Contains(name, "token") || name == "authorization"
}

// bodyLimit is echo's body limit, whose refusal on /graphql is a GraphQL
// answer like every other.
func bodyLimit(limit string) echo.MiddlewareFunc {
	limited := middleware.BodyLimit(limit)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := limited(next)
		return func(c echo.Context) error {
			err := h(c)
			if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) && c.Path() == "/graphql" {
				writeRefusal(c.Response(), http.StatusRequestEntityTooLarge, codePayloadTooLarge, tooLarge(limit))
				return nil
			}
			return err
		}
	}
}

func tooLarge(limit string) string {
	return fmt.Sprintf("Requête trop volumineuse : au plus %s octets", limit)
}

// wireRequest is one GraphQL request as sent over HTTP POST: the kind of
// each field's value, checked, not decoded; it names the field of a
// request that does not decode (lireRequete).
type wireRequest struct {
	Query         genreJSON `json:"query"`
	OperationName genreJSON `json:"operationName"`
	Variables     genreJSON `json:"variables"`
	Extensions    genreJSON `json:"extensions"`
}

// genreJSON is the first byte of a JSON value (0 when absent): '"' a
// string, '{' an object, 'n' null…; the value itself, whose syntax the
// decoder checks, is not kept. A field sent several times (JSON allows it,
// and its names match whatever their case) keeps a wrong kind once one of
// its values has one, as decoding it does: two values of different kinds
// other than null are genreMele, which no field accepts.
type genreJSON byte

// genreMele is the kind of a field sent twice with values of two kinds.
const genreMele genreJSON = 'x'

func (g *genreJSON) UnmarshalJSON(b []byte) error {
	switch nouveau := genreJSON(b[0]); {
	case *g == 0 || *g == 'n':
		*g = nouveau
	case nouveau != 'n' && nouveau != *g:
		*g = genreMele
	}
	return nil
}

// champMalType names the first field of req whose value has the wrong
// kind, with the kind expected, or "" when each is absent, null or right.
func (req wireRequest) champMalType() (champ, attendu string) {
	for _, f := range []struct {
		champ string
		genre genreJSON
		ok    genreJSON
	}{{"query", req.Query, '"'}, {"operationName", req.OperationName, '"'}, {"variables", req.Variables, '{'}, {"extensions", req.Extensions, '{'}} {
		if f.genre != 0 && f.genre != 'n' && f.genre != f.ok {
			if f.ok == '"' {
				return f.champ, "une chaîne"
			}
			return f.champ, "un objet"
		}
	}
	return "", ""
}

// strictRequests refuses, before gqlgen sees it, a request that is not
// exactly one GraphQL request: a POST body not JSON, truncated, a batch (JSON
// array), with fields of the wrong type or trailing data, or over limit; GET
// parameters variables or extensions that are not JSON objects; a
// websocket upgrade from a page of another origin (403 FORBIDDEN); any
// other method than GET, POST, OPTIONS and the websocket's upgrade. The
// refusals are GraphQL answers with a code and never echo the request.
func strictRequests(limit string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Upgrade") != "" && !memeOrigine(r):
			writeRefusal(w, http.StatusForbidden, codeForbidden, "Connexion refusée : une page d'une autre origine ne peut pas ouvrir de websocket vers ce serveur")
		case r.Header.Get("Upgrade") != "" || r.Method == http.MethodOptions:
			next.ServeHTTP(w, r)
		case r.Method == http.MethodGet:
			if msg := checkParams(r.URL.Query()); msg != "" {
				writeRefusal(w, http.StatusBadRequest, codeBadRequest, "Requête refusée : "+msg)
				return
			}
			next.ServeHTTP(w, r)
		case r.Method == http.MethodPost:
			strictPOST(limit, w, r, next)
		default:
			w.Header().Set("Allow", "GET, POST, OPTIONS")
			writeRefusal(w, http.StatusMethodNotAllowed, codeBadRequest, "Requête refusée : méthode HTTP non acceptée, GET ou POST")
		}
	})
}

// memeOrigine tells whether a websocket upgrade comes from this server's
// own pages (its Origin names the host it was sent to) or from a client
// that is no browser (no Origin: the CLI, a twinned site). A page of any
// other origin, which a phone in the hall may open, is refused.
func memeOrigine(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

// checkParams tells in French what is wrong with a GET request's JSON
// parameters, or "".
func checkParams(params url.Values) string {
	for _, name := range []string{"variables", "extensions"} {
		var obj map[string]any
		if raw := params.Get(name); raw != "" && json.Unmarshal([]byte(raw), &obj) != nil {
			return fmt.Sprintf("le paramètre « %s » doit être un objet JSON", name)
		}
	}
	return ""
}

// requeteDecodee keys, in a POST request's context, the GraphQL request
// the edge decoded from its body (lireRequete), which postDirect hands to
// gqlgen instead of decoding the body again.
type requeteDecodee struct{}

// strictPOST passes r on to next when its body is one GraphQL request,
// with the request decoded in its context.
func strictPOST(limit string, w http.ResponseWriter, r *http.Request, next http.Handler) {
	if mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mediaType != "application/json" {
		writeRefusal(w, http.StatusBadRequest, codeBadRequest, "Requête refusée : le corps doit être du JSON (« Content-Type: application/json »)")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
			writeRefusal(w, http.StatusRequestEntityTooLarge, codePayloadTooLarge, tooLarge(limit))
			return
		}
		writeRefusal(w, http.StatusBadRequest, codeBadRequest, "Requête refusée : corps illisible ou incomplet")
		return
	}
	params, msg := lireRequete(body)
	if msg != "" {
		writeRefusal(w, http.StatusBadRequest, codeBadRequest, "Requête refusée : "+msg)
		return
	}
	if params != nil {
		r = r.WithContext(context.WithValue(r.Context(), requeteDecodee{}, params))
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	next.ServeHTTP(w, r)
}

// lireRequete decodes body as gqlgen's POST transport does (the first
// JSON value, numbers kept as written), or tells in French what makes it
// something else than one GraphQL request. Issue 34 item 3: the request
// is decoded once, here, and gqlgen is handed what was decoded; the edge
// checked the kinds of its fields and gqlgen decoded it after. params is
// nil, with no message, for a body the kinds admit and the decoding does
// not (none is known): gqlgen decodes it, and answers, as before.
func lireRequete(body []byte) (params *gql.RawParams, msg string) {
	trimmed := bytes.Trim(body, " \t\r\n") // JSON's whitespace only
	switch {
	case len(trimmed) == 0:
		return nil, "corps vide, une requête GraphQL est attendue"
	case trimmed[0] == '[':
		return nil, "les requêtes groupées (tableau JSON) ne sont pas acceptées, envoyer une requête par appel"
	case trimmed[0] != '{':
		return nil, "le corps doit être un objet JSON {\"query\": …}"
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	params = &gql.RawParams{}
	err := dec.Decode(params)
	if syntax := (*json.SyntaxError)(nil); errors.As(err, &syntax) {
		return nil, fmt.Sprintf("JSON invalide à l'octet %d", syntax.Offset)
	}
	if err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		return nil, "JSON tronqué"
	}
	if err != nil {
		// The field named is the first of the request's fields (not of
		// the body) with a wrong kind.
		var req wireRequest
		_ = json.NewDecoder(bytes.NewReader(trimmed)).Decode(&req)
		if champ, attendu := req.champMalType(); champ != "" {
			return nil, fmt.Sprintf("le champ « %s » doit être %s", champ, attendu)
		}
		params = nil
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, "données après la requête, un seul objet JSON est attendu"
	}
	return params, ""
}

// writeRefusal answers with a GraphQL error carrying code.
func writeRefusal(w http.ResponseWriter, status int, code, message string) {
	body, _ := json.Marshal(gql.Response{Errors: gqlerror.List{{Message: message, Extensions: map[string]any{"code": code}}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// noIntrospection refuses the operations that read the schema (__schema,
// __type) with a code; __typename stays allowed.
type noIntrospection struct{}

func (noIntrospection) ExtensionName() string               { return "NoIntrospection" }
func (noIntrospection) Validate(gql.ExecutableSchema) error { return nil }

func (noIntrospection) MutateOperationContext(_ context.Context, oc *gql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || !readsSchema(oc.Operation.SelectionSet, oc.Doc.Fragments, 0) {
		return nil
	}
	err := gqlerror.Errorf("Introspection désactivée sur ce serveur")
	err.Extensions = map[string]any{"code": codeIntrospectionDisabled}
	return err
}

// readsSchema tells whether the top level of the selection, fragments
// followed, asks for __schema or __type.
func readsSchema(set ast.SelectionSet, fragments ast.FragmentDefinitionList, depth int) bool {
	if depth > 64 {
		return false
	}
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if readsSchema(s.SelectionSet, fragments, depth+1) {
				return true
			}
		case *ast.FragmentSpread:
			if f := fragments.ForName(s.Name); f != nil && readsSchema(f.SelectionSet, fragments, depth+1) {
				return true
			}
		}
	}
	return false
}
