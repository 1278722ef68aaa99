package command

import (
	"context"

	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/idempotency"
)

// Jeux are what opening a game of the tournament needs besides the
// tournament: the duplicate games, read to check an id is not another
// tournament's game (duplicate/adapters.Depot) and created through their
// use case (duplicate/command.Application), and the cumul of the
// tournament's players a barrage separates.
type Jeux struct {
	Parties dupcommand.Depot
	App     *dupcommand.Application
	// Cumul is each player's cumul in the tournament, read from stored
	// facts, never the client's word (the director's standings).
	Cumul func(ctx context.Context, tournoi string) (map[string]int, error)
}

// AvecJeux returns the use cases opening the tournament's games with j
// (OuvrirPartie needs them).
func (a *Application) AvecJeux(j Jeux) *Application {
	b := *a
	b.jeux = j
	return &b
}

// OuvrirPartie opens game Partie of tournament Tournoi.
type OuvrirPartie struct {
	Tournoi, Partie string
	Config          duplicate.Config
	// Joueurs are the players a départage separates; none for a normal
	// game, which takes the tournament's participants.
	Joueurs  []string
	Arbitres []duplicate.ArbitreTables
}

// OuvrirPartie adds the game to the tournament and creates it, numbered
// after the tournament's games, with its players: the participants, the
// excluded left out (§6.1), or those a départage separates, a barrage's
// level on the cumul (guide §2.14). A test seed is refused in a rated
// tournament, and an id of another tournament's game.
func (a *Application) OuvrirPartie(ctx context.Context, c OuvrirPartie) error {
	lecture := idempotency.WithCommand(ctx, idempotency.Command{})
	t, err := a.depot.Charger(lecture, c.Tournoi)
	if err != nil {
		return err
	}
	if err := t.ExigerTirage(c.Config); err != nil {
		return err
	}
	if p, err := a.jeux.Parties.Charger(lecture, c.Partie); err == nil && p.Tournoi() != c.Tournoi {
		return erreur.Refus(erreur.CodeAlreadyExists, "La partie %s existe déjà dans un autre tournoi", c.Partie)
	}
	var cumul map[string]int
	if c.Config.Mode == duplicate.ModeBarrage {
		if cumul, err = a.jeux.Cumul(ctx, c.Tournoi); err != nil {
			return err
		}
	}
	joueurs, err := t.JoueursDePartie(c.Config.Mode, c.Joueurs, cumul)
	if err != nil {
		return err
	}
	if err := a.AjouterPartie(ctx, AjouterPartie{Tournoi: c.Tournoi, Partie: c.Partie}); err != nil {
		return err
	}
	return a.jeux.App.CreerPartie(ctx, dupcommand.CreerPartie{Partie: c.Partie, Tournoi: c.Tournoi, Numero: len(t.Parties()) + 1,
		Config: c.Config, Joueurs: joueurs, Arbitres: c.Arbitres})
}
