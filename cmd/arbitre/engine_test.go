package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest/selfplay"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/movegen"
)

// solveCLI runs `arbitre engine solve ARGS` on the input and returns its
// output lines; the command ends in error when, and only when, some line
// is an error line.
func solveCLI(t *testing.T, in string, args ...string) []string {
	t.Helper()
	rootCmd.SetIn(strings.NewReader(in))
	defer rootCmd.SetIn(nil)
	out, err := runArbitre(t, append([]string{"engine", "solve"}, args...)...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	failures := 0
	for _, line := range lines {
		if strings.Contains(line, `"error":`) {
			failures++
		}
	}
	if failures == 0 {
		require.NoError(t, err)
	} else {
		require.EqualError(t, err, fmt.Sprintf("%d ligne(s) sur %d en erreur : chacune a sa ligne « error » dans la sortie", failures, len(lines)))
	}
	return lines
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

// Issue 26 item 2: the help of each batch contract shows one input line and
// its answer, and they are what the command answers (shipped lexicon); a
// bad line is an error line that names the field and the command ends in
// error once every line has its answer.
func TestEngineSolve_AideDonneLeContrat(t *testing.T) {
	cases := []struct {
		name           string
		cmd            []string
		entree, sortie string
	}{
		{"engine solve", []string{"engine", "solve"}, solveExempleEntree, solveExempleSortie},
		{"bulletin correct", []string{"bulletin", "correct"}, bulletinExempleEntree, bulletinExempleSortie},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			help, err := runArbitre(t, append(tc.cmd, "--help")...)
			require.NoError(t, err)
			assert.Contains(t, help, tc.entree)
			assert.Contains(t, help, tc.sortie)
			rootCmd.SetIn(strings.NewReader(strings.TrimSpace(tc.entree)))
			defer rootCmd.SetIn(nil)
			out, err := runArbitre(t, tc.cmd...)
			require.NoError(t, err)
			assert.Equal(t, strings.TrimSpace(tc.sortie)+"\n", out)
		})
	}
	t.Run("a bad line ends in error after every answer", func(t *testing.T) {
		bad := strings.Replace(strings.TrimSpace(solveExempleEntree), `"rack"`, `"tirage"`, 1)
		rootCmd.SetIn(strings.NewReader(bad + "\n" + strings.TrimSpace(solveExempleEntree)))
		defer rootCmd.SetIn(nil)
		out, err := runArbitre(t, "engine", "solve")
		require.EqualError(t, err, "1 ligne(s) sur 2 en erreur : chacune a sa ligne « error » dans la sortie")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 2)
		assert.Contains(t, lines[0], `{"id":"p1","error":"champ « tirage » inconnu`)
		assert.Equal(t, strings.TrimSpace(solveExempleSortie), lines[1])
	})
}
