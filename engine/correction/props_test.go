package correction

import (
	"arbitre/engine/jsonl"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkDecision asserts the invariants every decision keeps: an allowed
// sanction, known reasons, paid within the top, and paid above the claimed
// score only where the rules pay the exact score (§5.3.2, §5.4.2.a:
// avertissement for a wrong or missing score).
func checkDecision(t *testing.T, cp *Coup, b *Bulletin, d Decision) {
	t.Helper()
	require.Contains(t, []Sanction{None, Warning, Penalty, Zero, Average}, d.Sanction)
	for _, r := range d.Reasons {
		require.Contains(t, reasonOrder, r)
	}
	require.GreaterOrEqual(t, d.Paid, 0)
	require.LessOrEqual(t, d.Paid, cp.Top(), "paid above the top")
	if d.Sanction == Zero || d.Sanction == Average {
		require.Zero(t, d.Paid)
	}
	var live []Solution
	for _, s := range b.Solutions {
		if !s.Crossed {
			live = append(live, s)
		}
	}
	if d.Sanction == Penalty && len(live) == 1 {
		// §5.6: the claimed score less 5 points.
		require.Equal(t, max(*live[0].Score-5, 0), d.Paid)
	}
	if len(live) == 1 && live[0].Score != nil && d.Paid > *live[0].Score {
		require.Equal(t, Warning, d.Sanction)
		require.True(t, slices.Contains(d.Reasons, ScoreWrong), "paid %d above claimed %d: %v", d.Paid, *live[0].Score, d.Reasons)
	}
}

func FuzzParseBulletin(f *testing.F) {
	f.Add([]byte(`{"missing":false,"blank":false,"several":false,"late":false,"exchanged":false,"illegible":false,"discipline":0,"solutions":[{"word":"MUTIN(E)R","written":"h","ref":"I7","raccord":[{"letter":"O","dr":-1,"dc":2}],"score":75,"crossed":false}]}`))
	f.Add([]byte(`{"solutions":[{"word":"CHE","written":"h","ref":null,"raccord":[{"letter":"M","dr":0,"dc":3},{"letter":"I","dr":0,"dc":4}],"score":null}]}`))
	f.Add([]byte(`{"solutions":[{"word":"OH","written":"v","ref":"8I","score":11},{"word":"AIE","written":"h","ref":"I3","score":7,"crossed":true}],"discipline":1}`))
	f.Add([]byte(`{"missing":true}`))
	f.Add([]byte(`{"solutions":[{"word":"(","written":"x"}]}`))
	lex := tinyLex(f)
	cp, err := NewCoup(lex, Context{Board: minerGrid, Tirage: tirage, Coup: 3, FirstWordLength: 5})
	require.NoError(f, err)
	x := NewCorrector(lex)
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseBulletin(data)
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.NotEmpty(t, e.Code)
			return
		}
		checkDecision(t, cp, &b, x.Decide(cp, &b))
	})
}

func FuzzDecide(f *testing.F) {
	f.Add("OH", "h", "I8", 11, "R", -1, 0, false, 3)
	f.Add("CH(E)MINER", "h", "H1", 39, "M", 0, 3, false, 3)
	f.Add("AIE", "h", "", 7, "M", -1, 2, false, 2)
	f.Add("AH", "h", "J6", 20, "A", 1, 1, true, 3)
	f.Add("MINER", "h", "H8", 16, "A", 0, 0, false, 1)
	f.Add("HOI", "v", "8E", 16, "R", 3, 0, false, 3)
	lex := tinyLex(f)
	coups := map[bool]*Coup{}
	for _, first := range []bool{false, true} {
		ctx := Context{Board: minerGrid, Tirage: tirage, Coup: 3, FirstWordLength: 5}
		if first {
			ctx = Context{Board: grid(nil), Tirage: "CEHIMN?", Coup: 1}
		}
		cp, err := NewCoup(lex, ctx)
		require.NoError(f, err)
		coups[first] = cp
	}
	x := NewCorrector(lex)
	f.Fuzz(func(t *testing.T, word, written, refText string, sc int, letter string, dr, dc int, withRef bool, coup int) {
		s := Solution{Word: word, Written: Sens(written), Score: &sc, Raccord: []RaccordLetter{{Letter: letter, DR: dr, DC: dc}}}
		if withRef || refText != "" {
			s.Ref = &refText
		}
		b := Bulletin{Solutions: []Solution{s}}
		if b.Validate() != nil {
			return
		}
		cp := coups[coup == 1]
		checkDecision(t, cp, &b, x.Decide(cp, &b))
	})
}

func TestValidationErrors(t *testing.T) {
	for _, tc := range []struct {
		name, json, code, path string
	}{
		{"unknown field", `{"solution":[]}`, ErrJSON, ""},
		{"bad word", `{"solutions":[{"word":"A1","written":"h"}]}`, ErrWord, "solutions[0].word"},
		{"no letter", `{"solutions":[{"word":"","written":"h"}]}`, ErrWord, "solutions[0].word"},
		{"open circle", `{"solutions":[{"word":"AB(C","written":"h"}]}`, ErrWord, "solutions[0].word"},
		{"sense", `{"solutions":[{"word":"AB","written":"x"}]}`, ErrWritten, "solutions[0].written"},
		{"raccord letter", `{"solutions":[{"word":"AB","written":"h","raccord":[{"letter":"?","dr":1,"dc":0}]}]}`, ErrRaccord, "solutions[0].raccord[0].letter"},
		{"raccord on the word", `{"solutions":[{"word":"AB","written":"h","raccord":[{"letter":"C","dr":0,"dc":1}]}]}`, ErrRaccord, "solutions[0].raccord[0]"},
		{"score", `{"solutions":[{"word":"AB","written":"h","score":-3}]}`, ErrScore, "solutions[0].score"},
		{"discipline", `{"discipline":-1}`, ErrDiscipline, "discipline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBulletin([]byte(tc.json))
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.code, e.Code)
			assert.Equal(t, tc.path, e.Path)
		})
	}
}

func TestContextErrors(t *testing.T) {
	lex := tinyLex(t)
	for _, tc := range []struct {
		name string
		ctx  Context
		code string
	}{
		{"board", Context{Board: []string{"..."}, Tirage: tirage, Coup: 3, FirstWordLength: 5}, ErrBoard},
		{"tirage", Context{Board: minerGrid, Tirage: "AB1", Coup: 3, FirstWordLength: 5}, ErrTirage},
		{"coup 1 on a full grid", Context{Board: minerGrid, Tirage: tirage, Coup: 1}, ErrCoup},
		{"first word length", Context{Board: minerGrid, Tirage: tirage, Coup: 3}, ErrCoup},
		{"variant", Context{Board: minerGrid, Tirage: tirage, Coup: 3, FirstWordLength: 5, Variant: "x"}, ErrVariant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCoup(lex, tc.ctx)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.code, e.Code)
		})
	}
}

// §5.9: the avertissements of a game are counted, disciplinary ones
// included; from the fourth (sixth in blitz or an original formula) each
// withdraws 5 points.
func TestCountWarningsSection59(t *testing.T) {
	w := Decision{Sanction: Warning}
	n := Decision{Sanction: None}
	zd := Decision{Sanction: Zero, DisciplineWarnings: 1}
	ds := []Decision{w, n, w, zd, w, w}
	tl := CountWarnings(ds, FreeWarnings(false))
	assert.Equal(t, 5, tl.Warnings)
	assert.Equal(t, []int{1, 0, 2, 3, 4, 5}, tl.Nth)
	assert.Equal(t, []int{0, 0, 0, 0, 5, 5}, tl.Penalty)
	assert.Equal(t, 10, tl.Total)
	assert.Equal(t, 0, CountWarnings(ds, FreeWarnings(true)).Total)
}

// §5.9: a non-admitted word repeated before the player was told earns the
// average (computed by the caller), capped at the solution proposed; an
// erreur de lettre never does.
func TestAverageSection59(t *testing.T) {
	lex := tinyLex(t)
	ctx := Context{Board: minerGrid, Tirage: tirage, Coup: 5, FirstWordLength: 5, Unnotified: []string{"OHE"}}
	b := one(sol("OHE", "h", ref("I8"), score(12)))
	d, err := Correct(lex, ctx, &b)
	require.NoError(t, err)
	assert.Equal(t, Average, d.Sanction)
	assert.Equal(t, 12, d.AverageCap)
	assert.Nil(t, d.ScoreWrittenBack)
	assert.Equal(t, []string{"OHE"}, d.NotAdmitted)

	ctx.Tirage = "CEHIMS?"
	b = one(sol("EAUX", "h", ref("I6"), score(30)))
	ctx.Unnotified = []string{"EAUX"}
	d, err = Correct(lex, ctx, &b)
	require.NoError(t, err)
	assert.Equal(t, Zero, d.Sanction)
}

// The events replay: recorrecting gives the same decision, and a recorded
// decision that differs is reported field by field.
func TestRecorrect(t *testing.T) {
	lex := tinyLex(t)
	cp, err := NewCoup(lex, Context{Board: minerGrid, Tirage: tirage, Coup: 3, FirstWordLength: 5})
	require.NoError(t, err)
	x := NewCorrector(lex)
	b := one(sol("OH", "h", ref("I8"), score(12)))
	d := x.Decide(cp, &b)
	raw, err := json.Marshal(d)
	require.NoError(t, err)
	var recorded Decision
	require.NoError(t, json.Unmarshal(raw, &recorded))
	_, diffs := x.Recorrect(cp, &b, recorded)
	assert.Empty(t, diffs)

	recorded.Paid, recorded.Engine = 12, "arbitre-correction/0"
	_, diffs = x.Recorrect(cp, &b, recorded)
	assert.Equal(t, []Difference{{"paid", "12", "11"}, {"engine", "arbitre-correction/0", EngineVersion}}, diffs)
}

// The batch contract: one answer per line, in order, errors per line.
func TestBatchContract(t *testing.T) {
	lex := tinyLex(t)
	board, _ := json.Marshal(minerGrid)
	in := strings.Join([]string{
		`{"id":"b1","board":` + string(board) + `,"tirage":"CEHIOA?","coup":3,"first_word_length":5,"bulletin":{"missing":false,"blank":false,"several":false,"late":false,"exchanged":false,"illegible":false,"discipline":0,"solutions":[{"word":"OH","written":"h","ref":"I8","raccord":[],"score":12,"crossed":false}]}}`,
		`{"id":2,"board":` + string(board) + `,"tirage":"CEHIOA?","coup":3,"first_word_length":5,"bulletin":{"missing":true}}`,
		`{"id":"bad","board":[],"tirage":"X","coup":3,"bulletin":{}}`,
		`{"id":"w","board":` + string(board) + `,"tirage":"CEHIOA?","coup":3,"first_word_length":5,"bulletin":{"solutions":[{"word":"O(","written":"h"}]}}`,
		`garbage`,
	}, "\n")
	var out strings.Builder
	tally, err := NewBatch(lex).Run(strings.NewReader(in), &out)
	require.NoError(t, err)
	assert.Equal(t, jsonl.Tally{Lines: 5, Failures: 3}, tally)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 5)
	assert.JSONEq(t, `{"id":"b1","paid":11,"sanction":"warning","reasons":["SCORE_WRONG"],"commission":false,"place":"I8","score_written_back":11}`, lines[0])
	assert.JSONEq(t, `{"id":2,"paid":0,"sanction":"zero","reasons":["MISSING"],"commission":false,"place":null,"score_written_back":0}`, lines[1])
	assert.Contains(t, lines[2], `"id":"bad","error":"BAD_BOARD`)
	assert.Contains(t, lines[3], `"id":"w","error":"BAD_WORD at bulletin.solutions[0].word`)
	assert.Contains(t, lines[4], `"id":null,"error":"BAD_JSON`)
}
