package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/decodage"
	"arbitre/projections/projection"
)

func init() {
	storeCmd := &cobra.Command{Use: "store", Short: "Inspecte le magasin d'événements",
		Example: "  arbitre store verify --data data"}
	var flags storeflags.Flags
	var seal string
	verifyCmd := &cobra.Command{
		Use:   "verify",
		Short: "Vérifie le magasin : chaîne d'empreintes, positions sans trou, révisions contiguës par flux, chaque contenu se décode",
		Example: `  arbitre store verify --data data
  arbitre store verify --data data --seal 1234:9f86d081884c7d65...
  arbitre store verify --store esdb --esdb-url "esdb://localhost:2113?tls=false"`,
		Long: `verify lit tout le journal global. Il vérifie que les positions globales sont
1, 2, 3... sans trou (SQLite) ou au moins croissantes (EventStoreDB), que les
révisions de chaque flux vont 0, 1, 2... sans trou et que chaque contenu se
décode. Sur SQLite il recalcule aussi la chaîne d'empreintes : un événement
modifié, inséré, supprimé, échangé ou déplacé dans le fichier est signalé à sa
position, et le journal doit encore prolonger le fichier de sceau voisin
(DIR/sceau), les points de reprise des projections construites sur lui et, avec
--seal POSITION:EMPREINTE, un sceau imprimé plus tôt par « arbitre store seal ».
Ouvrir le fichier SQLite lance aussi son contrôle d'intégrité. Il sort en
erreur et liste chaque problème (position, flux@révision, code, détail) quand
quelque chose ne va pas.`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStoreVerify(cmd, &flags, seal)
		},
	}
	flags.AddFlags(verifyCmd)
	verifyCmd.Flags().StringVar(&seal, "seal", "", `un sceau imprimé par « arbitre store seal » (POSITION:EMPREINTE) que le journal doit encore prolonger`)
	var sealFlags storeflags.Flags
	sealCmd := &cobra.Command{
		Use:     "seal",
		Short:   "Imprime la tête du journal (POSITION:EMPREINTE), à écrire sur la feuille de résultats ou à publier",
		Example: "  arbitre store seal --data data",
		Long: `seal imprime la position du dernier événement et son empreinte, qui enchaîne
tous les événements d'avant (SQLite seulement). « arbitre store verify --seal
POSITION:EMPREINTE » prouve plus tard que le journal la prolonge encore : aucun
événement jusque-là n'a été modifié ni retiré.`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStoreSeal(cmd, &sealFlags)
		},
	}
	sealFlags.Register(sealCmd)
	storeCmd.AddCommand(verifyCmd, sealCmd)
	rootCmd.AddCommand(storeCmd)
}

// errNotChained refuses seals on a store that does not chain its events.
var errNotChained = errors.New("les sceaux demandent le magasin SQLite : les événements EventStoreDB ne sont pas enchaînés (docs/eventstore.md)")

func runStoreSeal(cmd *cobra.Command, flags *storeflags.Flags) error {
	ctx := cmd.Context()
	store, _, err := flags.Open(ctx)
	if err != nil {
		return fmt.Errorf("store seal : %w", err)
	}
	defer store.Close()
	if _, ok := store.(integrity.Chained); !ok {
		return fmt.Errorf("store seal : %w", errNotChained)
	}
	last, err := store.LastPosition(ctx)
	if err != nil {
		return fmt.Errorf("store seal : %w", err)
	}
	head, err := store.ReadAll(ctx, last, 1)
	if err != nil {
		return fmt.Errorf("store seal : %w", err)
	}
	if len(head) == 0 {
		return fmt.Errorf("store seal : le journal est vide")
	}
	fmt.Fprintln(cmd.OutOrStdout(), integrity.Seal{Position: head[0].Position, Hash: head[0].Hash})
	return nil
}

func runStoreVerify(cmd *cobra.Command, flags *storeflags.Flags, seal string) error {
	ctx := cmd.Context()
	store, gapless, err := flags.Open(ctx)
	if err != nil {
		return fmt.Errorf("store verify : %w", err)
	}
	defer store.Close()
	// The bulletins, nearly all of a tournament's log, are decoded without
	// reflection, as a rebuild does; a payload those decoders do not read
	// goes to the general decoder, so verify judges every payload alike.
	registry, err := catalogue.Registre()
	if err == nil {
		err = decodage.Accelerer(registry)
	}
	if err != nil {
		return err
	}
	opts := integrity.VerifyOptions{GaplessPositions: gapless, Registry: registry}
	if chained, ok := store.(integrity.Chained); ok {
		opts.Chained = true
		if opts.Anchors, err = anchors(ctx, flags, chained, seal); err != nil {
			return fmt.Errorf("store verify : %w", err)
		}
	} else if seal != "" {
		return fmt.Errorf("store verify : %w", errNotChained)
	}
	last, err := store.LastPosition(ctx)
	if err != nil {
		return fmt.Errorf("store verify : %w", err)
	}
	bar := newProgression(cmd.OutOrStdout(), "store verify")
	opts.Progress = func(events int, position uint64) { bar.avancer(events, partDe(position, last)) }
	report, err := integrity.Verify(ctx, store, opts)
	bar.terminer()
	if err != nil {
		return fmt.Errorf("store verify : lecture arrêtée après %d événements : %w", report.Events, err)
	}
	printVerifyReport(cmd.OutOrStdout(), report)
	if !report.OK() {
		return fmt.Errorf("store verify : %d problème(s) trouvé(s)", len(report.Problems))
	}
	return nil
}

// anchors are the heads a chained log must still extend: the seal given on
// the command line, the seal file beside the store and the checkpoints of
// the projections built from this store.
func anchors(ctx context.Context, flags *storeflags.Flags, store integrity.Chained, seal string) ([]integrity.Anchor, error) {
	var out []integrity.Anchor
	if seal != "" {
		s, err := integrity.ParseSeal(seal)
		if err != nil {
			return nil, err
		}
		out = append(out, integrity.Anchor{Source: "le sceau " + seal, Seal: s})
	}
	file, found, err := sqlitestore.ReadSeal(flags.StorePath())
	if err != nil {
		return nil, fmt.Errorf("lecture du fichier de sceau : %w", err)
	}
	if found {
		out = append(out, integrity.Anchor{Source: "le fichier de sceau", Seal: file})
	}
	if _, err := os.Stat(flags.ProjectionDBPath()); err != nil {
		return out, nil
	}
	db, err := projection.OpenReadDB(flags.ProjectionDBPath())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	checkpoints, err := projection.Anchors(ctx, db, store.Identity())
	if err != nil {
		return nil, fmt.Errorf("lecture des points de reprise des projections : %w", err)
	}
	return append(out, checkpoints...), nil
}

func printVerifyReport(w io.Writer, report *integrity.VerifyReport) {
	fmt.Fprintf(w, "événements : %d\nflux : %d\ndernière position : %d\n", report.Events, report.Streams, report.LastPosition)
	if report.OK() {
		fmt.Fprintln(w, "résultat : OK")
		return
	}
	fmt.Fprintf(w, "résultat : %d problème(s)\n", len(report.Problems))
	for _, p := range report.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
}
