package server

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// publiques are the subscriptions whose answer is the same for every
// caller (public data, no token consulted): the standings a hall's
// displays follow. Issue 17: a change reaches 1,000 displays as one read
// and one serialization, not one per display.
var publiques = map[string]bool{"classementChange": true, "standingsChanged": true}

// schemaPartage runs each distinct public subscription once, however many
// callers follow it: the first caller's execution (the diffusion) reads
// and marshals every change once, and every caller of the same document,
// operation and variables is sent the same bytes. Everything else a
// caller goes through — validation, limits, the rate limit, its own
// connection — stays its own; only the execution is shared. A caller that
// reads slowly never delays the others: the diffusion keeps only its
// latest answer, and a caller back from a slow write gets that one (the
// states in between are dropped, the last is never lost).
type schemaPartage struct {
	gql.ExecutableSchema
	presenter gql.ErrorPresenterFunc
	recuperer gql.RecoverFunc

	mu     sync.Mutex
	parCle map[string]*diffusion

	// etat, when set, is the state of the data the public queries answer
	// from: their callers of the same key and state share one execution
	// (partage_requetes.go); without it queries are never shared.
	etat     EtatFunc
	requetes *requetesPartagees
}

func newSchemaPartage(es gql.ExecutableSchema, presenter gql.ErrorPresenterFunc, recuperer gql.RecoverFunc) *schemaPartage {
	return &schemaPartage{ExecutableSchema: es, presenter: presenter, recuperer: recuperer, parCle: map[string]*diffusion{},
		requetes: newRequetesPartagees()}
}

// diffusion is one shared execution and its latest answer.
type diffusion struct {
	// pret is closed once the first caller's execution started; echec
	// (set before) tells it refused the operation.
	pret   chan struct{}
	echec  bool
	cancel context.CancelFunc
	// abonnes is guarded by schemaPartage.mu.
	abonnes int

	mu      sync.Mutex
	dernier *gql.Response
	numero  int
	fin     bool
	change  chan struct{}
}

// clePartage is the key of a public subscription's execution: the
// document, the operation and the variables, which determine its answer
// entirely; ok is false for any other operation.
func clePartage(oc *gql.OperationContext) (string, bool) {
	return clePublique(oc, ast.Subscription, publiques)
}

// clePublique is the key of an operation of kind op whose every top-level
// selection is a field named in champs: its document, operation name and
// variables; ok is false for any other (another kind, another field,
// __typename, a fragment at the root).
func clePublique(oc *gql.OperationContext, op ast.Operation, champs map[string]bool) (string, bool) {
	if oc == nil || oc.Operation == nil || oc.Operation.Operation != op || len(oc.Operation.SelectionSet) == 0 {
		return "", false
	}
	for _, sel := range oc.Operation.SelectionSet {
		if f, ok := sel.(*ast.Field); !ok || !champs[f.Name] {
			return "", false
		}
	}
	vars, err := json.Marshal(oc.Variables) // maps marshal with sorted keys
	if err != nil {
		return "", false
	}
	return oc.RawQuery + "\x00" + oc.OperationName + "\x00" + string(vars), true
}

// Exec implements graphql.ExecutableSchema.
func (s *schemaPartage) Exec(ctx context.Context) gql.ResponseHandler {
	oc := gql.GetOperationContext(ctx)
	if s.etat != nil {
		if cle, ok := cleRequete(oc); ok {
			return s.requete(cle)
		}
	}
	cle, ok := clePartage(oc)
	if !ok {
		return s.ExecutableSchema.Exec(ctx)
	}
	d := s.rejoindre(ctx, cle)
	if d == nil { // refused: the errors are in ctx, as for an unshared execution
		return func(context.Context) *gql.Response { return nil }
	}
	vu := 0
	return func(ctx context.Context) *gql.Response {
		for {
			d.mu.Lock()
			r, numero, fin, change := d.dernier, d.numero, d.fin, d.change
			d.mu.Unlock()
			if numero > vu {
				vu = numero
				// The executor appends to Errors and sets Extensions: each
				// caller gets its own response around the shared bytes.
				return &gql.Response{Data: r.Data, Errors: slices.Clone(r.Errors)}
			}
			if fin {
				return nil
			}
			select {
			case <-change:
			case <-ctx.Done():
				return nil
			}
		}
	}
}

// rejoindre makes the caller of ctx follow the diffusion of cle, starting
// it when there is none; nil when the execution refused the operation
// (its errors are then in ctx). The caller leaves when ctx is done.
func (s *schemaPartage) rejoindre(ctx context.Context, cle string) *diffusion {
	for {
		s.mu.Lock()
		d := s.parCle[cle]
		premier := d == nil
		if premier {
			d = &diffusion{pret: make(chan struct{}), change: make(chan struct{})}
			s.parCle[cle] = d
		}
		d.abonnes++
		s.mu.Unlock()
		if premier {
			s.lancer(ctx, cle, d)
		} else {
			select {
			case <-d.pret:
			case <-ctx.Done():
				s.quitter(cle, d)
				return nil
			}
		}
		if !d.echec {
			context.AfterFunc(ctx, func() { s.quitter(cle, d) })
			return d
		}
		s.quitter(cle, d)
		if premier {
			return nil
		}
		// Another caller's execution was refused: this one runs its own,
		// which reports its own errors.
	}
}

// lancer starts the execution of the diffusion d for the first caller,
// whose context gives it the operation and receives the errors of its
// start; the execution then lives until its last caller leaves.
func (s *schemaPartage) lancer(ctx context.Context, cle string, d *diffusion) {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	d.cancel = cancel
	h := s.ExecutableSchema.Exec(lctx)
	if len(gql.GetErrors(ctx)) > 0 {
		d.echec = true
		s.retirer(cle, d)
		close(d.pret)
		return
	}
	close(d.pret)
	go s.diffuser(lctx, cle, d, h)
}

// diffuser reads every answer of the shared execution once and publishes
// it; when the execution ends, so do its callers' subscriptions.
func (s *schemaPartage) diffuser(ctx context.Context, cle string, d *diffusion, h gql.ResponseHandler) {
	for {
		rctx := gql.WithResponseContext(ctx, s.presenter, s.recuperer)
		r := h(rctx)
		d.mu.Lock()
		ancien := d.dernier
		if r == nil {
			d.fin = true
		} else {
			// The execution reuses its buffer for the next answer.
			d.dernier = &gql.Response{Data: bytes.Clone(r.Data), Errors: append(r.Errors, gql.GetErrors(rctx)...)}
			d.numero++
			partager(d.dernier)
		}
		if ancien != nil {
			oublier(ancien)
		}
		close(d.change)
		d.change = make(chan struct{})
		d.mu.Unlock()
		if r == nil {
			s.retirer(cle, d)
			return
		}
	}
}

// quitter counts a caller out; the last one ends the execution.
func (s *schemaPartage) quitter(cle string, d *diffusion) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d.abonnes--
	if d.abonnes == 0 {
		if s.parCle[cle] == d {
			delete(s.parCle, cle)
		}
		d.cancel()
	}
}

// retirer forgets the diffusion d of cle, which new callers no longer join.
func (s *schemaPartage) retirer(cle string, d *diffusion) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parCle[cle] == d {
		delete(s.parCle, cle)
	}
}
