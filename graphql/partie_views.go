package graphql

import (
	"container/list"
	"context"
	"sync"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/streamname"
	"arbitre/graphql/model"
	"arbitre/projections/parties"
)

// maxVues bounds the games whose views are kept: beyond it the least
// recently read game is dropped (and read again from the projection if
// asked for).
const maxVues = 512

// partieVues keeps each game's public view as read from the parties
// projection, with the position of the game's last event: a hall of
// displays costs one small read per change of the projection, not one
// read per screen, and the view's bytes are read again only when the game
// changed. Views are immutable once built. Only games that exist get an
// entry, and at most max (maxVues when zero) are kept, least recently read
// first out: no id a client names allocates memory that outlives its
// request unless the game exists.
type partieVues struct {
	mu      sync.Mutex
	max     int
	entrees map[string]*list.Element // of *partieVue
	recence list.List                // most recently read first
}

type partieVue struct {
	id string
	mu sync.Mutex
	// lu is the projection's position when the view was last checked,
	// position the game's last event's.
	lu, position uint64
	vue          *model.Partie
}

// trouver returns the kept entry of id, marking it as the most recently
// read, or nil.
func (v *partieVues) trouver(id string) *partieVue {
	v.mu.Lock()
	defer v.mu.Unlock()
	el := v.entrees[id]
	if el == nil {
		return nil
	}
	v.recence.MoveToFront(el)
	return el.Value.(*partieVue)
}

// garder keeps e (a game that exists) unless another request kept one for
// the same id first, which it returns instead; the least recently read
// entries beyond the bound are dropped.
func (v *partieVues) garder(e *partieVue) *partieVue {
	v.mu.Lock()
	defer v.mu.Unlock()
	if el := v.entrees[e.id]; el != nil {
		v.recence.MoveToFront(el)
		return el.Value.(*partieVue)
	}
	if v.entrees == nil {
		v.entrees = map[string]*list.Element{}
	}
	v.entrees[e.id] = v.recence.PushFront(e)
	limite := v.max
	if limite <= 0 {
		limite = maxVues
	}
	for v.recence.Len() > limite {
		ancien := v.recence.Back()
		v.recence.Remove(ancien)
		delete(v.entrees, ancien.Value.(*partieVue).id)
	}
	return e
}

// dePartie matches the streams of game id: its own and its tables'
// (eventstore.TableStream).
func dePartie(id string) func(stream string) bool {
	return func(stream string) bool {
		kind, partie, err := streamname.ParseStream(stream)
		return err == nil && kind == streamname.KindPartie && partie == id
	}
}

// vue returns the view of game id once the parties projection has applied
// the event at position pos, or (pos 0) every event recorded when the
// request arrived, waiting as long as ctx may last (attendreRunner): a
// client reads its own writes. The view itself is read without ctx's
// cancellation: it is shared by every request of the game.
func (r *Resolver) vue(ctx context.Context, id string, pos uint64) (*model.Partie, error) {
	if _, err := streamname.PartieStream(id); err != nil {
		return nil, &erreur.Erreur{Code: duplicate.CodeNotFound, Message: "identifiant de partie invalide", Err: err}
	}
	if err := r.attendreRunner(ctx, r.PartiesRunner, pos); err != nil {
		return nil, err
	}
	ctx = context.WithoutCancel(ctx)
	lu := r.PartiesRunner.Position()
	e := r.vues.trouver(id)
	if e == nil {
		// Read privately first: an unknown game leaves nothing behind.
		nouvelle := &partieVue{id: id}
		if err := r.relire(ctx, nouvelle, lu); err != nil {
			return nil, err
		}
		e = r.vues.garder(nouvelle)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lu < lu {
		if err := r.relire(ctx, e, lu); err != nil {
			return nil, err
		}
	}
	return e.vue, nil
}

// relire brings e up to the projection at position lu; the caller owns e
// (its lock, or e is not shared yet).
func (r *Resolver) relire(ctx context.Context, e *partieVue, lu uint64) error {
	v, position, err := parties.Lire(ctx, r.Projections, e.id, e.position)
	if err != nil {
		return err
	}
	if v != nil {
		e.vue, e.position = modelePartie(v), position
	}
	e.lu = lu
	return nil
}
