package parties

import (
	"context"
	"database/sql"

	"arbitre/projections/projection"
)

// maxVues bounds the games whose views are kept: beyond it the least
// recently read game is dropped (and read again from the projection if
// asked for).
const maxVues = 512

// Lecteur serves the games' views from the projection, the read type of
// the games' views read model, as V, the view its reader shows (the API's
// model): each game's view is kept (projection.Memo) with the position of
// the game's last event, so a hall of displays costs one small read per
// change of the projection, not one read per screen, and the view's bytes
// are read and converted again only when the game changed. Kept views are
// shared: V must not be changed. Only games that exist are kept. It is
// safe for concurrent use.
type Lecteur[V any] struct {
	db      *sql.DB
	montrer func(*Vue) V
	memo    *projection.Memo[vueGardee[V]]
}

type vueGardee[V any] struct {
	vue      V
	position uint64
}

// NewLecteur returns the reader of the games' views run's runner keeps,
// shown by montrer; at most max views are kept (maxVues when zero).
func NewLecteur[V any](run *projection.Runner, montrer func(*Vue) V, max int) *Lecteur[V] {
	if max <= 0 {
		max = maxVues
	}
	return &Lecteur[V]{db: run.Base(), montrer: montrer, memo: projection.NewMemo[vueGardee[V]](run.Position, max)}
}

// Vue returns the view of game id; a game the projection does not hold is
// CodeNotFound.
func (l *Lecteur[V]) Vue(ctx context.Context, id string) (V, error) {
	g, err := l.memo.Lire(id, func(ancienne vueGardee[V], connue bool) (vueGardee[V], bool, error) {
		var depuis uint64
		if connue {
			depuis = ancienne.position
		}
		v, position, err := lire(ctx, l.db, id, depuis)
		if err != nil {
			return ancienne, false, err
		}
		if v != nil {
			return vueGardee[V]{vue: l.montrer(v), position: position}, true, nil
		}
		return ancienne, true, nil
	})
	return g.vue, err
}

// Gardees is the number of games whose views are kept.
func (l *Lecteur[V]) Gardees() int { return l.memo.Len() }

// Gardee tells whether the view of game id is kept.
func (l *Lecteur[V]) Gardee(id string) bool { return l.memo.Garde(id) }
