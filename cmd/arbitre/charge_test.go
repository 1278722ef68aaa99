package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/charge"
)

// The load benchmark runs end to end with tiny numbers: every phase
// measures what it should, and no bulletin is lost or duplicated. Timings
// are not asserted: CI machines vary.
func TestChargeTiny(t *testing.T) {
	var out, errOut bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&errOut)
	rootCmd.SetArgs([]string{"charge", "--players", "8", "--displays", "20", "--arbiters", "2", "--qps", "50", "--duration", "1s",
		"--data", t.TempDir(), "--json"})
	require.NoError(t, rootCmd.ExecuteContext(context.Background()), errOut.String())

	var rep charge.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	s, d, b := rep.Standings, rep.Live, rep.Bulletins
	assert.Equal(t, charge.UnloadedQueries, s.Unloaded.N)
	assert.Equal(t, 50, s.Sent)
	assert.Zero(t, s.Errors)
	assert.Equal(t, 50, s.Latency.N)

	assert.Equal(t, 20, d.Connected)
	assert.Zero(t, d.Errors)
	assert.Equal(t, 20, d.CoupAnnounced.N, "every display shows the announced top")
	assert.Equal(t, 20, d.StandingsChanged.N, "every display's standings show the top")

	assert.Equal(t, 2, b.Coup)
	assert.Equal(t, 8, b.Expected)
	assert.Equal(t, 2, b.Replays, "players 1 and 6 are sent twice")
	assert.Zero(t, b.Errors)
	assert.Zero(t, b.Conflicts, "arbiters of different tables never conflict (issue 17)")
	assert.Equal(t, 8, b.Listed)
	assert.Equal(t, 8, b.InStore)
	assert.Zero(t, b.Missing)
	assert.Zero(t, b.Duplicated)
	assert.True(t, b.TargetOK)
}

// TestChargeNationalTiny: the national event's benchmark (issue 34 item 2)
// runs end to end with tiny numbers: 4 centres sending their bundles at
// once are all received (a centre saved while another was refused with
// CONFLICT before), the national ranking holds every player, every query
// of the fixed rate is answered. Timings are not asserted.
func TestChargeNationalTiny(t *testing.T) {
	var out, errOut bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&errOut)
	rootCmd.SetArgs([]string{"charge", "national", "--centres", "4", "--players", "3", "--arrivee", "0", "--qps", "50", "--duration", "1s",
		"--data", t.TempDir(), "--json"})
	require.NoError(t, rootCmd.ExecuteContext(context.Background()), errOut.String())

	var rep charge.NationalReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	assert.Positive(t, rep.Coups)
	assert.Equal(t, 4, rep.Bundles.Latency.N)
	assert.Zero(t, rep.Bundles.Errors, rep.Bundles.FirstErr)
	assert.Equal(t, charge.UnloadedQueries, rep.Queries.Unloaded.N)
	assert.Equal(t, 50, rep.Queries.Sent)
	assert.Zero(t, rep.Queries.Errors, rep.Queries.FirstError)
}
