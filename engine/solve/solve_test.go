package solve

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// The batch contract of `arbitre engine solve`: one answer per line, in
// order, a bad line answered with its error while the run goes on.
func TestRunContract(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	empty := `["...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","..............."]`
	in := strings.Join([]string{
		`{"id":"p1","board":` + empty + `,"rack":"ZEN"}`,
		`{"id":"p2","board":["..."],"rack":"ZEN"}`,
		`not json`,
		`{"id":7,"board":` + empty + `,"rack":"Z#"}`,
		`{"id":"p5","board":` + empty + `,"rack":"???"}`,
		`{"id":"p6","board":` + empty + `,"rack":"Q"}`,
	}, "\n")
	var out bytes.Buffer
	require.NoError(t, NewSolver(lex, movegen.Options{}, false).Run(strings.NewReader(in), &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 6)
	assert.Equal(t, `{"id":"p1","top_score":24,"moves":7,"tops":[{"word":"ZEN","ref":"H6","score":24},{"word":"ZEN","ref":"H7","score":24},{"word":"ZEN","ref":"H8","score":24}]}`, lines[0])
	assert.Equal(t, `{"id":"p2","error":"board: 1 rows, want 15 (A to O)"}`, lines[1])
	assert.Contains(t, lines[2], `"error":"line is not a position`)
	assert.Contains(t, lines[3], `{"id":7,"error":"rack \"Z#\"`)
	assert.Equal(t, `{"id":"p5","error":"board and rack hold 3 × ?, the French set has 2"}`, lines[4])
	assert.Equal(t, `{"id":"p6","top_score":0,"moves":0,"tops":[]}`, lines[5])

	out.Reset()
	require.NoError(t, NewSolver(lex, movegen.Options{}, true).Run(strings.NewReader(`{"id":"a","board":`+empty+`,"rack":"EN"}`), &out))
	assert.Equal(t, `{"id":"a","top_score":4,"moves":4,"tops":[{"word":"EN","ref":"H7","score":4},{"word":"NE","ref":"H7","score":4},{"word":"EN","ref":"H8","score":4},{"word":"NE","ref":"H8","score":4}],"all":[{"word":"EN","ref":"H7","score":4},{"word":"NE","ref":"H7","score":4},{"word":"EN","ref":"H8","score":4},{"word":"NE","ref":"H8","score":4}]}`+"\n", out.String())
}

// Issue 11 item 4: a server's analysis stops with its request: an ended
// context gets its error and no analysis, a live one the answer.
func TestSecurite_AnalyseAnnulee(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	p := NewPool(lex)
	rack, err := tile.ParseRack("ZENEN??NE")
	require.NoError(t, err)
	var b board.Board
	opts := movegen.Options{Variant: movegen.SeptHuitNeuf}

	ended, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := p.Analyse(ended, &b, rack, opts, 10)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, Analysis{}, a)

	a, err = p.Analyse(context.Background(), &b, rack, opts, 10)
	require.NoError(t, err)
	assert.Positive(t, a.Moves)
	assert.NotEmpty(t, a.Best)
}
