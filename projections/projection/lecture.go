package projection

import (
	"context"
	"database/sql"
)

// A read model is read the one way, whatever it is kept in: its runner is
// found by name (Lecture), its package's read type is built on the runner
// (standings.NewLecteur, parties.NewLecteur, historique.NewLecteur,
// classique.NewLecteurClassement, classique.NewLecteurCotes, and the read
// models in memory are their own), a read first brings it up to date
// through the runner (AJour), and the answers kept between reads are kept
// by Memo.

// LireDans makes the reads of the read models of runners query db (a pool
// of read-only connections to their database, OpenReadDB) instead of the
// runners' own connection, which applies the log meanwhile.
func LireDans(runners []*Runner, db *sql.DB) {
	for _, r := range runners {
		r.base = db
	}
}

// Base is the database the read model's reads query: the pool LireDans
// gave, else the runner's own.
func (r *Runner) Base() *sql.DB {
	if r.base != nil {
		return r.base
	}
	return r.db
}

// AJour brings the read model up to the event at position pos before a
// read: one in SQLite waits for the pipeline to apply it (Attendre), one in
// memory catches up with the log at once (Rattraper). A parked read model
// answers why it is parked.
func (r *Runner) AJour(ctx context.Context, pos uint64) error {
	if r.EnMemoire() {
		return r.Rattraper(ctx)
	}
	return r.Attendre(ctx, pos)
}
