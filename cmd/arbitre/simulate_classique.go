package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/cpuprofile"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/catalogue"
	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/simulation"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
	"arbitre/projections/classique"
	"arbitre/projections/export"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// init registers `simulate classique` under the `simulate` parent, which
// simulate.go creates (its init runs first, files being initialised in name
// order); the parent is created here only if that file is absent.
func init() {
	simulateCmd.AddCommand(newSimulateClassiqueCmd())
}

// simulateClassiqueOptions are the flags of `simulate classique`.
type simulateClassiqueOptions struct {
	store   storeflags.Flags
	lexicon string
	players int
	rounds  int
	seed    uint64
	workers int
	lot     int
	gcgDir  string
	top     int
	profile string
}

func newSimulateClassiqueCmd() *cobra.Command {
	var o simulateClassiqueOptions
	cmd := &cobra.Command{
		Use:     "classique --players N --rounds R --seed S --data DOSSIER",
		Short:   "Joue tout un tournoi classique avec le moteur : appariements, matchs, contestations, classement, cotes",
		Example: "  arbitre simulate classique --players 200 --rounds 7 --seed 3 --data data --gcg parties/",
		Long: `classique inscrit N joueurs aux cotes tirées au hasard, apparie la ronde 1 par cote et
les suivantes au système suisse proposé par le logiciel, joue chaque match avec des joueurs
moteur (coups gloutons, avec parfois passes, échanges, mots faux et contestations),
enregistre chaque événement, construit les projections de classement et de cotes dans
DOSSIER et affiche la tête du classement. La même graine donne le même tournoi.`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSimulateClassique(cmd, &o) },
	}
	o.store.AddFlags(cmd)
	f := cmd.Flags()
	lexiconFlag(cmd, &o.lexicon)
	f.IntVar(&o.players, "players", 200, "nombre de joueurs")
	f.IntVar(&o.rounds, "rounds", 7, "nombre de rondes")
	f.Uint64Var(&o.seed, "seed", 1, "graine des cotes, des tirages et des choix des joueurs")
	f.IntVar(&o.workers, "workers", runtime.NumCPU(), "parties jouées en parallèle, un cœur chacune par défaut (les événements n'en dépendent pas)")
	f.IntVar(&o.lot, "lot", simulation.LotParDefaut, "matchs enregistrés par transaction, dans l'ordre des tables (les événements n'en dépendent pas)")
	f.StringVar(&o.gcgDir, "gcg", "", "`DOSSIER` où exporter chaque partie en GCG (facultatif)")
	f.IntVar(&o.top, "top", 10, "lignes du classement à afficher")
	f.StringVar(&o.profile, "profile", "", "`DOSSIER` d'un profil CPU par phase (simulation.pprof, projections.pprof)")
	return cmd
}

func runSimulateClassique(cmd *cobra.Command, o *simulateClassiqueOptions) error {
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	start := time.Now()
	lex, err := loadLexicon(o.lexicon)
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	o.store.Init = true // a simulation makes its store
	store, _, err := o.store.Open(ctx)
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	defer store.Close()
	id := fmt.Sprintf("sim-%d", o.seed)
	var bilan simulation.Bilan
	err = cpuprofile.Run(o.profile, "simulation", func() (err error) {
		bilan, err = simulation.Simuler(ctx, store, lex, simulation.Config{Tournoi: id, Joueurs: o.players, Rondes: o.rounds,
			Seed: o.seed, Workers: o.workers, Lot: o.lot, Comportement: simulation.ComportementParDefaut()})
		return err
	})
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	played := time.Since(start)

	db, err := projection.OpenDB(o.store.ProjectionDBPath())
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	defer db.Close()
	var runners []*projection.Runner
	err = cpuprofile.Run(o.profile, "projections", func() (err error) {
		runners, err = rebuildTogether(ctx, db, store, classique.ClassementName, classique.CotesName)
		return err
	})
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	lignes, err := classique.NewLecteurClassement(projection.Lecture(runners, classique.ClassementName)).Standings(ctx, id)
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	ratings, err := classique.NewLecteurCotes(projection.Lecture(runners, classique.CotesName)).ListeCotes(ctx)
	if err != nil {
		return fmt.Errorf("simulate classique : %w", err)
	}
	nouvelles := map[string]int{}
	for _, c := range ratings {
		nouvelles[c.Joueur] = c.Cote
	}
	if o.gcgDir != "" {
		if err := exportGCG(ctx, o.gcgDir, lex, store, id); err != nil {
			return fmt.Errorf("simulate classique : %w", err)
		}
	}
	fr.Fprintf(out, "tournoi %s : %d joueurs, %d rondes, %d parties, %d exempts, %d événements, %d recherches du top ; fins : %s\n",
		id, o.players, o.rounds, bilan.Parties, bilan.Exempts, bilan.Evenements, bilan.Recherches, finsEnClair(bilan.Fins))
	fmt.Fprintf(out, "%-4s %-6s %3s %4s %5s %5s %5s\n", "rang", "joueur", "PM", "PPM", "Pdep", "cote", "après")
	for _, l := range lignes[:min(o.top, len(lignes))] {
		fmt.Fprintf(out, "%-4d %-6s %3d %4d %5d %5d %5d\n", l.Rang, l.Joueur, l.PointsDeMatch, l.PPM, l.Pdep, l.Cote, nouvelles[l.Joueur])
	}
	fmt.Fprintf(out, "joué et enregistré en %s, total avec classement et cotes %s\n", duree(played), duree(time.Since(start)))
	return nil
}

// finsEnClair counts the endings in French, in the order of §7 and §9
// (« 2 lettres épuisées, 1 blocage »).
func finsEnClair(fins map[matchclassique.Fin]int) string {
	var parts []string
	for _, f := range []matchclassique.Fin{matchclassique.FinReliquatEpuise, matchclassique.FinBlocage, matchclassique.FinTempsEpuise, matchclassique.FinSixPasses,
		matchclassique.FinAbandon, matchclassique.FinAbandonUnilateral, matchclassique.FinDefaiteArbitrale, matchclassique.FinDefaiteHuitLettres, matchclassique.FinForfait} {
		if n := fins[f]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, f.Libelle()))
		}
	}
	if len(parts) == 0 {
		return "aucune"
	}
	return strings.Join(parts, ", ")
}

// rebuildTogether builds the read models named noms in one pass over the
// log (projection.RebuildAll), and returns their runners: each page is read
// and its chain checked once for both, and each is written a page at a
// time, instead of every projection reading the whole store on its own.
func rebuildTogether(ctx context.Context, db *sql.DB, store eventstore.Store, noms ...string) ([]*projection.Runner, error) {
	registry, err := catalogue.Registre()
	if err != nil {
		return nil, err
	}
	runners, err := readmodels.Runners(ctx, db, registry, store, noms...)
	if err != nil {
		return nil, err
	}
	_, err = projection.RebuildAll(ctx, store, nil, runners, nil)
	return runners, err
}

// exportGCG writes one GCG file per match of the tournament.
func exportGCG(ctx context.Context, dir string, lex *lexicon.Lexicon, store eventstore.Store, id string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fichiers, err := gcgDuTournoi(ctx, lex, store, id)
	if err != nil {
		return err
	}
	for _, f := range fichiers {
		if err := os.WriteFile(filepath.Join(dir, f.Nom), []byte(f.Texte), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gcgDuTournoi returns every published match of classique tournament id as
// a GCG file named <match>.gcg.
func gcgDuTournoi(ctx context.Context, lex *lexicon.Lexicon, store eventstore.Store, id string) ([]export.Fichier, error) {
	tournois, matchs, err := depotsClassiques(lex, store)
	if err != nil {
		return nil, err
	}
	return export.GCG(ctx, tournois, matchs, id)
}

// depotsClassiques are store's classique tournaments and their matches,
// judged with lex.
func depotsClassiques(lex *lexicon.Lexicon, store eventstore.Store) (*adapters.Tournois, *adapters.Matchs, error) {
	reg := eventstore.NewRegistry()
	if err := matchclassique.RegisterEvents(reg); err != nil {
		return nil, nil, err
	}
	if err := tournoiclassique.RegisterEvents(reg); err != nil {
		return nil, nil, err
	}
	regles, err := matchclassique.NewRegles(lex)
	if err != nil {
		return nil, nil, err
	}
	return adapters.NewTournois(store, reg), adapters.NewMatchs(store, reg, regles), nil
}
