package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/charge"
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
// kill -9, from the command line: `arbitre charge --verifier
// --sauts-horloge 40` runs the server in its own process (a separate
// process's clock cannot be moved): its use cases, its tokens' expiry and
// its store's stamps all read the clock moved. Every game's history is
// linearizable and the store holds exactly the acknowledged facts, whose
// stamps go back and forth.
func TestFiabilite_VerificateurDeCoherenceHorlogeQuiSaute(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games against a server")
	}
	data := t.TempDir()
	out, err := runArbitre(t, "charge", "--verifier", "--sauts-horloge", "40", "--players", "8", "--parties", "3", "--coups", "4",
		"--tours", "2", "--lecteurs", "2", "--graine", "33", "--data", data, "--json")
	require.NoError(t, err, out)
	var rep charge.VerifReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Zero(t, rep.Violations, "%v", rep.Details)
	assert.Equal(t, 6, rep.Historiques)
	assert.Equal(t, 6*(1+2*4+8*4), rep.Ecritures, "every command acknowledged once")
	assert.GreaterOrEqual(t, rep.SautsHorloge, 2, "the clock went forward and back during the writes")
	assert.Zero(t, rep.Pannes)
	store, err := sqlitestore.OpenDir(t.Context(), data, sqlitestore.Options{})
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

// TestFiabilite_SautsHorlogeBornes: --sauts-horloge takes the place of the
// kill -9 of --tuer-tous (both refused together), is never negative, and
// goes with --verifier; each refusal comes before anything is started.
func TestFiabilite_SautsHorlogeBornes(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--verifier", "--sauts-horloge", "-1"}, "--sauts-horloge"},
		{[]string{"--verifier", "--sauts-horloge", "40", "--tuer-tous", "40"}, "--tuer-tous"},
		{[]string{"--sauts-horloge", "40"}, "--verifier"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "neuf")
			out, err := runArbitre(t, append([]string{"charge", "--data", data}, tt.args...)...)
			require.Error(t, err, out)
			assert.Contains(t, err.Error(), tt.msg)
			assert.NoDirExists(t, data, "nothing started")
		})
	}
}
