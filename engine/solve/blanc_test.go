package solve

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
)

// TestJSONL_LigneBlancheIgnoreeParLesDeuxContrats: `engine solve` and
// `bulletin correct` share one batch runner, so a blank line (empty or
// white space only) gets no answer from either, while a bad line does.
func TestJSONL_LigneBlancheIgnoreeParLesDeuxContrats(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	in := "\n   \n\t\nnot json\n \r\n"
	runs := map[string]func(*bytes.Buffer) error{
		"engine solve": func(out *bytes.Buffer) error {
			_, err := NewSolver(lex, movegen.Options{}, false).Run(strings.NewReader(in), out)
			return err
		},
		"bulletin correct": func(out *bytes.Buffer) error {
			_, err := correction.NewBatch(lex).Run(strings.NewReader(in), out)
			return err
		},
	}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, run(&out))
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			require.Len(t, lines, 1, out.String())
			assert.Contains(t, lines[0], `"error":`)
		})
	}
}
