package command

import (
	"context"
	"errors"

	"arbitre/domain/appel"
	"arbitre/domain/appel/query"
	"arbitre/domain/eventstore"
)

// Reprendre completes the decisions a crash left half written: recorded in
// the appeal's stream but not carried into the game, or carried and not
// marked applied. Each is carried in the name of whoever decided it (the
// metadata of its appel.decision_rendue event); the game records a
// decision once, so running it again changes nothing. serve runs it at
// start; app only needs its repositories (its actor is replaced).
func Reprendre(ctx context.Context, journal eventstore.Reader, reg *eventstore.Registry, app *Application) error {
	x, err := query.Reconstruire(ctx, journal, reg)
	if err != nil {
		return err
	}
	lecteur := query.NewLecteur(journal, reg)
	var errs []error
	for _, r := range x.EnAttente() {
		v, err := lecteur.Appel(ctx, r.Objet.Tournoi, r.ID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, app.Par(decideur(v)).AppliquerDecision(ctx, AppliquerDecision{Tournoi: r.Objet.Tournoi, Appel: r.ID}))
	}
	return errors.Join(errs...)
}

// decideur is who recorded the appeal's last decision.
func decideur(v query.Vue) eventstore.Metadata {
	for i := len(v.Historique) - 1; i >= 0; i-- {
		if e := v.Historique[i]; e.Type == appel.TypeDecisionRendue {
			return eventstore.Metadata{Actor: e.Acteur, Role: e.Role, CorrelationID: e.Correlation}
		}
	}
	return eventstore.Metadata{}
}
