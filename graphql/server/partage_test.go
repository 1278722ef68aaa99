package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
)

// sourceEtats is an executable schema whose subscription sends the states
// pushed into etats, counting its executions like a resolver counts its
// reads of the standings.
type sourceEtats struct {
	gql.ExecutableSchema
	executions atomic.Int32
	etats      chan string
	refus      error
	// finies counts the executions whose context ended.
	finies atomic.Int32
}

func (s *sourceEtats) Exec(ctx context.Context) gql.ResponseHandler {
	s.executions.Add(1)
	if s.refus != nil {
		gql.AddError(ctx, s.refus)
		return nil
	}
	context.AfterFunc(ctx, func() { s.finies.Add(1) })
	return func(rctx context.Context) *gql.Response {
		select {
		case e, ok := <-s.etats:
			if !ok {
				return nil
			}
			return &gql.Response{Data: []byte(`{"classementChange":"` + e + `"}`)}
		case <-rctx.Done():
			return nil
		}
	}
}

// appelant is one display's subscription: its own operation context,
// response context and cancellation, as the executor gives it.
type appelant struct {
	ctx    context.Context
	cancel context.CancelFunc
	h      gql.ResponseHandler
}

func abonner(t *testing.T, s *schemaPartage, champ string, vars map[string]any) appelant {
	t.Helper()
	oc := &gql.OperationContext{RawQuery: "subscription($p: ID) { " + champ + "(partie: $p) { rang } }", Variables: vars,
		Operation: &ast.OperationDefinition{Operation: ast.Subscription, SelectionSet: ast.SelectionSet{&ast.Field{Name: champ}}}}
	ctx, cancel := context.WithCancel(gql.WithOperationContext(context.Background(), oc))
	t.Cleanup(cancel)
	ctx = gql.WithResponseContext(ctx, gql.DefaultErrorPresenter, gql.DefaultRecover)
	return appelant{ctx: ctx, cancel: cancel, h: s.Exec(ctx)}
}

func (a appelant) suivant() string {
	r := a.h(a.ctx)
	if r == nil {
		return ""
	}
	return string(r.Data)
}

func etat(n int) string { return fmt.Sprintf(`{"classementChange":"%d"}`, n) }

// Issue 17: the standings of a change are read and serialized once for
// every display that follows them, not once per display, and every
// display reaches the final state, none twice.
func TestClassementChange_UneExecutionPourTousLesAffichages(t *testing.T) {
	src := &sourceEtats{etats: make(chan string)}
	s := newSchemaPartage(src, gql.DefaultErrorPresenter, gql.DefaultRecover)
	const affichages, changements = 1000, 5
	appelants := make([]appelant, affichages)
	for i := range appelants {
		appelants[i] = abonner(t, s, "classementChange", map[string]any{"p": "sim-1-2"})
	}
	assert.EqualValues(t, 1, src.executions.Load(), "one execution for every display")

	vus := make([][]string, affichages)
	var wg sync.WaitGroup
	for i, a := range appelants {
		wg.Go(func() {
			for {
				e := a.suivant()
				vus[i] = append(vus[i], e)
				if e == etat(changements) {
					return
				}
			}
		})
	}
	for n := 1; n <= changements; n++ {
		src.etats <- fmt.Sprint(n)
	}
	wg.Wait()
	for i, v := range vus {
		require.NotEmpty(t, v)
		assert.Equal(t, etat(changements), v[len(v)-1], "display %d ends on the final state", i)
		for k := 1; k < len(v); k++ {
			assert.Less(t, v[k-1], v[k], "display %d: each state at most once, in order", i)
		}
	}
	assert.EqualValues(t, 1, src.executions.Load())
}

// Issue 17: a display that does not read holds nobody up; once back it
// gets the latest state, the ones in between dropped.
func TestClassementChange_AffichageLentNeRetardePersonne(t *testing.T) {
	src := &sourceEtats{etats: make(chan string)}
	s := newSchemaPartage(src, gql.DefaultErrorPresenter, gql.DefaultRecover)
	lent := abonner(t, s, "classementChange", map[string]any{"p": "sim-1-2"})
	vif := abonner(t, s, "classementChange", map[string]any{"p": "sim-1-2"})
	for n := 1; n <= 100; n++ {
		src.etats <- fmt.Sprint(n) // never blocks on the slow display
		require.Equal(t, etat(n), vif.suivant())
	}
	assert.Equal(t, etat(100), lent.suivant(), "the slow display jumps to the latest state")
}

// A refusal (unknown game, bad arguments) is each caller's own: every one
// gets its errors and nothing is kept for the next.
func TestClassementChange_RefusPropreAChaqueAppelant(t *testing.T) {
	src := &sourceEtats{refus: errors.New("la partie x n'existe pas")}
	s := newSchemaPartage(src, gql.DefaultErrorPresenter, gql.DefaultRecover)
	for range 3 {
		a := abonner(t, s, "classementChange", map[string]any{"p": "x"})
		errs := gql.GetErrors(a.ctx)
		require.Len(t, errs, 1)
		assert.Equal(t, "la partie x n'existe pas", errs[0].Message)
	}
	assert.EqualValues(t, 3, src.executions.Load())
	assert.Empty(t, s.parCle)
}

// The shared execution ends with its last display; other subscriptions,
// and other arguments, are executed for each caller.
func TestClassementChange_PartageParDocumentEtVariables(t *testing.T) {
	src := &sourceEtats{etats: make(chan string)}
	s := newSchemaPartage(src, gql.DefaultErrorPresenter, gql.DefaultRecover)
	a := abonner(t, s, "classementChange", map[string]any{"p": "sim-1-1"})
	b := abonner(t, s, "classementChange", map[string]any{"p": "sim-1-1"})
	abonner(t, s, "classementChange", map[string]any{"p": "sim-1-2"})
	abonner(t, s, "coupAnnonce", map[string]any{"p": "sim-1-1"})
	abonner(t, s, "coupAnnonce", map[string]any{"p": "sim-1-1"})
	assert.EqualValues(t, 4, src.executions.Load(), "one per standings asked, one per coupAnnonce caller")

	a.cancel()
	b.cancel()
	require.Eventually(t, func() bool { return src.finies.Load() >= 1 }, 5*time.Second, time.Millisecond, "the last display's leaving ends the execution")
	s.mu.Lock()
	assert.Len(t, s.parCle, 1, "only sim-1-2's standings are still followed")
	s.mu.Unlock()
}
