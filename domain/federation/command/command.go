// Package command holds the use cases of the events played in many
// centres (guide §2.17): load the event, run the aggregate's command, save
// its events with optimistic concurrency. The CLI (`arbitre centre ...`)
// calls only these handlers.
package command

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
)

// Depot is a repository of one of the federation's aggregates
// (adapters.Depot).
type Depot[A eventstore.Agregat] interface {
	Charger(ctx context.Context, id string) (A, error)
	Enregistrer(ctx context.Context, a A, md eventstore.Metadata) error
}

// Epreuves is where the events live (adapters.Epreuves).
type Epreuves = Depot[*federation.Epreuve]

// Application runs the federation's commands.
type Application struct {
	Epreuves Epreuves
}

// OuvrirEpreuve opens an event on a pre-drawn game of coups coups.
func (a Application) OuvrirEpreuve(ctx context.Context, id, nom string, coups int, md eventstore.Metadata) error {
	return a.executer(ctx, id, md, func(e *federation.Epreuve) error { return e.Ouvrir(id, nom, coups) })
}

// RecevoirResultats records a centre's results, as they came (online or
// as a file) with their fingerprint; the same fingerprint again records
// nothing.
func (a Application) RecevoirResultats(ctx context.Context, epreuve string, r federation.ResultatsCentre, origine federation.Origine,
	empreinte string, md eventstore.Metadata) error {
	return a.executer(ctx, epreuve, md, func(e *federation.Epreuve) error { return e.Recevoir(r, origine, empreinte) })
}

// Classement is the event's national ranking (§2.17.2–2.17.4).
func (a Application) Classement(ctx context.Context, epreuve string) (federation.National, error) {
	e, err := a.Epreuves.Charger(ctx, epreuve)
	if err != nil {
		return federation.National{}, err
	}
	if e.Version() == 0 {
		return federation.National{}, &federation.Erreur{Code: federation.CodeNotFound, Message: "l'épreuve " + epreuve + " n'existe pas"}
	}
	return e.Classement(), nil
}

func (a Application) executer(ctx context.Context, id string, md eventstore.Metadata, f func(*federation.Epreuve) error) error {
	return executer[*federation.Epreuve](ctx, a.Epreuves, id, md, f)
}

// tentatives bounds how often a command is decided again on the fresher
// aggregate when another writer saved first (the centres of a national
// event sending their results within the same minute, guide §2.17; two
// sites' links noticed at once, §2.18). A
// client that sent the version it saw gets the conflict instead.
const tentatives = 5

// executer loads an aggregate, runs a command on it and saves its new
// events; a retry of a command applied already does nothing. The commands
// on one aggregate run one at a time in this process (verrous); without a
// version from the client, a conflict on saving (a writer in another
// process, the command line) makes it decide again on the reloaded
// aggregate: the command re-checks every rule against it.
func executer[A eventstore.Agregat](ctx context.Context, d Depot[A], id string, md eventstore.Metadata, f func(A) error) error {
	var zero A
	defer verrous.prendre(fmt.Sprintf("%T/%s", zero, id))()
	for essai := 1; ; essai++ {
		err := essayer(ctx, d, id, md, f)
		if federation.CodeOf(err) != federation.CodeConflict || essai == tentatives || eventstore.CommandeDe(ctx).Version != nil {
			return err
		}
	}
}

func essayer[A eventstore.Agregat](ctx context.Context, d Depot[A], id string, md eventstore.Metadata, f func(A) error) error {
	agg, err := d.Charger(ctx, id)
	if errors.Is(err, eventstore.ErrDejaTraitee) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f(agg); err != nil {
		return err
	}
	if len(agg.Nouveaux()) == 0 {
		return nil
	}
	return d.Enregistrer(ctx, agg, md)
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
