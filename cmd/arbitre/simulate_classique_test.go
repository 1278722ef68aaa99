package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSimulateClassique_ProfilParPhase: `simulate classique --profile DIR`
// (issue 17: profile first) writes one CPU profile per phase, the tournament
// played and saved, then the projections, beside its usual summary.
func TestSimulateClassique_ProfilParPhase(t *testing.T) {
	data, profils := t.TempDir(), filepath.Join(t.TempDir(), "profils")
	out, err := runArbitre(t, "simulate", "classique", "--players", "6", "--rounds", "2", "--seed", "5", "--data", data, "--profile", profils)
	require.NoError(t, err)
	assert.Contains(t, out, "tournoi sim-5 : 6 joueurs, 2 rondes, 6 parties, 0 exempts")
	for _, phase := range []string{"simulation.pprof", "projections.pprof"} {
		info, err := os.Stat(filepath.Join(profils, phase))
		require.NoError(t, err, phase)
		assert.Positive(t, info.Size(), phase)
	}
}
