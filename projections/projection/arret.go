package projection

import (
	"context"
	"errors"
	"fmt"
)

// Arret is a parked projection: it stopped before the event at Position,
// which it failed to apply with Erreur (or, when the failure was not about
// one event, at its checkpoint Position), and applies nothing more until
// it resumes (Reprendre) or the server restarts.
type Arret struct {
	Nom      string `json:"nom"`
	Position uint64 `json:"position"`
	Erreur   string `json:"erreur"`
}

func (a *Arret) Error() string {
	return fmt.Sprintf("projection %s arrêtée à la position %d : %s", a.Nom, a.Position, a.Erreur)
}

// Arret returns why the projection is parked, nil while it runs.
func (r *Runner) Arret() *Arret { return r.arret.Load() }

// arretSur is where err stops the projection: the event that failed when
// err is an *ApplyError, the checkpoint otherwise (positions are opaque:
// the next one is not computed).
func (r *Runner) arretSur(err error) *Arret {
	a := &Arret{Nom: r.proj.Name(), Position: r.Position(), Erreur: err.Error()}
	var applyErr *ApplyError
	if errors.As(err, &applyErr) {
		a.Position = applyErr.Position
	}
	return a
}

// Garer parks the projection after err, logged once, and tells whether it
// was running until then. Waiters (Attendre) are woken and told.
func (r *Runner) Garer(err error) bool {
	a := r.arretSur(err)
	if !r.arret.CompareAndSwap(nil, a) {
		return false
	}
	r.Log.Error("projection arrêtée : elle n'applique plus rien jusqu'à sa reprise, et ses lectures répondent UNAVAILABLE", "projection", a.Nom, "position", a.Position, "erreur", a.Erreur)
	r.reveiller()
	return true
}

// Reprendre tries a parked projection again: it catches up from its
// checkpoint, as at start-up, while the live messages wait, and runs
// again once it holds every stored event. On failure it stays parked,
// where the failure stopped it now, and the error is returned. It returns
// how many events it applied.
func (r *Runner) Reprendre(ctx context.Context) (int, error) {
	r.applique.Lock()
	defer r.applique.Unlock()
	n, err := r.CatchUp(ctx, nil)
	if err != nil {
		if ctx.Err() == nil {
			r.arret.Store(r.arretSur(err))
		}
		return n, err
	}
	r.arret.Store(nil)
	r.reveiller()
	return n, nil
}
