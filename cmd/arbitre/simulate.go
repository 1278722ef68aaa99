package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
	tadapters "arbitre/domain/tournoi/adapters"
	tcommand "arbitre/domain/tournoi/command"
	"arbitre/engine/correction"
	"arbitre/projections/standings"
)

func init() {
	var (
		flags            storeflags.Flags
		lexPath          string
		joueurs, parties int
		graine           uint64
	)
	duplicateCmd := &cobra.Command{
		Use:     "duplicate --players N --games G --seed S --data DOSSIER",
		Short:   "Joue tout un tournoi duplicate : tirages du logiciel, tops du moteur, bulletins corrigés, classement",
		Example: "  arbitre simulate duplicate --players 300 --games 3 --seed 7 --data data",
		Args:    aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSimulateDuplicate(cmd, &flags, lexPath, joueurs, parties, graine)
		},
	}
	flags.AddFlags(duplicateCmd)
	lexiconFlag(duplicateCmd, &lexPath)
	duplicateCmd.Flags().IntVar(&joueurs, "players", 300, "nombre de joueurs")
	duplicateCmd.Flags().IntVar(&parties, "games", 1, "nombre de parties")
	duplicateCmd.Flags().Uint64Var(&graine, "seed", 1, "graine de test des tirages (le tournoi simulé est de test, non homologué) et des réponses des joueurs")
	simulateCmd.AddCommand(duplicateCmd)
	rootCmd.AddCommand(simulateCmd)
}

func runSimulateDuplicate(cmd *cobra.Command, flags *storeflags.Flags, lexPath string, nJoueurs, nParties int, graine uint64) error {
	ctx := cmd.Context()
	if nJoueurs < 1 || nParties < 1 {
		return fmt.Errorf("--players et --games valent au moins 1")
	}
	debut := time.Now()
	flags.Init = true // a simulation makes its store
	ws, err := openWorkspace(ctx, flags, []string{lexPath})
	if err != nil {
		return err
	}
	defer ws.store.Close()
	id := fmt.Sprintf("sim-%d", graine)
	licences := make([]string, nJoueurs)
	for i := range licences {
		licences[i] = fmt.Sprintf("%06d", i+1)
	}
	bar := newProgression(cmd.OutOrStdout(), "simulate duplicate")
	avant := 0 // events of the games already played
	t := tournoiSimule{id: id, nom: fmt.Sprintf("Tournoi simulé (graine %d)", graine), licences: licences, parties: nParties,
		graineTirages: func(g int) uint64 { return graine*1000 + uint64(g) }}
	t.graineJoueurs = t.graineTirages
	err = jouerTournoiSimule(ctx, &ws, t, fmt.Sprintf("simulation-%d", graine), func(g int, p *duplicate.Partie, fini bool) {
		if !fini {
			bar.avancer(avant+p.Version(), (float64(g-1)+min(1, float64(p.ProchainCoup()-1)/coupsParPartie))/float64(nParties))
			return
		}
		bar.terminer()
		avant += p.Version()
		top, coups := 0, 0
		for c := 1; c < p.ProchainCoup(); c++ {
			if t, ok := p.Top(c); ok {
				top += t.Score
				coups++
			}
		}
		fmt.Fprintf(cmd.OutOrStdout(), "partie %s : %d coups, top %d, fin : %s, %d événements\n", p.ID(), coups, top, p.Fin().Motif.Libelle(), p.Version())
	})
	if err != nil {
		return err
	}
	cl, err := standings.Reconstruire(ctx, ws.store, ws.registry)
	if err != nil {
		return err
	}
	lignes, err := cl.Cumul()
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintln(out, "rang  licence  score   top  négatif      %  solos  pénalités")
	for _, l := range lignes[:min(10, len(lignes))] {
		fr.Fprintf(out, "%4d  %7s  %5d  %4d  %7d  %6.2f  %5d  %9d\n", l.Rang, l.Licence, l.Score, l.Top, l.Negatif, l.Pourcentage, l.Solos, l.Penalites)
	}
	fmt.Fprintf(out, "bulletins corrigés par engine/correction (%s) ; durée %s\n", correction.EngineVersion, duree(time.Since(debut)))
	return nil
}

// coupsParPartie is about how many coups a simulated game has (20 to 27
// on the shipped list).
const coupsParPartie = 24

// tournoiSimule is a duplicate tournament to simulate: its players (named
// after their rank, in 7 séries, placed 4 to a table), its games, and the
// seeds of each game's tirages and of its players' answers.
type tournoiSimule struct {
	id, nom                      string
	licences                     []string
	parties                      int
	graineTirages, graineJoueurs func(g int) uint64
}

// jouerTournoiSimule writes a friendly tournament and plays its games into the
// workspace's store (software draws of a test seed, the engine's tops,
// every player's bulletin corrected); suivre is told of each step of a
// game, and of its end (fini).
func jouerTournoiSimule(ctx context.Context, ws *workspace, t tournoiSimule, correlation string, suivre func(g int, p *duplicate.Partie, fini bool)) error {
	md := eventstore.Metadata{Actor: "simulation", Role: "directeur", CorrelationID: correlation}
	tournois := tcommand.New(tadapters.NewDepot(ws.store, ws.registry), md)
	if err := tournois.Creer(ctx, tcommand.Creer{Tournoi: t.id, Nom: t.nom}); err != nil {
		return fmt.Errorf("tournoi %s (déjà simulé dans ce dossier ?) : %w", t.id, err)
	}
	joueurs := make([]tournoi.Joueur, len(t.licences))
	for i, licence := range t.licences {
		table, arbitre := simulation.Placement(i)
		joueurs[i] = tournoi.Joueur{Licence: licence, Nom: fmt.Sprintf("Joueur %d", i+1), Club: fmt.Sprintf("Club %d", i%20+1),
			Federation: "FFSc", Serie: fmt.Sprint(min(7, 1+i*7/len(t.licences))), Table: table, Arbitre: arbitre}
	}
	if err := tournois.InscrireTous(ctx, tcommand.InscrireTous{Tournoi: t.id, Joueurs: joueurs}); err != nil {
		return err
	}
	for g := 1; g <= t.parties; g++ {
		if err := tournois.AjouterPartie(ctx, tcommand.AjouterPartie{Tournoi: t.id, Partie: fmt.Sprintf("%s-%d", t.id, g)}); err != nil {
			return err
		}
	}
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel}
	sim := simulation.New(ws.lexiques.Defaut(), cfg)
	depot := adapters.NewDepot(ws.store, ws.registry, sim.Moteur())
	for g := 1; g <= t.parties; g++ {
		graineTest := t.graineTirages(g)
		cfg.GraineTest = &graineTest
		def := simulation.Partie{ID: fmt.Sprintf("%s-%d", t.id, g), Tournoi: t.id, Numero: g, Config: cfg, Joueurs: t.licences, Graine: t.graineJoueurs(g)}
		p, err := sim.Jouer(def, func(p *duplicate.Partie) error {
			suivre(g, p, false)
			return depot.Enregistrer(ctx, p, md)
		})
		if err != nil {
			return err
		}
		suivre(g, p, true)
	}
	return nil
}

// simulateCmd is the parent of `simulate duplicate` and `simulate classique`.
var simulateCmd = &cobra.Command{
	Use:     "simulate",
	Short:   "Simule des compétitions sous forme d'événements (démonstration, charge, test de bout en bout)",
	Example: "  arbitre simulate duplicate --players 300 --data data\n  arbitre simulate classique --players 200 --rounds 7 --data data",
}
