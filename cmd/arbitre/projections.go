package main

import (
	"arbitre/domain/catalogue"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"arbitre/projections/projection"
	"arbitre/projections/readmodels"

	"github.com/spf13/cobra"
)

func init() {
	projectionsCmd := &cobra.Command{Use: "projections", Short: "Entretient les vues construites à partir des événements",
		Example: "  arbitre projections rebuild --data data"}
	var flags storeFlags
	rebuildCmd := &cobra.Command{
		Use:     "rebuild",
		Short:   "Reconstruit chaque projection depuis la position globale zéro",
		Example: "  arbitre projections rebuild --data data",
		Long: `rebuild vide chaque projection (état et point de reprise, en une transaction) et
y rejoue tout le journal global. Il affiche une barre de progression quand la sortie
standard est un terminal, de simples lignes de journal sinon. À lancer serveur
arrêté ; une reconstruction interrompue reprend à son point de reprise au démarrage suivant.`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProjectionsRebuild(cmd, &flags)
		},
	}
	flags.register(rebuildCmd)
	projectionsCmd.AddCommand(rebuildCmd)
	rootCmd.AddCommand(projectionsCmd)
}

func runProjectionsRebuild(cmd *cobra.Command, flags *storeFlags) error {
	ctx := cmd.Context()
	store, _, err := flags.openStore(ctx)
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	defer store.Close()
	db, err := projection.OpenDB(flags.projectionDBPath())
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	defer db.Close()
	last, err := store.LastPosition(ctx)
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	registry, err := catalogue.Registre()
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	models, err := readmodels.Tous(registry, store)
	if err != nil {
		return fmt.Errorf("projections rebuild : %w", err)
	}
	for _, p := range models {
		runner, err := projection.NewRunner(ctx, db, p, store)
		if err != nil {
			return fmt.Errorf("projections rebuild : %w", err)
		}
		out := cmd.OutOrStdout()
		report := newProgressReport(out, isTerminal(out), p.Name(), last)
		start := time.Now()
		n, err := runner.Rebuild(ctx, report.update)
		report.finish()
		if err != nil {
			return fmt.Errorf("projections rebuild : %w", err)
		}
		elapsed := time.Since(start)
		fmt.Fprintf(out, "projection %s : reconstruite à partir de %d événements en %s (%.0f événements/s)\n", p.Name(), n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds())
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progressReport draws a bar on a terminal, and on anything else writes a
// log line at each further tenth of the log.
type progressReport struct {
	out      io.Writer
	terminal bool
	name     string
	last     uint64
	logged   uint64 // tenths already logged
}

func newProgressReport(out io.Writer, terminal bool, name string, last uint64) *progressReport {
	return &progressReport{out: out, terminal: terminal, name: name, last: last}
}

func (p *progressReport) fraction(position uint64) float64 {
	if p.last == 0 || position >= p.last {
		return 1
	}
	return float64(position) / float64(p.last)
}

func (p *progressReport) update(position uint64, applied int) {
	f := p.fraction(position)
	if p.terminal {
		const width = 40
		done := int(f * width)
		fmt.Fprintf(p.out, "\r%s [%s%s] %3.0f%% %d événements", p.name, strings.Repeat("#", done), strings.Repeat(" ", width-done), f*100, applied)
		return
	}
	if tenth := uint64(f * 10); tenth > p.logged {
		p.logged = tenth
		fmt.Fprintf(p.out, "projection %s : %d événements appliqués, position %d sur %d (%d%%)\n", p.name, applied, position, p.last, tenth*10)
	}
}

func (p *progressReport) finish() {
	if p.terminal {
		fmt.Fprintln(p.out)
	}
}
