package main

import (
	"arbitre/domain/catalogue"
	"fmt"
	"io"

	"arbitre/domain/eventstore"

	"github.com/spf13/cobra"
)

func init() {
	storeCmd := &cobra.Command{Use: "store", Short: "Inspecte le magasin d'événements",
		Example: "  arbitre store verify --data data"}
	var flags storeFlags
	verifyCmd := &cobra.Command{
		Use:   "verify",
		Short: "Vérifie le magasin : positions sans trou, révisions contiguës par flux, chaque contenu se décode",
		Example: `  arbitre store verify --data data
  arbitre store verify --store esdb --esdb-url "esdb://localhost:2113?tls=false"`,
		Long: `verify lit tout le journal global. Il vérifie que les positions globales sont
1, 2, 3... sans trou (SQLite) ou au moins croissantes (EventStoreDB), que les
révisions de chaque flux vont 0, 1, 2... sans trou et que chaque contenu est du
JSON valide. Ouvrir le fichier SQLite lance aussi son contrôle d'intégrité. Il
sort en erreur et liste chaque problème (position, flux@révision, code, détail)
quand quelque chose ne va pas.`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStoreVerify(cmd, &flags)
		},
	}
	flags.register(verifyCmd)
	storeCmd.AddCommand(verifyCmd)
	rootCmd.AddCommand(storeCmd)
}

func runStoreVerify(cmd *cobra.Command, flags *storeFlags) error {
	ctx := cmd.Context()
	store, gapless, err := flags.openStore(ctx)
	if err != nil {
		return fmt.Errorf("store verify : %w", err)
	}
	defer store.Close()
	registry, err := catalogue.Registre()
	if err != nil {
		return err
	}
	report, err := eventstore.Verify(ctx, store, eventstore.VerifyOptions{GaplessPositions: gapless, Registry: registry})
	if err != nil {
		return fmt.Errorf("store verify : lecture arrêtée après %d événements : %w", report.Events, err)
	}
	printVerifyReport(cmd.OutOrStdout(), report)
	if !report.OK() {
		return fmt.Errorf("store verify : %d problème(s) trouvé(s)", len(report.Problems))
	}
	return nil
}

func printVerifyReport(w io.Writer, report *eventstore.VerifyReport) {
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
