package server

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"sync"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"arbitre/graphql"
)

// requetesPubliques are the query fields whose answer is the same for
// every caller and depends on the event log alone: their resolvers
// (graphql/classement.resolvers.go, federation_classements.resolvers.go)
// consult no token and carry no @acces, and read the standings projection
// once it has applied the log's head (classement) or the store itself
// (classementNational). Issue 17: a hall's 200 standings queries a second
// cost one execution per change, not one per query.
var requetesPubliques = map[string]bool{"classement": true, "classementNational": true}

const (
	// maxRequetesGardees bounds the public queries whose latest answer is
	// kept (least recently asked dropped first).
	maxRequetesGardees = 64
	// maxOctetsGardes bounds the bytes of the answers kept and their keys
	// (least recently asked dropped first): an anonymous caller may ask
	// for 100 aliases of a 2,000-player cumul (36 MB) under 64 keys. A
	// hall's standings are 360 KB, a national ranking of 6,000 lines
	// 690 KB.
	maxOctetsGardes = 32 << 20
	// maxOctetsReponse bounds one answer kept: a larger one is sent to
	// the callers that waited for its execution, then forgotten.
	maxOctetsReponse = maxOctetsGardes / 8
	// maxCleRequete bounds a shared query's document and variables: a
	// larger one runs for its caller alone and keeps nothing.
	maxCleRequete = 16 << 10
	// attenteEtat bounds how long a public query waits for the standings
	// projection to apply the head it read (the resolvers wait as long as the operation may last);
	// behind that, it runs for its caller alone.
	attenteEtat = 2 * time.Second
)

// EtatFunc reads the state of the data public queries answer from: the
// same value means the same answer, a larger one newer data. ok is false
// when it cannot be vouched for (the query then runs unshared).
type EtatFunc func(ctx context.Context) (etat uint64, ok bool)

// etatDuJournal is the state the public queries' answers depend on: the
// event log's head, read once per request, once the standings projection
// has applied it. A resolver then reads at least that state (it waits for
// the head it reads itself, never lower), so an answer computed for head
// H is valid for every request that saw H: it is never stale. nil without
// a log or a projection to vouch for (nothing is then shared).
func etatDuJournal(r *graphql.Resolver) EtatFunc {
	if r == nil || r.Head == nil || r.StandingsRunner == nil {
		return nil
	}
	return func(ctx context.Context) (uint64, bool) {
		head, err := r.Head(ctx)
		if err != nil {
			return 0, false
		}
		wait, cancel := context.WithTimeout(ctx, attenteEtat)
		defer cancel()
		if r.StandingsRunner.Attendre(wait, head) != nil {
			return 0, false
		}
		return head, true
	}
}

// requetesPartagees keeps the shared executions of public queries: per
// key (document, operation, variables), the latest one and its answer, in
// the order they were last asked; octets is the size of their keys and
// answers.
type requetesPartagees struct {
	mu     sync.Mutex
	parCle map[string]*reponsePartagee
	ordre  *list.List // of *reponsePartagee, most recently asked first
	octets int
}

// reponsePartagee is one execution of a public query for the state etat,
// and once fini is closed its outcome.
type reponsePartagee struct {
	cle  string
	etat uint64
	elem *list.Element
	fini chan struct{}
	// Set before fini is closed. data is the answer when ok; without it,
	// abandon tells that the execution's caller left before answering (its
	// followers then run it again, one for all), otherwise that the answer
	// had errors (each follower then runs its own: errors are not shared).
	data    json.RawMessage
	ok      bool
	abandon bool
	// octets is the size of its key and kept answer, counted in
	// requetesPartagees.octets while it is kept (requetesPartagees.mu).
	octets int
}

// cleRequete is the key of a public query (clePublique: document,
// operation and variables, which with the data's state determine its
// answer); ok is false for any other operation, and for a key over
// maxCleRequete.
func cleRequete(oc *gql.OperationContext) (string, bool) {
	cle, ok := clePublique(oc, ast.Query, requetesPubliques)
	return cle, ok && len(cle) <= maxCleRequete
}

// requete answers a public query: with the answer already computed for
// the state its caller sees (or a newer one), or, while it is being
// computed, once it is, or else by executing it for every caller of the
// same key. Its first response is the one shared; an execution with more
// (@defer) is its caller's own.
func (s *schemaPartage) requete(cle string) gql.ResponseHandler {
	premier := true
	var suite gql.ResponseHandler
	return func(ctx context.Context) *gql.Response {
		if !premier {
			if suite == nil {
				return nil
			}
			return suite(ctx)
		}
		premier = false
		r, h := s.repondre(ctx, cle)
		suite = h
		return r
	}
}

// repondre is requete's first response, and the handler of the caller's
// own execution when it ran one.
func (s *schemaPartage) repondre(ctx context.Context, cle string) (*gql.Response, gql.ResponseHandler) {
	etat, ok := s.etat(ctx)
	if !ok {
		return s.seul(ctx)
	}
	for {
		p, meneur := s.requetes.rejoindre(cle, etat)
		if meneur {
			return s.mener(ctx, p)
		}
		select {
		case <-p.fini:
		case <-ctx.Done():
			return s.seul(ctx)
		}
		if p.ok {
			// The executor appends this caller's errors and extensions to
			// its own response; the bytes are shared, read only.
			return &gql.Response{Data: p.data}, nil
		}
		if !p.abandon {
			return s.seul(ctx)
		}
	}
}

// seul executes the operation of ctx for its caller alone.
func (s *schemaPartage) seul(ctx context.Context) (*gql.Response, gql.ResponseHandler) {
	h := s.ExecutableSchema.Exec(ctx)
	if h == nil {
		return nil, nil
	}
	return h(ctx), h
}

// mener executes p for its caller, whose response context collects the
// errors, and publishes the answer when it has none.
func (s *schemaPartage) mener(ctx context.Context, p *reponsePartagee) (r *gql.Response, h gql.ResponseHandler) {
	ok := false
	defer func() {
		// A panic that escaped the execution shares nothing either.
		var data json.RawMessage
		if ok {
			data = bytes.Clone(r.Data)
		}
		s.requetes.terminer(p, data, ok, !ok && ctx.Err() != nil)
	}()
	h = s.ExecutableSchema.Exec(ctx)
	if h == nil {
		return nil, nil
	}
	r = h(ctx)
	ok = r != nil && r.Data != nil && len(r.Errors) == 0 && r.HasNext == nil && len(gql.GetErrors(ctx)) == 0
	return r, h
}

func newRequetesPartagees() *requetesPartagees {
	return &requetesPartagees{parCle: map[string]*reponsePartagee{}, ordre: list.New()}
}

// rejoindre returns the execution of cle that answers a caller who saw
// etat: the latest one, when it is for etat or a newer state; otherwise a
// new one, which the caller leads (meneur) and which replaces it.
func (q *requetesPartagees) rejoindre(cle string, etat uint64) (p *reponsePartagee, meneur bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.parCle[cle]; p != nil {
		if p.etat >= etat {
			q.ordre.MoveToFront(p.elem)
			return p, false
		}
		q.oublier(p)
	}
	p = &reponsePartagee{cle: cle, etat: etat, fini: make(chan struct{})}
	p.elem = q.ordre.PushFront(p)
	q.parCle[cle] = p
	q.compter(p, len(cle))
	q.borner()
	return p, true
}

// terminer publishes the outcome of p to the callers waiting for it; one
// without an answer, or with one over maxOctetsReponse, is then
// forgotten, so that the next caller executes again.
func (q *requetesPartagees) terminer(p *reponsePartagee, data json.RawMessage, ok, abandon bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	p.data, p.ok, p.abandon = data, ok, abandon
	if q.parCle[p.cle] == p {
		if ok && len(data) <= maxOctetsReponse {
			q.compter(p, len(data))
			q.borner()
		} else {
			q.oublier(p)
		}
	}
	close(p.fini)
}

// borner forgets the least recently asked executions beyond
// maxRequetesGardees or maxOctetsGardes (q.mu held).
func (q *requetesPartagees) borner() {
	for q.ordre.Len() > maxRequetesGardees || q.octets > maxOctetsGardes {
		q.oublier(q.ordre.Back().Value.(*reponsePartagee))
	}
}

// oublier forgets p, kept (q.mu held); its callers still get its outcome.
func (q *requetesPartagees) oublier(p *reponsePartagee) {
	q.ordre.Remove(p.elem)
	delete(q.parCle, p.cle)
	q.compter(p, -p.octets)
}

// compter counts n more bytes kept for p (q.mu held).
func (q *requetesPartagees) compter(p *reponsePartagee, n int) {
	p.octets += n
	q.octets += n
}
