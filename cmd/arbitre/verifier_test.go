package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/charge"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/eventstore/sqlitestore"
)

// Issue 32: directors, arbiters and displays play games concurrently
// against `arbitre serve` in a process of its own, killed (kill -9) and
// restarted every 40 acknowledged commands; every game's history is
// linearizable and the store holds exactly the acknowledged facts. The
// short run of CI (fixed seed); `arbitre charge --verifier` runs longer.
func TestFiabilite_VerificateurDeCoherenceSousPannes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	journal := &e2eJournal{}
	c := charge.VerifConfig{Data: t.TempDir(), Joueurs: 8, Parties: 3, Coups: 4, Tours: 2, Lecteurs: 2, Graine: 32, TuerTous: 40,
		Lancer: func(args ...string) *exec.Cmd {
			ligne, err := json.Marshal(args)
			require.NoError(t, err)
			cmd := exec.Command(os.Args[0], "-test.run=^TestProcessusEnfant$")
			cmd.Env = append(os.Environ(), envProcessus+"="+string(ligne))
			_, err = cmd.StdinPipe() // open while this process lives (TestProcessusEnfant)
			require.NoError(t, err)
			return cmd
		}}
	rep, err := outilsCharge.RunVerifier(t.Context(), c, journal)
	require.NoError(t, err, "%s", sansRequetes(journal.String()))
	assert.Zero(t, rep.Violations, "%v", rep.Details)
	assert.Equal(t, 6, rep.Historiques)
	assert.Equal(t, 6*(1+2*4+8*4), rep.Ecritures, "every command acknowledged once")
	assert.Positive(t, rep.Pannes, "the server was killed during the writes")
	assert.Positive(t, rep.Lectures)
	t.Logf("%+v", rep)
}

// Issue 32 item 3: the checker's run with the server's clock jumping, one
// hour forward, then back, every 40 acknowledged commands, instead of the
// kill -9. The server runs in this process (a separate process's clock
// cannot be moved): its use cases, its tokens' expiry and its store's
// stamps all read the clock moved. Every game's history is linearizable
// and the store holds exactly the acknowledged facts, whose stamps go back
// and forth.
func TestFiabilite_VerificateurDeCoherenceHorlogeQuiSaute(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games against a server")
	}
	h := &horlogeE2E{}
	journal := &e2eJournal{}
	log := slog.New(slog.NewTextHandler(journal, nil))
	c := charge.VerifConfig{Data: t.TempDir(), Joueurs: 8, Parties: 3, Coups: 4, Tours: 2, Lecteurs: 2, Graine: 33, TuerTous: 40,
		Servir: func(ctx context.Context, data, addr string) func() error {
			ctx, cancel := context.WithCancel(ctx)
			fini := make(chan error, 1)
			go func() {
				fini <- runServe(ctx, &storeflags.Flags{DataDir: data, Backend: storeflags.SQLite, Clock: h}, addr, nil, log, sansLimite, h.regler)
			}()
			return func() error { cancel(); return <-fini }
		},
		Sauter: func(n int) {
			if n%2 == 1 {
				h.avancer(time.Hour)
			} else {
				h.avancer(-time.Hour)
			}
		}}
	rep, err := outilsCharge.RunVerifier(t.Context(), c, journal)
	require.NoError(t, err, "%s", sansRequetes(journal.String()))
	assert.Zero(t, rep.Violations, "%v", rep.Details)
	assert.Equal(t, 6, rep.Historiques)
	assert.Equal(t, 6*(1+2*4+8*4), rep.Ecritures, "every command acknowledged once")
	assert.GreaterOrEqual(t, rep.SautsHorloge, 2, "the clock went forward and back during the writes")
	assert.Zero(t, rep.Pannes)
	store, err := sqlitestore.OpenDir(t.Context(), c.Data, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	evts, err := store.ReadAll(t.Context(), 0, 100000)
	require.NoError(t, err)
	retours := 0
	for i := 1; i < len(evts); i++ {
		if evts[i].Metadata.RecordedAt.Before(evts[i-1].Metadata.RecordedAt.Add(-30 * time.Minute)) {
			retours++
		}
	}
	assert.Positive(t, retours, "the store's stamps went back with the clock")
	t.Logf("%+v", rep)
}
