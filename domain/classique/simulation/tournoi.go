package simulation

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
)

// Config describes a simulated tournament.
type Config struct {
	Tournoi string
	Joueurs int
	Rondes  int
	Seed    uint64
	// Workers play the games of a round in parallel (at least 1); the
	// events are saved in table order whatever the number.
	Workers int
	// Lot is the number of matches saved in one transaction (default
	// LotParDefaut), in table order.
	Lot          int
	Comportement Comportement
}

// LotParDefaut is the number of matches a simulation saves at once: one
// commit (one fsync) for 50 matches of about 57 events instead of one per
// match, while the robots play on (docs/charge.md).
const LotParDefaut = 50

// Bilan summarises a simulation.
type Bilan struct {
	Parties    int
	Exempts    int
	Evenements int
	Fins       map[matchclassique.Fin]int
	// Recherches is the number of searches for the top the robots made:
	// the turns where a move was considered (not a pass or an exchange
	// drawn whatever the rack).
	Recherches int
}

// Simuler plays a whole classique tournament through the aggregates and
// saves every event in store: registration with random cotes (a fifth of
// the players without one), seeding, round 1 by cote then Swiss rounds, each
// round from the software's proposal, every game played by robots and its
// feuille de match copied into the tournament, then the closing.
func Simuler(ctx context.Context, store eventstore.Store, lex *lexicon.Lexicon, cfg Config) (Bilan, error) {
	bilan := Bilan{Fins: map[matchclassique.Fin]int{}}
	if cfg.Joueurs < 2 || cfg.Rondes < 1 {
		return bilan, fmt.Errorf("simulation: %d players and %d rounds", cfg.Joueurs, cfg.Rondes)
	}
	reg, err := adapters.Registre()
	if err != nil {
		return bilan, err
	}
	regles, err := matchclassique.NewRegles(lex)
	if err != nil {
		return bilan, err
	}
	matches := adapters.NewMatchs(store, reg, regles)
	tournois := adapters.NewTournois(store, reg)
	md := eventstore.Metadata{Actor: "simulation", Role: "directeur"}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0))

	t := tournoiclassique.Nouveau()
	err = t.Ouvrir(cfg.Tournoi, "Tournoi simulé", cfg.Rondes, tournoiclassique.ConfigParDefaut())
	if err != nil {
		return bilan, err
	}
	for i := range cfg.Joueurs {
		c := 0
		if rng.IntN(5) > 0 {
			c = 300 + rng.IntN(1700)
		}
		if err := t.Inscrire(fmt.Sprintf("J%04d", i+1), "", c); err != nil {
			return bilan, err
		}
	}
	if err := t.EtablirTetesDeSerie(); err != nil {
		return bilan, err
	}
	workers := max(cfg.Workers, 1)
	robots := make([]*Robot, workers)
	for i := range robots {
		robots[i] = NewRobot(lex, cfg.Comportement)
	}
	// The last batch of a round is saved while the results are copied and
	// the next round is paired; the tournament's save waits for it, so the
	// store receives every round's matches before what follows them.
	dernierLot := make(chan error, 1)
	dernierLot <- nil
	var enCours sync.WaitGroup
	defer enCours.Wait() // no save outlives the simulation, even a failed one
	for r := 1; r <= cfg.Rondes; r++ {
		method := pairing.Swiss
		if r == 1 {
			method = pairing.InitialByCote
		}
		if err := t.Proposer(method, false); err != nil {
			return bilan, err
		}
		if err := t.Publier(); err != nil {
			return bilan, err
		}
		pub := t.Publiees()[r-1]
		if pub.Exempt != "" {
			bilan.Exempts++
		}
		if err := errors.Join(<-dernierLot, tournois.Enregistrer(ctx, t, md)); err != nil {
			return bilan, err
		}
		sauver := func(lot []*matchclassique.Match) error { return matches.EnregistrerLot(ctx, lot, md) }
		parties, reste, err := jouerRonde(regles, robots, cfg, pub, sauver)
		if err != nil {
			return bilan, err
		}
		enCours.Go(func() { dernierLot <- sauver(reste) })
		lot := make([]tournoiclassique.FeuilleDeMatch, len(parties))
		for i, p := range parties {
			f, _ := p.Feuille()
			lot[i] = tournoiclassique.FeuilleDeMatch{Match: pub.Tables[i].Match, Feuille: f}
			bilan.Parties++
			bilan.Evenements += p.Version()
			bilan.Fins[f.Fin]++
		}
		if err := t.EnregistrerResultats(lot); err != nil {
			return bilan, err
		}
	}
	for _, robot := range robots {
		bilan.Recherches += robot.recherches
	}
	if err := t.Clore(); err != nil {
		return bilan, err
	}
	bilan.Evenements += t.Version()
	if err := <-dernierLot; err != nil {
		return bilan, err
	}
	return bilan, tournois.Enregistrer(ctx, t, md)
}

// jouerRonde plays the tables of a round on the robots, each game with its
// own source derived from the seed, round and table, and saves the games in
// batches of cfg.Lot consecutive tables, each as soon as its games are
// played: the store receives them in table order and in the same batches
// whatever the number of robots, while the robots play on (a save, one
// transaction written to disk, overlaps play). The last batch, reste, is
// left to the caller, to save while it pairs the next round.
func jouerRonde(regles *matchclassique.Regles, robots []*Robot, cfg Config, pub tournoiclassique.RondePubliee, sauver func([]*matchclassique.Match) error) (parties, reste []*matchclassique.Match, err error) {
	parties = make([]*matchclassique.Match, len(pub.Tables))
	errs := make([]error, len(pub.Tables))
	joues := make([]chan struct{}, len(pub.Tables))
	for i := range joues {
		joues[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for _, robot := range robots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				parties[i], errs[i] = jouerTable(regles, robot, cfg, pub.Ronde, pub.Tables[i])
				close(joues[i])
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range pub.Tables {
			next <- i
		}
	}()
	taille := cfg.Lot
	if taille < 1 {
		taille = LotParDefaut
	}
	debut := 0
	for i := range pub.Tables {
		<-joues[i]
		if err == nil {
			err = errs[i]
		}
		if fin := i + 1; err == nil && fin-debut == taille && fin < len(pub.Tables) {
			err = sauver(parties[debut:fin])
			debut = fin
		}
	}
	wg.Wait()
	return parties, parties[debut:], err
}

func jouerTable(regles *matchclassique.Regles, robot *Robot, cfg Config, r int, tb tournoiclassique.Table) (*matchclassique.Match, error) {
	p := matchclassique.Nouveau(regles)
	err := p.Creer(matchclassique.Creation{Match: tb.Match, Tournoi: cfg.Tournoi, Ronde: r, Table: tb.Numero,
		Joueurs: [2]string{tb.Premier, tb.Second}, Premier: tb.Premier})
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(r)<<32|uint64(tb.Numero)))
	if err := robot.Jouer(p, rng); err != nil {
		return nil, fmt.Errorf("match %s: %w", tb.Match, err)
	}
	if _, ok := p.Feuille(); !ok {
		return nil, fmt.Errorf("match %s did not end", tb.Match)
	}
	return p, nil
}
