package main

// Tests of the end-to-end harness itself (issue 32, item 1): what the
// helpers do when the network fails under them.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 32, item 1: e2eRelais read its cut before dialling the server and
// kept the two ends only after, so a connection accepted just before
// interrompre went on through the cut. The relay here dials a pipe held
// by the test; the network is cut while it dials: the client's bytes must
// not reach the server, whose end is closed.
func TestE2EHarnais_ConnexionAccepteeJusteAvantLaCoupure(t *testing.T) {
	r := nouveauRelais(t, "")
	relais, serveur := net.Pipe()
	// A guard against a hang, not a measure; set before the cut, since a
	// pipe whose other end is closed refuses a deadline.
	require.NoError(t, serveur.SetReadDeadline(time.Now().Add(time.Minute)))
	compose, repris := make(chan struct{}), make(chan struct{})
	r.composer = func() (net.Conn, error) {
		close(compose)
		<-repris
		return relais, nil
	}
	client, err := net.Dial("tcp", r.addr())
	require.NoError(t, err)
	defer client.Close()

	<-compose // the relay accepted the connection and dials the server
	r.interrompre()
	close(repris)
	_, _ = client.Write([]byte("ping")) // refused or lost: the link is cut

	n, err := serveur.Read(make([]byte, 4))
	assert.Zero(t, n, "nothing goes through a cut network")
	assert.Error(t, err, "the server's end is closed by the cut")
}

// Issue 32, item 1: postGraphQL required the request to go through, so a
// transport error inside a require.Eventually condition (its own
// goroutine) stopped that goroutine alone: the condition never answered
// again and the wait ran out as « Condition never satisfied ». The server
// here cuts the first connection before answering: the condition sees an
// error answer and the next try succeeds.
func TestE2EHarnais_RequeteCoupeeDansUneAttente(t *testing.T) {
	var requetes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requetes.Add(1) == 1 {
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"__typename":"Query"}}`))
	}))
	defer srv.Close()

	var premier apiResult
	essais := 0
	require.Eventually(t, func() bool {
		essais++
		r := postGraphQL(t, srv.URL, "", `{ __typename }`, nil)
		if essais == 1 {
			premier = r
		}
		return len(r.Errors) == 0
	}, 20*time.Second, 10*time.Millisecond)
	assert.Equal(t, 2, essais, "the cut request is an answer with an error, then tried again")
	assert.Equal(t, codeTransport, premier.code())
}

// Issue 32, item 1: a wait's condition runs in a goroutine of its own,
// where a require (or a t.Fatal, or a helper that requires: apiResult.into,
// evenements) stops that goroutine alone: the wait ends as « Condition
// never satisfied » with the real error hidden. No condition given to
// Eventually or EventuallyWithT in this package's tests calls one.
func TestE2EHarnais_AttentesSansRequireDansLaCondition(t *testing.T) {
	fichiers, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var sites []string
	for _, f := range fichiers {
		fichier, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		ast.Inspect(fichier, func(n ast.Node) bool {
			attente, ok := n.(*ast.CallExpr)
			if !ok || len(attente.Args) < 2 {
				return true
			}
			if sel, ok := attente.Fun.(*ast.SelectorExpr); !ok || (sel.Sel.Name != "Eventually" && sel.Sel.Name != "EventuallyWithT") {
				return true
			}
			condition, ok := attente.Args[1].(*ast.FuncLit)
			if !ok {
				return true
			}
			ast.Inspect(condition.Body, func(n ast.Node) bool {
				if appel, ok := n.(*ast.CallExpr); ok {
					if quoi := appelQuiExige(appel); quoi != "" {
						sites = append(sites, fmt.Sprintf("%s: %s", fset.Position(appel.Pos()), quoi))
					}
				}
				return true
			})
			return true
		})
	}
	for _, site := range sites {
		t.Errorf("%s in a wait's condition: return false on an error instead", site)
	}
}

// appelQuiExige names the call when it fails its test by itself: require.*,
// t.Fatal*, apiResult.into, apiSubscription.next, exiger, evenements,
// classementJumele.
func appelQuiExige(appel *ast.CallExpr) string {
	switch f := appel.Fun.(type) {
	case *ast.Ident:
		if f.Name == "evenements" || f.Name == "classementJumele" {
			return f.Name
		}
	case *ast.SelectorExpr:
		x, _ := f.X.(*ast.Ident)
		switch {
		case x != nil && x.Name == "require":
			return "require." + f.Sel.Name
		case x != nil && x.Name == "t" && strings.HasPrefix(f.Sel.Name, "Fatal"):
			return "t." + f.Sel.Name
		case f.Sel.Name == "into" || f.Sel.Name == "next" || f.Sel.Name == "exiger":
			return "." + f.Sel.Name
		}
	}
	return ""
}
