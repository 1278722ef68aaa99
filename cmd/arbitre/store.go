package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"

	"github.com/spf13/cobra"
)

func init() {
	storeCmd := &cobra.Command{Use: "store", Short: "Inspect the event store"}
	var flags storeFlags
	var seal string
	verifyCmd := &cobra.Command{
		Use:   "verify",
		Short: "Check the event store: the hash chain, gapless positions, contiguous revisions per stream, every payload decodes",
		Long: `verify reads the whole global log. It checks that global positions are
1, 2, 3... without gap (SQLite) or at least increasing (EventStoreDB), that each
stream's revisions run 0, 1, 2... without gap, and that every payload decodes.
On SQLite it also recomputes the hash chain: an event modified, inserted,
deleted, swapped or moved in the file is reported at its position, and the log
must still extend the seal file beside it (DIR/sceau), the checkpoints of the
projections built from it and, with --seal POSITION:HASH, a seal printed earlier
by "arbitre store seal". Opening the SQLite file also runs SQLite's integrity
check. It exits with a non-zero status and lists each problem (position,
stream@revision, code, detail) when anything is wrong.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStoreVerify(cmd, &flags, seal)
		},
	}
	flags.register(verifyCmd)
	verifyCmd.Flags().StringVar(&seal, "seal", "", `a seal printed by "arbitre store seal" (POSITION:HASH) the log must still extend`)
	var sealFlags storeFlags
	sealCmd := &cobra.Command{
		Use:   "seal",
		Short: "Print the head of the log (POSITION:HASH) to write on a results sheet or publish",
		Long: `seal prints the position of the last event and its hash, which chains every
event before it (SQLite only). "arbitre store verify --seal POSITION:HASH" later
proves the log still extends it: no event up to there was changed or removed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStoreSeal(cmd, &sealFlags)
		},
	}
	sealFlags.register(sealCmd)
	storeCmd.AddCommand(verifyCmd, sealCmd)
	rootCmd.AddCommand(storeCmd)
}

// errNotChained refuses seals on a store that does not chain its events.
var errNotChained = errors.New("seals need the SQLite store: EventStoreDB events are not chained (docs/eventstore.md)")

func runStoreSeal(cmd *cobra.Command, flags *storeFlags) error {
	ctx := cmd.Context()
	store, _, err := flags.openStore(ctx)
	if err != nil {
		return fmt.Errorf("store seal: %w", err)
	}
	defer store.Close()
	if _, ok := store.(eventstore.Chained); !ok {
		return fmt.Errorf("store seal: %w", errNotChained)
	}
	last, err := store.LastPosition(ctx)
	if err != nil {
		return fmt.Errorf("store seal: %w", err)
	}
	head, err := store.ReadAll(ctx, last, 1)
	if err != nil {
		return fmt.Errorf("store seal: %w", err)
	}
	if len(head) == 0 {
		return fmt.Errorf("store seal: the log is empty")
	}
	fmt.Fprintln(cmd.OutOrStdout(), eventstore.Sceau{Position: head[0].Position, Hash: head[0].Hash})
	return nil
}

func runStoreVerify(cmd *cobra.Command, flags *storeFlags, seal string) error {
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
	opts := eventstore.VerifyOptions{GaplessPositions: gapless, Registry: registry}
	if chained, ok := store.(eventstore.Chained); ok {
		opts.Chained = true
		if opts.Anchors, err = anchors(ctx, flags, chained, seal); err != nil {
			return fmt.Errorf("store verify: %w", err)
		}
	} else if seal != "" {
		return fmt.Errorf("store verify: %w", errNotChained)
	}
	report, err := eventstore.Verify(ctx, store, opts)
	if err != nil {
		return fmt.Errorf("store verify: reading stopped after %d events: %w", report.Events, err)
	}
	printVerifyReport(cmd.OutOrStdout(), report)
	if !report.OK() {
		return fmt.Errorf("store verify: %d problem(s) found", len(report.Problems))
	}
	return nil
}

// anchors are the heads a chained log must still extend: the seal given on
// the command line, the seal file beside the store and the checkpoints of
// the projections built from this store.
func anchors(ctx context.Context, flags *storeFlags, store eventstore.Chained, seal string) ([]eventstore.Anchor, error) {
	var out []eventstore.Anchor
	if seal != "" {
		s, err := eventstore.ParseSceau(seal)
		if err != nil {
			return nil, err
		}
		out = append(out, eventstore.Anchor{Source: "the seal " + seal, Sceau: s})
	}
	file, found, err := sqlitestore.ReadSeal(flags.storePath())
	if err != nil {
		return nil, fmt.Errorf("reading the seal file: %w", err)
	}
	if found {
		out = append(out, eventstore.Anchor{Source: "the seal file", Sceau: file})
	}
	if _, err := os.Stat(flags.projectionDBPath()); err != nil {
		return out, nil
	}
	db, err := projection.OpenReadDB(flags.projectionDBPath())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	checkpoints, err := projection.Anchors(ctx, db, store.Identity())
	if err != nil {
		return nil, fmt.Errorf("reading the projections' checkpoints: %w", err)
	}
	return append(out, checkpoints...), nil
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
