package cpuprofile

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
)

// blockRate samples the blocking events of the block profile: one per 10 µs
// spent blocked (every longer one), so that recording them costs little of
// the CPU profile taken at the same time.
const blockRate = 10_000

// Attentes runs f under the mutex and block profiles, written to
// dir/name-mutex.pprof and dir/name-block.pprof (nothing without dir):
// where f's goroutines waited for a lock held by another (mutex, charged
// to the holder's Unlock) and where they blocked (block: locks, channels,
// selects, WaitGroups). The runtime keeps these profiles from the program's
// start: each file holds what f added only, in the runtime's text format,
// which go tool pprof reads with the binary.
func Attentes(dir, name string, f func() error) error {
	if dir == "" {
		return f()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	avant := map[string]string{}
	for _, p := range []string{"mutex", "block"} {
		texte, err := profilTexte(p)
		if err != nil {
			return err
		}
		avant[p] = texte
	}
	fraction := runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(blockRate)
	defer runtime.SetBlockProfileRate(0)
	// Restored once the profiles are read: the mutex profile's header
	// gives the fraction its delays were sampled at.
	defer runtime.SetMutexProfileFraction(fraction)
	if err := f(); err != nil {
		return err
	}
	for _, p := range []string{"mutex", "block"} {
		apres, err := profilTexte(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-"+p+".pprof"), difference(avant[p], apres), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// profilTexte is the runtime's profile p, in its text format (debug 1).
func profilTexte(p string) (string, error) {
	var b strings.Builder
	err := pprof.Lookup(p).WriteTo(&b, 1)
	return b.String(), err
}

// difference is the profile apres less avant, both in the runtime's text
// format: a header, then one record a stack ("cycles count @ pcs"
// followed by its symbolized frames, "#" lines, and a blank line); a
// stack's cycles and count are cumulative, and one that did not grow is
// left out.
func difference(avant, apres string) []byte {
	type total struct{ cycles, count int64 }
	lire := func(ligne string) (string, total, bool) {
		chiffres, pile, ok := strings.Cut(ligne, " @ ")
		c, n, ok2 := strings.Cut(chiffres, " ")
		if !ok || !ok2 {
			return "", total{}, false
		}
		cycles, err1 := strconv.ParseInt(c, 10, 64)
		count, err2 := strconv.ParseInt(n, 10, 64)
		return pile, total{cycles, count}, err1 == nil && err2 == nil
	}
	deja := map[string]total{}
	for ligne := range strings.Lines(avant) {
		if pile, t, ok := lire(strings.TrimSuffix(ligne, "\n")); ok {
			deja[pile] = t
		}
	}
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	garder, entete := false, true
	for ligne := range strings.Lines(apres) {
		pile, t, ok := lire(strings.TrimSuffix(ligne, "\n"))
		switch {
		case ok:
			entete = false
			d := deja[pile]
			garder = t.count > d.count
			if garder {
				fmt.Fprintf(w, "%d %d @ %s\n", t.cycles-d.cycles, t.count-d.count, pile)
			}
		case entete || garder:
			w.WriteString(ligne)
		}
	}
	w.Flush()
	return out.Bytes()
}
