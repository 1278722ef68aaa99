package solve

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/jsonl"
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
	tally, err := NewSolver(lex, movegen.Options{}, false).Run(strings.NewReader(in), &out)
	require.NoError(t, err)
	assert.Equal(t, jsonl.Tally{Lines: 6, Failures: 4}, tally)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 6)
	assert.Equal(t, `{"id":"p1","top_score":24,"moves":7,"tops":[{"word":"ZEN","ref":"H6","score":24},{"word":"ZEN","ref":"H7","score":24},{"word":"ZEN","ref":"H8","score":24}]}`, lines[0])
	assert.Equal(t, `{"id":"p2","error":"champ « board » : grille de 1 lignes, il en faut 15 (A à O)"}`, lines[1])
	assert.Contains(t, lines[2], `{"id":null,"error":"la ligne n'est pas un objet JSON`)
	assert.Contains(t, lines[3], `{"id":7,"error":"champ « rack » \"Z#\"`)
	assert.Equal(t, `{"id":"p5","error":"la grille et le tirage comptent 3 × ?, le jeu français n'en a que 2 (§1.1)"}`, lines[4])
	assert.Equal(t, `{"id":"p6","top_score":0,"moves":0,"tops":[]}`, lines[5])

	out.Reset()
	_, err = NewSolver(lex, movegen.Options{}, true).Run(strings.NewReader(`{"id":"a","board":`+empty+`,"rack":"EN"}`), &out)
	require.NoError(t, err)
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

// Issue 26 item 2: a line of `engine solve` is read strictly. A field the
// contract does not have ("tirage" for "rack"), a missing board or rack, an
// empty rack or one longer than the formula draws (§3.8.2) is an error line
// that names the field, where the old contract answered a top of 0.
func TestEngineSolve_EntreeStricteNommeLeChamp(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	empty := `["...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","...............","..............."]`
	cases := []struct {
		name, variant, line, want string
	}{
		{"a field of another name (tirage for rack)", "normal", `{"id":1,"board":` + empty + `,"tirage":"ZEN"}`, `champ « tirage » inconnu`},
		{"no rack", "normal", `{"id":1,"board":` + empty + `}`, `champ « rack » manquant`},
		{"no board", "normal", `{"id":1,"rack":"ZEN"}`, `champ « board » manquant`},
		{"an empty rack", "normal", `{"id":1,"board":` + empty + `,"rack":""}`, `champ « rack » vide`},
		{"§3.8.2 eight letters in the normal formula", "normal", `{"id":1,"board":` + empty + `,"rack":"ENENENEN"}`, `8 lettres, la formule « normal » en tire au plus 7`},
		{"§3.8.2 nine letters in 7sur8", "7sur8", `{"id":1,"board":` + empty + `,"rack":"ENENENENE"}`, `9 lettres, la formule « 7sur8 » en tire au plus 8`},
		{"a rack that is not a string", "normal", `{"id":1,"board":` + empty + `,"rack":7}`, `champ « rack » : valeur number, attendu une chaîne`},
		{"data after the object", "normal", `{"id":1,"board":` + empty + `,"rack":"ZEN"} {}`, `des données suivent`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := movegen.VariantNamed(tc.variant)
			require.NoError(t, err)
			var out bytes.Buffer
			tally, err := NewSolver(lex, movegen.Options{Variant: v}, false).Run(strings.NewReader(tc.line+"\n"+`{"id":2,"board":`+empty+`,"rack":"ZEN"}`), &out)
			require.NoError(t, err)
			assert.Equal(t, jsonl.Tally{Lines: 2, Failures: 1}, tally, "the batch goes on after the bad line")
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			require.Len(t, lines, 2)
			assert.Contains(t, lines[0], `{"id":1,"error":"`)
			assert.Contains(t, lines[0], tc.want)
			assert.Contains(t, lines[1], `{"id":2,"top_score":24`)
		})
	}
	t.Run("§3.8.2 eight letters in 7sur8 are a tirage", func(t *testing.T) {
		var out bytes.Buffer
		tally, err := NewSolver(lex, movegen.Options{Variant: movegen.SeptSurHuit}, false).Run(strings.NewReader(`{"id":3,"board":`+empty+`,"rack":"ENENENEN"}`), &out)
		require.NoError(t, err)
		assert.Equal(t, jsonl.Tally{Lines: 1}, tally)
		assert.Contains(t, out.String(), `"top_score":`)
	})
}
