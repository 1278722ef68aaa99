package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
)

// solveCLI runs `arbitre engine solve ARGS` on the input and returns its
// output lines.
func solveCLI(t *testing.T, in string, args ...string) []string {
	t.Helper()
	rootCmd.SetIn(strings.NewReader(in))
	defer rootCmd.SetIn(nil)
	out, err := runArbitre(t, append([]string{"engine", "solve"}, args...)...)
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// TestEngineSolve_TopOnlyMemeContratSansMoves (issue 17): `engine solve
// --top-only` prints, line for line, the default output without "moves" —
// the same top score and the same tops in the same order — on seeded games
// from the empty board to the endgame with joker racks, in the normal
// formula and in 789 with a vertical first word (§3.8.2, §3.4); every other
// field of the contract is unchanged.
func TestEngineSolve_TopOnlyMemeContratSansMoves(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cases := []struct {
		name  string
		opts  movegen.Options
		flags []string
	}{
		{"normal", movegen.Options{Variant: movegen.Standard}, nil},
		{"789 premier mot vertical", movegen.Options{Variant: movegen.SeptHuitNeuf, FirstMoveVertical: true},
			[]string{"--variant", "789", "--first-vertical"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var in bytes.Buffer
			require.NoError(t, selfplay.WriteJSONL(&in, "cli", selfplay.Games(lex, tc.opts, 3, 2)))
			full := solveCLI(t, in.String(), tc.flags...)
			tops := solveCLI(t, in.String(), append(tc.flags, "--top-only")...)
			require.Len(t, tops, len(full))
			for i := range full {
				var want map[string]any
				require.NoError(t, json.Unmarshal([]byte(full[i]), &want))
				require.Contains(t, want, "moves")
				delete(want, "moves")
				var got map[string]any
				require.NoError(t, json.Unmarshal([]byte(tops[i]), &got))
				assert.Equal(t, want, got, "line %d", i+1)
				assert.NotContains(t, tops[i], `"moves"`)
			}
		})
	}
}

// TestEngineSolve_WorkersMemeSortie (issue 17): positions solved several at
// a time (--workers) give the output of one at a time, byte for byte and in
// input order, bad and blank lines included, over more lines than one batch.
func TestEngineSolve_WorkersMemeSortie(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	var in bytes.Buffer
	require.NoError(t, selfplay.WriteJSONL(&in, "w", selfplay.Games(lex, movegen.Options{Variant: movegen.Standard}, 5, 12)))
	lines := strings.Split(strings.TrimSuffix(in.String(), "\n"), "\n")
	require.Greater(t, len(lines), 256, "more than one batch")
	lines = append(lines[:40:40], append([]string{"pas du json", "   ", `{"id":"x","board":["..."],"rack":"A"}`}, lines[40:]...)...)
	input := strings.Join(lines, "\n")
	for _, mode := range [][]string{nil, {"--top-only"}} {
		one := solveCLI(t, input, append(mode, "--workers", "1")...)
		three := solveCLI(t, input, append(mode, "--workers", "3")...)
		require.Len(t, one, len(lines)-1, "the blank line gets no answer")
		assert.Equal(t, one, three)
	}
}
