// Package command holds the use cases of the events played in many
// centres (guide §2.17): load the event, run the aggregate's command, save
// its events with optimistic concurrency. The CLI (`arbitre centre ...`)
// calls only these handlers.
package command

import (
	"context"
	"fmt"
	"sync"

	"arbitre/domain/aggregate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/federation"
)

// Depot is a repository of one of the federation's aggregates
// (adapters.Depot).
type Depot[A repository.Aggregate] = aggregate.Repository[A]

// Epreuves is where the events live (adapters.Epreuves).
type Epreuves = Depot[*federation.Epreuve]

// Application runs the federation's commands for one actor, as every
// context's use cases do: who acts is given when they are made (New) or
// changed (Par), never beside each command.
type Application struct {
	Epreuves Epreuves
	metadata eventstore.Metadata
}

// New returns the use cases over the events' repository; md tells who acts.
func New(epreuves Epreuves, md eventstore.Metadata) *Application {
	return &Application{Epreuves: epreuves, metadata: md}
}

// Par returns the use cases acting for another actor.
func (a *Application) Par(md eventstore.Metadata) *Application {
	b := *a
	b.metadata = md
	return &b
}

// OuvrirEpreuve opens an event on a pre-drawn game of coups coups.
type OuvrirEpreuve struct {
	Epreuve string
	Nom     string
	Coups   int
}

// OuvrirEpreuve handles OuvrirEpreuve.
func (a *Application) OuvrirEpreuve(ctx context.Context, c OuvrirEpreuve) error {
	return a.executer(ctx, c.Epreuve, func(e *federation.Epreuve) error { return e.Ouvrir(c.Epreuve, c.Nom, c.Coups) })
}

// RecevoirResultats records a centre's results, as they came (online or
// as a file) with their fingerprint; the same fingerprint again records
// nothing.
type RecevoirResultats struct {
	Epreuve   string
	Resultats federation.ResultatsCentre
	Origine   federation.Origine
	Empreinte string
}

// RecevoirResultats handles RecevoirResultats.
func (a *Application) RecevoirResultats(ctx context.Context, c RecevoirResultats) error {
	return a.executer(ctx, c.Epreuve, func(e *federation.Epreuve) error { return e.Recevoir(c.Resultats, c.Origine, c.Empreinte) })
}

func (a *Application) executer(ctx context.Context, id string, f func(*federation.Epreuve) error) error {
	return executer[*federation.Epreuve](ctx, a.Epreuves, id, a.metadata, f)
}

// executer runs a command on an aggregate (aggregate.Run), the commands on
// one aggregate one at a time in this process (verrous).
func executer[A repository.Aggregate](ctx context.Context, d Depot[A], id string, md eventstore.Metadata, f func(A) error) error {
	var zero A
	defer verrous.prendre(fmt.Sprintf("%T/%s", zero, id))()
	_, err := aggregate.Run(ctx, d, id, md, f)
	return err
}

// verrous serializes, within this process, the commands on one aggregate:
// the centres of a national event sending their results in the same
// seconds wait for each other instead of making each other's save fail
// (150 centres within a minute: 110 refused with CONFLICT after 5
// attempts each, `arbitre charge national`, issue 34 item 2).
var verrous = &parCle{m: map[string]*verrou{}}

// parCle is a mutex per key, kept while someone holds or waits for it.
type parCle struct {
	mu sync.Mutex
	m  map[string]*verrou
}

type verrou struct {
	sync.Mutex
	n int // holders and waiters, guarded by parCle.mu
}

// prendre locks cle and returns its unlock.
func (p *parCle) prendre(cle string) func() {
	p.mu.Lock()
	v := p.m[cle]
	if v == nil {
		v = &verrou{}
		p.m[cle] = v
	}
	v.n++
	p.mu.Unlock()
	v.Lock()
	return func() {
		v.Unlock()
		p.mu.Lock()
		if v.n--; v.n == 0 {
			delete(p.m, cle)
		}
		p.mu.Unlock()
	}
}
