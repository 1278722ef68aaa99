package graphql

import (
	"container/list"
	"context"
	"sync"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/graphql/model"
)

// maxVues bounds the games whose views are kept: beyond it the least
// recently read game is dropped (and replayed again if asked for).
const maxVues = 512

// partieVues keeps each game's public view, replayed once and then brought
// up to date with only the events appended since: a hall of displays
// reading a 13,000-event game costs one small read per change, not one
// replay per screen. Views are immutable once built; the replayed game is
// private to its entry. Only games that exist get an entry, and at most
// max (maxVues when zero) are kept, least recently read first out: no id a
// client names allocates memory that outlives its request unless the game
// exists.
type partieVues struct {
	mu      sync.Mutex
	max     int
	entrees map[string]*list.Element // of *partieVue
	recence list.List                // most recently read first
}

type partieVue struct {
	id     string
	mu     sync.Mutex
	partie *duplicate.Partie
	lus    int
	vue    *model.Partie
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

// vue returns the current view of game id.
func (r *Resolver) vue(ctx context.Context, id string) (*model.Partie, error) {
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: "identifiant de partie invalide", Err: err}
	}
	e := r.vues.trouver(id)
	if e == nil {
		// Replayed privately first: an unknown game leaves nothing behind.
		nouvelle := &partieVue{id: id}
		if err := r.rattraper(ctx, stream, nouvelle); err != nil {
			return nil, err
		}
		if nouvelle.partie == nil {
			return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: "la partie " + id + " n'existe pas"}
		}
		e = r.vues.garder(nouvelle)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := r.rattraper(ctx, stream, e); err != nil {
		return nil, err
	}
	if e.vue == nil {
		e.vue = vuePartie(e.partie)
	}
	return e.vue, nil
}

// rattraper applies to e the events of its stream it has not read yet; the
// caller owns e (its lock, or e is not shared yet).
func (r *Resolver) rattraper(ctx context.Context, stream string, e *partieVue) error {
	for {
		page, err := r.Journal.ReadStream(ctx, stream, uint64(e.lus), eventstore.PageSize)
		if err != nil {
			return err
		}
		if len(page) == 0 {
			return nil
		}
		if e.partie == nil {
			e.partie = duplicate.Nouvelle(r.Moteur)
		}
		for _, ev := range page {
			payload, err := r.Registry.Decode(ev)
			if err != nil {
				return err
			}
			if err := e.partie.Appliquer(payload); err != nil {
				return err
			}
			e.lus++
		}
		e.vue = nil
		if len(page) < eventstore.PageSize {
			return nil
		}
	}
}
