package main

import (
	"arbitre/domain/catalogue"
	"fmt"
	"io"

	"arbitre/domain/eventstore"

	"github.com/spf13/cobra"
)

func init() {
	storeCmd := &cobra.Command{Use: "store", Short: "Inspect the event store"}
	var flags storeFlags
	verifyCmd := &cobra.Command{
		Use:   "verify",
		Short: "Check the event store: gapless positions, contiguous revisions per stream, every payload decodes",
		Long: `verify reads the whole global log. It checks that global positions are
1, 2, 3... without gap (SQLite) or at least increasing (EventStoreDB), that each
stream's revisions run 0, 1, 2... without gap, and that every payload is valid
JSON. Opening the SQLite file also runs SQLite's integrity check. It exits with
a non-zero status and lists each problem (position, stream@revision, code,
detail) when anything is wrong.`,
		Args: cobra.NoArgs,
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
		return fmt.Errorf("store verify: %w", err)
	}
	defer store.Close()
	registry, err := catalogue.Registre()
	if err != nil {
		return err
	}
	report, err := eventstore.Verify(ctx, store, eventstore.VerifyOptions{GaplessPositions: gapless, Registry: registry})
	if err != nil {
		return fmt.Errorf("store verify: reading stopped after %d events: %w", report.Events, err)
	}
	printVerifyReport(cmd.OutOrStdout(), report)
	if !report.OK() {
		return fmt.Errorf("store verify: %d problem(s) found", len(report.Problems))
	}
	return nil
}

func printVerifyReport(w io.Writer, report *eventstore.VerifyReport) {
	fmt.Fprintf(w, "events: %d\nstreams: %d\nlast position: %d\n", report.Events, report.Streams, report.LastPosition)
	if report.OK() {
		fmt.Fprintln(w, "result: OK")
		return
	}
	fmt.Fprintf(w, "result: %d problem(s)\n", len(report.Problems))
	for _, p := range report.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
}
