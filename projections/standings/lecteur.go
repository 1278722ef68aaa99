package standings

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// maxEntrees bounds the standings kept; beyond it an entry is dropped (and
// read again when asked for).
const maxEntrees = 1024

// Lecteur serves standings from the projection and keeps each answer until
// the projection moves on: a hall full of displays and 200 queries a second
// cost one fold per change, not one per request. Only standings with lines
// are kept, at most maxEntrees: an id a client names keeps no memory past
// its request unless its game or tournament exists. It is safe for
// concurrent use.
type Lecteur struct {
	db *sql.DB
	// position is how far the projection has applied the log (the runner's
	// Position): an answer read at or after it is current.
	position func() uint64
	mu       sync.Mutex
	entrees  map[string]*entree
}

type entree struct {
	mu       sync.Mutex
	valide   bool
	position uint64
	lignes   []Ligne
}

// NewLecteur returns a reader over the projection database db.
func NewLecteur(db *sql.DB, position func() uint64) *Lecteur {
	return &Lecteur{db: db, position: position, entrees: map[string]*entree{}}
}

// Partie returns the standings of one game as r sees them (see LirePartie).
func (l *Lecteur) Partie(ctx context.Context, partie string, r Regard) ([]Ligne, error) {
	return l.lire(fmt.Sprintf("partie/%d/%s", r, partie), func() ([]Ligne, error) { return LirePartie(ctx, l.db, partie, r) })
}

// Cumul returns the cumulated standings of a tournament as r sees them (see
// LireCumul).
func (l *Lecteur) Cumul(ctx context.Context, tournoi string, r Regard) ([]Ligne, error) {
	return l.lire(fmt.Sprintf("tournoi/%d/%s", r, tournoi), func() ([]Ligne, error) { return LireCumul(ctx, l.db, tournoi, r) })
}

// lire answers from the cache when it is as recent as the projection, and
// otherwise reads once while concurrent askers of the same key wait. The
// position is taken before reading, so the lines read are at least that
// recent. Errors and empty standings are not kept.
func (l *Lecteur) lire(cle string, read func() ([]Ligne, error)) ([]Ligne, error) {
	pos := l.position()
	l.mu.Lock()
	e := l.entrees[cle]
	if e == nil {
		for autre := range l.entrees {
			if len(l.entrees) < maxEntrees {
				break
			}
			delete(l.entrees, autre)
		}
		e = &entree{}
		l.entrees[cle] = e
	}
	l.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.valide && e.position >= pos {
		return e.lignes, nil
	}
	lignes, err := read()
	if err != nil || len(lignes) == 0 {
		l.oublier(cle, e)
		return lignes, err
	}
	e.valide, e.position, e.lignes = true, pos, lignes
	return lignes, nil
}

// oublier drops the entry e of cle, unless another has replaced it.
func (l *Lecteur) oublier(cle string, e *entree) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.entrees[cle] == e {
		delete(l.entrees, cle)
	}
}
