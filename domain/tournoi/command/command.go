// Package command holds the tournament's use cases: load, decide, save.
package command

import (
	"context"

	"arbitre/domain/aggregate"
	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
)

// Depot is where tournaments live (adapters.Depot).
type Depot = aggregate.Repository[*tournoi.Tournoi]

// Application is the index of the tournament's use cases.
type Application struct {
	depot    Depot
	metadata eventstore.Metadata
	jeux     Jeux
}

// New returns the use cases; md tells who acts.
func New(depot Depot, md eventstore.Metadata) *Application {
	return &Application{depot: depot, metadata: md}
}

// modifier runs a command on a tournament (aggregate.Run).
func (a *Application) modifier(ctx context.Context, id string, f func(t *tournoi.Tournoi) error) error {
	_, err := aggregate.Run(ctx, a.depot, id, a.metadata, f)
	return err
}

// Creer opens a tournament, rated (homologué) or friendly.
func (a *Application) Creer(ctx context.Context, id, nom string, homologue bool) error {
	return a.modifier(ctx, id, func(t *tournoi.Tournoi) error { return t.Creer(id, nom, homologue) })
}

// Inscrire registers a player.
func (a *Application) Inscrire(ctx context.Context, id string, j tournoi.Joueur) error {
	return a.modifier(ctx, id, func(t *tournoi.Tournoi) error { return t.Inscrire(j) })
}

// InscrireTous registers a list of players, all or none.
func (a *Application) InscrireTous(ctx context.Context, id string, js []tournoi.Joueur) error {
	return a.modifier(ctx, id, func(t *tournoi.Tournoi) error { return t.InscrireTous(js) })
}

// AjouterPartie adds a game to the tournament.
func (a *Application) AjouterPartie(ctx context.Context, id, partie string) error {
	return a.modifier(ctx, id, func(t *tournoi.Tournoi) error { return t.AjouterPartie(partie) })
}

// Exclure excludes a player from the tournament's other games and, when
// annulerParties, annuls his earlier ones (§6.1).
func (a *Application) Exclure(ctx context.Context, id, licence, partie, motif string, annulerParties bool) error {
	return a.modifier(ctx, id, func(t *tournoi.Tournoi) error { return t.Exclure(licence, partie, motif, annulerParties) })
}

// FixerNombreParties sets or, with a reason, changes the number of games
// of the competition (§6.3).
func (a *Application) FixerNombreParties(ctx context.Context, id string, nombre int, motif string) error {
	return a.modifier(ctx, id, func(t *tournoi.Tournoi) error { return t.FixerNombreParties(nombre, motif) })
}
