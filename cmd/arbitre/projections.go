package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/cpuprofile"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/catalogue"
	"arbitre/projections/decodage"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

func init() {
	projectionsCmd := &cobra.Command{Use: "projections", Short: "Entretient les vues construites à partir des événements",
		Example: "  arbitre projections rebuild --data data"}
	var flags storeflags.Flags
	var profile string
	rebuildCmd := &cobra.Command{
		Use:     "rebuild",
		Short:   "Reconstruit chaque projection depuis la position globale zéro",
		Example: "  arbitre projections rebuild --data data",
		Long: `rebuild vide chaque projection (état et point de reprise, en une transaction) et
les reconstruit toutes en une seule lecture du journal global : chaque page est lue, sa
chaîne vérifiée et chaque événement décodé une seule fois (sur SQLite, plusieurs pages à
la fois, chacune sur sa connexion). L'archive, le classement duplicate et les vues des
parties sont repliés en mémoire et écrits une fois, à la fin ; les autres projections
appliquent en une transaction par page les seuls événements qu'elles lisent.
--profile DOSSIER écrit le profil CPU de la reconstruction (rebuild.pprof).
Sur un terminal, il affiche sa progression (événements, débit, temps restant) ; en
sortie redirigée, seulement le résultat. À lancer serveur arrêté ; une reconstruction
interrompue reprend à son point de reprise au démarrage suivant (depuis zéro pour les
projections repliées en mémoire).`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProjectionsRebuild(cmd, &flags, profile)
		},
	}
	flags.AddFlags(rebuildCmd)
	rebuildCmd.Flags().StringVar(&profile, "profile", "", "`DOSSIER` où écrire le profil CPU de la reconstruction (rebuild.pprof)")
	projectionsCmd.AddCommand(rebuildCmd)
	rootCmd.AddCommand(projectionsCmd)
}

func runProjectionsRebuild(cmd *cobra.Command, flags *storeflags.Flags, profile string) error {
	ctx := cmd.Context()
	store, _, err := flags.Open(ctx)
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	defer store.Close()
	// A server writes the projections as it runs: the rebuild holds the
	// data directory's lock, and is refused while a server holds it.
	lock, err := lockDataDirFor(flags.DataDir, lockHolder{Commande: "projections rebuild"})
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	defer lock.release()
	db, err := projection.OpenDB(flags.ProjectionDBPath())
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	defer db.Close()
	last, err := store.LastPosition(ctx)
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	registry, err := catalogue.Registre()
	if err == nil {
		err = decodage.Accelerer(registry)
	}
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	runners, err := readmodels.Runners(ctx, db, registry, store)
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	if os.Getenv("GOGC") == "" {
		// The pass allocates fast and keeps little: collecting when the
		// heap has grown by four times the live heap rather than twice cuts
		// its CPU by about a tenth, for 380–410 MB → 500–550 MB at most on
		// the 1,000 × 23 store (eight times: no faster, 900 MB;
		// docs/eventstore.md).
		debug.SetGCPercent(400)
	}
	out := cmd.OutOrStdout()
	bar := newProgression(out, "projections rebuild")
	start := time.Now()
	var n int
	err = cpuprofile.Run(profile, "rebuild", func() (err error) {
		n, err = projection.RebuildAll(ctx, store, registry, runners, func(position uint64, read int) {
			bar.avancer(read, partDe(position, last))
		})
		return err
	})
	bar.terminer()
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	elapsed := time.Since(start)
	fr.Fprintf(out, "projections rebuild : %d projections (%s) reconstruites en une passe sur %d événements en %s (%.0f événements/s)\n",
		len(runners), strings.Join(names(runners), ", "), n, duree(elapsed), float64(n)/elapsed.Seconds())
	return nil
}

func names(runners []*projection.Runner) []string {
	out := make([]string, len(runners))
	for i, r := range runners {
		out[i] = r.Name()
	}
	return out
}
