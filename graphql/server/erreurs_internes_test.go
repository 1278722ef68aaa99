package server_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql"
	"arbitre/graphql/server"
)

// Issue 32: an error a resolver returns without a code of its own (a
// store read failing, a bug) is the server's failure, answered INTERNAL
// with the generic message (its cause stays in the logs), never
// INVALID_INPUT as if the client had sent a bad argument (and its cause
// was sent in extensions.detail); a store that cannot read is
// UNAVAILABLE; a bad argument stays INVALID_INPUT.
func TestFiabilite_ErreurInterneNEstPasUneErreurDuClient(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	lecture := errors.New("database disk image is malformed (11)")
	indisponible := eventstore.NewError(eventstore.CodeUnavailable, "reading the log", errors.New("disk I/O error (266)"))
	tests := []struct {
		name     string
		head     error
		query    string
		vars     map[string]any
		code     string
		contient string
	}{
		{"a store read failing", lecture, `{ partie(id: "p1") { id } }`, nil, "INTERNAL", "Erreur interne"},
		{"a store read failing, in two fields", lecture, `{ a: partie(id: "p1") { id } b: partie(id: "p2") { id } }`, nil, "INTERNAL", "Erreur interne"},
		{"the store unavailable", indisponible, `{ partie(id: "p1") { id } }`, nil, "UNAVAILABLE", "rien n'est enregistré"},
		{"an argument out of its bounds", nil, `mutation($v: Int) { tirer(partie: "p1", version: $v) { id } }`,
			map[string]any{"v": 1 << 40}, "INVALID_INPUT", "Donnée invalide (« tirer.version »)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tokens := acces.NewRegistre()
			r := &graphql.Resolver{Version: "test", Lexicon: lex, Engine: solve.NewPool(lex)}
			if tt.head != nil {
				r.Head = func(ctxt context.Context) (uint64, error) { return 0, tt.head }
			}
			var journal bytes.Buffer
			srv := httptest.NewServer(server.New(server.Config{Resolver: r, Tokens: tokens, Now: time.Now,
				Logger: slog.New(slog.NewTextHandler(&journal, nil))}))
			defer srv.Close()
			h := &harness{t: t, url: srv.URL}
			out := h.query("", tt.query, tt.vars)
			require.NotEmpty(t, out.Errors, "%v", out)
			assert.Equal(t, tt.code, out.code(), "%s", out.Errors[0].Message)
			assert.Contains(t, out.Errors[0].Message, tt.contient)
			assert.NotContains(t, fmt.Sprint(out.Errors), "malformed", "the cause is not sent")
			if tt.code == "INTERNAL" {
				assert.Contains(t, journal.String(), "database disk image is malformed", "the cause is logged")
			}
		})
	}
}
