package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/charge"
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
