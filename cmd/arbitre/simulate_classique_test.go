package main

import (
	"os"
	"path/filepath"
	"strings"
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

// TestSimulateClassique_LotSansEffetSurLeTournoi: `--lot N` only says how
// many matches go in one transaction (issue 17: fewer, larger
// transactions); the tournament, its standings and its ratings are the
// same whatever N.
func TestSimulateClassique_LotSansEffetSurLeTournoi(t *testing.T) {
	var sorties []string
	for _, lot := range []string{"1", "3", "50"} {
		out, err := runArbitre(t, "simulate", "classique", "--players", "14", "--rounds", "3", "--seed", "4", "--lot", lot, "--data", t.TempDir())
		require.NoError(t, err)
		lignes := strings.Split(strings.TrimSpace(out), "\n")
		require.Greater(t, len(lignes), 2)
		sorties = append(sorties, strings.Join(lignes[:len(lignes)-1], "\n")) // the last line is the time taken
	}
	assert.Contains(t, sorties[0], "tournoi sim-4 : 14 joueurs, 3 rondes, 21 parties")
	assert.Equal(t, sorties[0], sorties[1])
	assert.Equal(t, sorties[0], sorties[2])
}
