package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// isTerminal tells whether w is a terminal (a character device), where a
// long command draws its progress.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progression shows how far a long command is (`projections rebuild`,
// `store verify`, `simulate`) on one redrawn line of a terminal: events done,
// rate, share done and time left (issue 16, item 10). It writes nothing when
// the output is not a terminal: piped or redirected output stays quiet and
// gets only the command's results.
type progression struct {
	out     io.Writer
	libelle string
	now     func() time.Time
	debut   time.Time
	dessine time.Time // last redraw
}

// redessin is the least time between two redraws.
const redessin = 100 * time.Millisecond

// newProgression returns nil (which does nothing) when out is not a
// terminal.
func newProgression(out io.Writer, libelle string) *progression {
	if !isTerminal(out) {
		return nil
	}
	return newProgressionSur(out, libelle, time.Now)
}

func newProgressionSur(out io.Writer, libelle string, now func() time.Time) *progression {
	return &progression{out: out, libelle: libelle, now: now, debut: now()}
}

// avancer reports events done and the share of the work done (0 to 1).
func (p *progression) avancer(evenements int, part float64) {
	if p == nil {
		return
	}
	now := p.now()
	if now.Sub(p.dessine) < redessin && part < 1 {
		return
	}
	p.dessine = now
	ecoule := now.Sub(p.debut)
	debit := 0.0
	if ecoule > 0 {
		debit = float64(evenements) / ecoule.Seconds()
	}
	reste := "?"
	if part > 0 {
		reste = time.Duration(float64(ecoule) * (1 - min(part, 1)) / part).Round(time.Second).String()
	}
	fmt.Fprintf(p.out, "\r%s : %d événements, %.0f/s, %3.0f %%, reste %s  ", p.libelle, evenements, debit, min(part, 1)*100, reste)
}

// terminer ends the line.
func (p *progression) terminer() {
	if p != nil {
		fmt.Fprintln(p.out)
	}
}

// partDe is the share of the log read once position is reached, last
// being the position of its last event: an estimate for the display only
// (positions are opaque, but they increase along the log).
func partDe(position, last uint64) float64 {
	if last == 0 {
		return 1
	}
	return float64(position) / float64(last)
}
