package standings

import (
	"context"
	"database/sql"
	"fmt"

	"arbitre/projections/projection"
)

// maxEntrees bounds the standings kept; beyond it the least recently read
// are dropped (and read again when asked for).
const maxEntrees = 1024

// Lecteur serves the standings from the projection, the read type of the
// standings read model: each answer is kept (projection.Memo) until the
// projection moves on, so a hall full of displays and 200 queries a second
// cost one fold per change, not one per request; only standings with lines
// are kept. It is safe for concurrent use.
type Lecteur struct {
	db   *sql.DB
	memo *projection.Memo[[]Ligne]
}

// NewLecteur returns the reader of the standings run's runner keeps.
func NewLecteur(run *projection.Runner) *Lecteur {
	return nouveauLecteur(run.Base(), run.Position)
}

// nouveauLecteur returns a reader of db, whose projection has applied the
// log up to position().
func nouveauLecteur(db *sql.DB, position func() uint64) *Lecteur {
	return &Lecteur{db: db, memo: projection.NewMemo[[]Ligne](position, maxEntrees)}
}

// Partie returns the standings of one game as r sees them.
func (l *Lecteur) Partie(ctx context.Context, partie string, r Regard) ([]Ligne, error) {
	return l.lire(fmt.Sprintf("partie/%d/%s", r, partie), func() ([]Ligne, error) { return lirePartie(ctx, l.db, partie, r) })
}

// Cumul returns the cumulated standings of a tournament as r sees them.
func (l *Lecteur) Cumul(ctx context.Context, tournoi string, r Regard) ([]Ligne, error) {
	return l.lire(fmt.Sprintf("tournoi/%d/%s", r, tournoi), func() ([]Ligne, error) { return lireCumul(ctx, l.db, tournoi, r) })
}

// Charger returns the fold of one tournament (every game's when tournoi is
// ""), rebuilt from the projection's facts: it answers Partie, Cumul and
// ParSerie with exactly the figures of the live fold. It is not kept.
func (l *Lecteur) Charger(ctx context.Context, tournoi string) (*Classement, error) {
	return charger(ctx, l.db, tournoi, "")
}

// lire answers cle from the memo; empty standings are not kept.
func (l *Lecteur) lire(cle string, read func() ([]Ligne, error)) ([]Ligne, error) {
	return l.memo.Lire(cle, func([]Ligne, bool) ([]Ligne, bool, error) {
		lignes, err := read()
		return lignes, len(lignes) > 0, err
	})
}
