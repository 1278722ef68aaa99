package projection

import (
	"context"
	"time"

	"arbitre/domain/eventstore"
)

// pointAtteint is the checkpoint a runner reached past the one its
// database holds by passing events its projection does not read (passer).
type pointAtteint struct {
	checkpoint
	// passes is how many events it passed since its last write, the first
	// of them at depuis.
	passes int
	depuis time.Time
}

// passageMax bounds how far a runner passes events without writing its
// checkpoint: at most events of them, for at most duree. A runner stopped
// without writing it (a crash) folds again at its restart, from the
// checkpoint in its database, the events it passed: at most one page of
// its catch-up (eventstore.PageSize), which costs it one read and one
// transaction more. And while the log moves, the checkpoint the database
// holds, which the restart's tamper check (Prolonge) and store verify's
// anchors read, is never more than a second behind the runner. In the
// hall's bulletin phase (2,400 bulletins in about 1.2 s) that is two or
// three writes a read model instead of one a batch.
var passageMax = struct {
	events int
	duree  time.Duration
}{eventstore.PageSize, time.Second}

// passer passes lot, live, without a transaction when the runner's
// projection reads none of the events it holds after the runner's
// position (Selectif; issue 34: six of serve's nine read models read no
// bulletin, yet each opened a transaction and wrote its checkpoint for
// every batch of the hall's bulletin phase): the runner then keeps in
// memory the checkpoint it reached (atteint), which its next batch starts
// from and writes with its own, as does a clean stop (Consigner), or the
// batch that would pass more than passageMax. It checks their links with
// the chain, as its batch would (a link the read-ahead checked against
// the hash it starts from is not hashed again): an altered event is left
// to the batch, which stops right before it. It passes nothing when the
// runner does not know the checkpoint its database holds (at start-up,
// after a reset or a failed batch): that batch reads it. It tells whether
// it passed lot.
func (r *Runner) passer(lot []Decoded) bool {
	s, ok := r.proj.(Selectif)
	g := r.pointGarde.Load()
	if !ok || g == nil {
		return false
	}
	depart := pointAtteint{checkpoint: *g, depuis: time.Now()}
	if a := r.atteint.Load(); a != nil {
		depart = *a
	}
	todo := apres(lot, depart.position)
	if len(todo) == 0 || depart.passes+len(todo) > passageMax.events || time.Since(depart.depuis) >= passageMax.duree {
		return false
	}
	for _, e := range todo {
		if s.Lit(e.Type) {
			return false
		}
	}
	if verifierDepuis(depart.hash, todo, r.controlePropre()) != nil {
		return false
	}
	dernier := todo[len(todo)-1]
	r.atteint.Store(&pointAtteint{checkpoint: checkpoint{position: dernier.Position, hash: dernier.Hash, magasin: r.identity},
		passes: depart.passes + len(todo), depuis: depart.depuis})
	r.avancer(dernier.Position)
	return true
}

// Consigner writes the checkpoint the runner reached past the one its
// database holds (passer), if any, in one transaction: a clean stop of the
// pipeline does, so that the next start-up folds nothing again.
func (r *Runner) Consigner(ctx context.Context) error {
	r.applique.Lock()
	defer r.applique.Unlock()
	if r.atteint.Load() == nil {
		return nil
	}
	_, err := r.applyTx(ctx, nil, sansChaine, nil, false)
	return err
}

// reculer brings the runner's position back to the checkpoint its
// database holds, when another runner of its read model moved it while
// the runner had passed events past the one it kept
// (TestIssue34_PointAtteintDontLaBaseAChange): the runner no longer
// knows where it stands past it, and the message after it catches up from
// the store (Recevoir). A failed read leaves it: the batch fails, and the
// runner parks and resumes from the database (Reprendre).
func (r *Runner) reculer(ctx context.Context) {
	if cp, err := readCheckpoint(ctx, r.db, r.proj.Name()); err == nil {
		r.position.Store(min(cp.position, r.position.Load()))
		r.reveiller()
	}
}
