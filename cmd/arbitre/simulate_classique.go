package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/cote"
	"arbitre/domain/classique/gcg"
	"arbitre/domain/classique/partie"
	"arbitre/domain/classique/ronde"
	"arbitre/domain/classique/simulation"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
	"arbitre/projections/classique"
	"arbitre/projections/projection"

	"github.com/spf13/cobra"
)

// init registers `simulate classique` under the `simulate` parent, which
// simulate.go creates (its init runs first, files being initialised in name
// order); the parent is created here only if that file is absent.
func init() {
	var parent *cobra.Command
	for _, c := range rootCmd.Commands() {
		if c.Name() == "simulate" {
			parent = c
		}
	}
	if parent == nil {
		parent = &cobra.Command{Use: "simulate", Short: "Simulate competitions as events (demo, load, end-to-end test)"}
		rootCmd.AddCommand(parent)
	}
	parent.AddCommand(newSimulateClassiqueCmd())
}

// simulateClassiqueOptions are the flags of `simulate classique`.
type simulateClassiqueOptions struct {
	store   storeFlags
	lexicon string
	players int
	rounds  int
	seed    uint64
	workers int
	gcgDir  string
	top     int
}

func newSimulateClassiqueCmd() *cobra.Command {
	var o simulateClassiqueOptions
	cmd := &cobra.Command{
		Use:   "classique --players N --rounds R --seed S --data DIR",
		Short: "Play a whole classique tournament with the engine: pairings, matches, contestations, standings, cotes",
		Long: `classique registers N players with random cotes, pairs round 1 by cote and the
next rounds Swiss from the software's proposal, plays every match with engine
players (greedy moves with occasional passes, exchanges, phonies and
contestations), records every event, then builds the standings and cote
projections in DIR and prints the top of the standings. The same seed gives
the same tournament.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSimulateClassique(cmd, &o) },
	}
	o.store.register(cmd)
	f := cmd.Flags()
	f.StringVar(&o.lexicon, "lexicon", "", "compiled lexicon or word list (default: the shipped non-ODS list)")
	f.IntVar(&o.players, "players", 200, "number of players")
	f.IntVar(&o.rounds, "rounds", 7, "number of rounds")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the cotes, draws and players' choices")
	f.IntVar(&o.workers, "workers", 2, "games played in parallel (the events do not depend on it)")
	f.StringVar(&o.gcgDir, "gcg", "", "directory to export every game as GCG (optional)")
	f.IntVar(&o.top, "top", 10, "standings lines to print")
	return cmd
}

func runSimulateClassique(cmd *cobra.Command, o *simulateClassiqueOptions) error {
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	start := time.Now()
	lex, err := loadLexicon(o.lexicon)
	if err != nil {
		return fmt.Errorf("simulate classique: %w", err)
	}
	store, _, err := o.store.openStore(ctx)
	if err != nil {
		return fmt.Errorf("simulate classique: %w", err)
	}
	defer store.Close()
	id := fmt.Sprintf("sim-%d", o.seed)
	bilan, err := simulation.Simuler(ctx, store, lex, simulation.Config{Tournoi: id, Joueurs: o.players, Rondes: o.rounds,
		Seed: o.seed, Workers: o.workers, Comportement: simulation.ComportementParDefaut()})
	if err != nil {
		return fmt.Errorf("simulate classique: %w", err)
	}
	played := time.Since(start)

	db, err := projection.OpenDB(o.store.projectionDBPath())
	if err != nil {
		return fmt.Errorf("simulate classique: %w", err)
	}
	defer db.Close()
	standings, err := classique.NewClassement()
	if err != nil {
		return err
	}
	cotes, err := classique.NewCotes(cote.DefaultElo())
	if err != nil {
		return err
	}
	for _, p := range []projection.Projection{standings, cotes} {
		runner, err := projection.NewRunner(ctx, db, p, store)
		if err != nil {
			return fmt.Errorf("simulate classique: %w", err)
		}
		if _, err := runner.CatchUp(ctx, nil); err != nil {
			return fmt.Errorf("simulate classique: %w", err)
		}
	}
	lignes, err := classique.Standings(ctx, db, id)
	if err != nil {
		return fmt.Errorf("simulate classique: %w", err)
	}
	ratings, err := classique.ListeCotes(ctx, db)
	if err != nil {
		return fmt.Errorf("simulate classique: %w", err)
	}
	nouvelles := map[string]int{}
	for _, c := range ratings {
		nouvelles[c.Joueur] = c.Cote
	}
	if o.gcgDir != "" {
		if err := exportGCG(ctx, o.gcgDir, lex, store, id); err != nil {
			return fmt.Errorf("simulate classique: %w", err)
		}
	}
	fmt.Fprintf(out, "tournoi %s: %d players, %d rounds, %d games, %d byes, %d events; endings %v\n",
		id, o.players, o.rounds, bilan.Parties, bilan.Exempts, bilan.Evenements, bilan.Fins)
	fmt.Fprintf(out, "%-4s %-6s %3s %4s %5s %5s %5s\n", "rang", "joueur", "PM", "PPM", "Pdep", "cote", "après")
	for _, l := range lignes[:min(o.top, len(lignes))] {
		fmt.Fprintf(out, "%-4d %-6s %3d %4d %5d %5d %5d\n", l.Rang, l.Joueur, l.PointsDeMatch, l.PPM, l.Pdep, l.Cote, nouvelles[l.Joueur])
	}
	fmt.Fprintf(out, "played and recorded in %s, total with standings and cotes %s\n", played.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}

// exportGCG writes one GCG file per match of the tournament.
func exportGCG(ctx context.Context, dir string, lex *lexicon.Lexicon, store eventstore.Store, id string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	reg := eventstore.NewRegistry()
	if err := partie.Register(reg); err != nil {
		return err
	}
	if err := ronde.Register(reg); err != nil {
		return err
	}
	t, err := adapters.NewTournois(store, reg).Charger(ctx, id)
	if err != nil {
		return err
	}
	regles, err := partie.NewRegles(lex)
	if err != nil {
		return err
	}
	matches := adapters.NewMatchs(store, reg, regles)
	for _, r := range t.Publiees() {
		for _, tb := range r.Tables {
			p, err := matches.Charger(ctx, tb.Match)
			if err != nil {
				return err
			}
			text, err := gcg.Export(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, tb.Match+".gcg"), []byte(text), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
