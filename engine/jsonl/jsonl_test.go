package jsonl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/jsonl"
)

// TestJSONL_LigneBlancheIgnoree: a blank line, empty or white space only,
// gets no answer; every other line gets one, in order, HTML unescaped.
func TestJSONL_LigneBlancheIgnoree(t *testing.T) {
	in := "a\n\n   \n\t\r\nb<c>\n"
	var out bytes.Buffer
	tally, err := jsonl.Run(strings.NewReader(in), &out, func(line []byte) any { return string(line) })
	require.NoError(t, err)
	assert.Equal(t, jsonl.Tally{Lines: 2}, tally)
	assert.Equal(t, "\"a\"\n\"b<c>\"\n", out.String())
}

// Issue 27 item 8: a line over MaxLine (16 MiB) lost the whole batch, the
// answers before it included. It now gets a failure line of its own, and
// every other line its answer, in order, whichever worker count.
func TestJSONL_LigneTropLongueNePerdPasLeLot(t *testing.T) {
	long := strings.Repeat("x", jsonl.MaxLine+1)
	cases := []struct {
		name string
		in   string
	}{
		{"between two lines", "a\n" + long + "\nb\n"},
		{"last, without end of line", "a\nb\n" + long},
		{"at MaxLine exactly, answered", "a\n" + long[1:] + "\r\nb"},
	}
	for _, tc := range cases {
		for _, workers := range []int{1, 2} {
			t.Run(tc.name, func(t *testing.T) {
				answers := make([]func([]byte) any, workers)
				for i := range answers {
					answers[i] = func(line []byte) any {
						if len(line) > 1 {
							return len(line)
						}
						return string(line)
					}
				}
				var out bytes.Buffer
				tally, err := jsonl.RunWorkers(strings.NewReader(tc.in), &out, answers)
				require.NoError(t, err)
				lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
				require.Len(t, lines, 3)
				if strings.Contains(tc.name, "exactly") {
					assert.Equal(t, jsonl.Tally{Lines: 3}, tally)
					assert.Equal(t, []string{`"a"`, "16777216", `"b"`}, lines)
					return
				}
				assert.Equal(t, jsonl.Tally{Lines: 3, Failures: 1}, tally)
				assert.Equal(t, `"a"`, lines[0])
				failure := lines[1]
				if strings.Contains(tc.name, "last") {
					assert.Equal(t, `"b"`, lines[1])
					failure = lines[2]
				} else {
					assert.Equal(t, `"b"`, lines[2])
				}
				assert.Equal(t, `{"id":null,"error":"ligne de plus de 16777216 octets (16 Mio) : non lue, les autres lignes ont leur réponse"}`, failure)
			})
		}
	}
}
