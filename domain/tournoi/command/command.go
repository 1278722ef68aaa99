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
type Creer struct {
	Tournoi   string
	Nom       string
	Homologue bool
}

// Creer handles Creer.
func (a *Application) Creer(ctx context.Context, c Creer) error {
	return a.modifier(ctx, c.Tournoi, func(t *tournoi.Tournoi) error { return t.Creer(c.Tournoi, c.Nom, c.Homologue) })
}

// Inscrire registers a player.
type Inscrire struct {
	Tournoi string
	Joueur  tournoi.Joueur
}

// Inscrire handles Inscrire.
func (a *Application) Inscrire(ctx context.Context, c Inscrire) error {
	return a.modifier(ctx, c.Tournoi, func(t *tournoi.Tournoi) error { return t.Inscrire(c.Joueur) })
}

// InscrireTous registers a list of players, all or none.
type InscrireTous struct {
	Tournoi string
	Joueurs []tournoi.Joueur
}

// InscrireTous handles InscrireTous.
func (a *Application) InscrireTous(ctx context.Context, c InscrireTous) error {
	return a.modifier(ctx, c.Tournoi, func(t *tournoi.Tournoi) error { return t.InscrireTous(c.Joueurs) })
}

// AjouterPartie adds a game to the tournament.
type AjouterPartie struct {
	Tournoi string
	Partie  string
}

// AjouterPartie handles AjouterPartie.
func (a *Application) AjouterPartie(ctx context.Context, c AjouterPartie) error {
	return a.modifier(ctx, c.Tournoi, func(t *tournoi.Tournoi) error { return t.AjouterPartie(c.Partie) })
}

// Exclure excludes a player from the tournament's other games and, when
// AnnulerParties, annuls his earlier ones (§6.1).
type Exclure struct {
	Tournoi        string
	Licence        string
	Partie         string
	Motif          string
	AnnulerParties bool
}

// Exclure handles Exclure.
func (a *Application) Exclure(ctx context.Context, c Exclure) error {
	return a.modifier(ctx, c.Tournoi, func(t *tournoi.Tournoi) error { return t.Exclure(c.Licence, c.Partie, c.Motif, c.AnnulerParties) })
}

// FixerNombreParties sets or, with a reason, changes the number of games
// of the competition (§6.3).
type FixerNombreParties struct {
	Tournoi string
	Nombre  int
	Motif   string
}

// FixerNombreParties handles FixerNombreParties.
func (a *Application) FixerNombreParties(ctx context.Context, c FixerNombreParties) error {
	return a.modifier(ctx, c.Tournoi, func(t *tournoi.Tournoi) error { return t.FixerNombreParties(c.Nombre, c.Motif) })
}
