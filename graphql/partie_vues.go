package graphql

import (
	"context"
	"sync"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/graphql/model"
)

// partieVues keeps each game's public view, replayed once and then brought
// up to date with only the events appended since: a hall of displays
// reading a 13,000-event game costs one small read per change, not one
// replay per screen. Views are immutable once built; the replayed game is
// private to its entry.
type partieVues struct {
	mu      sync.Mutex
	entrees map[string]*partieVue
}

type partieVue struct {
	mu     sync.Mutex
	partie *duplicate.Partie
	lus    int
	vue    *model.Partie
}

// vue returns the current view of game id.
func (r *Resolver) vue(ctx context.Context, id string) (*model.Partie, error) {
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: "identifiant de partie invalide", Err: err}
	}
	r.vues.mu.Lock()
	if r.vues.entrees == nil {
		r.vues.entrees = map[string]*partieVue{}
	}
	e := r.vues.entrees[id]
	if e == nil {
		e = &partieVue{}
		r.vues.entrees[id] = e
	}
	r.vues.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	for {
		page, err := r.Journal.ReadStream(ctx, stream, uint64(e.lus), eventstore.PageSize)
		if err != nil {
			return nil, err
		}
		if len(page) == 0 {
			break
		}
		if e.partie == nil {
			e.partie = duplicate.Nouvelle(r.Moteur)
		}
		for _, ev := range page {
			payload, err := r.Registry.Decode(ev)
			if err != nil {
				return nil, err
			}
			if err := e.partie.Appliquer(payload); err != nil {
				return nil, err
			}
			e.lus++
		}
		e.vue = nil
		if len(page) < eventstore.PageSize {
			break
		}
	}
	if e.partie == nil {
		return nil, &duplicate.Erreur{Code: duplicate.CodeNotFound, Message: "la partie " + id + " n'existe pas"}
	}
	if e.vue == nil {
		e.vue = vuePartie(e.partie)
	}
	return e.vue, nil
}
