package correction

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/enginetest"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// Guide §5.3, first coup, tirage AFLMSU?: the word (whose picture was lost
// in extraction) scores 78 in H2 and 74 in H4 with the joker as its first F.
// The word is found in ODS8 at run time, never written in the repository.
// §5.4.2.a of the 2020 regulation pays the maximum for the word whatever the
// circling, and warns when the score differs from it: where the guide pays
// 74 (circling of the first F) or spares the warning (a possible 74), the
// regulation, which wins, pays 78 with an avertissement.
func TestGuideFirstCoupAFLMSU(t *testing.T) {
	lex := enginetest.ODS8(t)
	rack, err := tile.ParseRack("AFLMSU?")
	require.NoError(t, err)
	var b board.Board
	moves, _ := movegen.New(lex, movegen.Options{Variant: movegen.Standard}).Generate(&b, rack, movegen.AllMoves)
	word := ""
	for i := range moves {
		m := &moves[i]
		if m.Score == 78 && m.Ref().String() == "H2" && strings.Count(strings.ToUpper(m.WordString()), "F") == 2 {
			word = strings.ToUpper(m.WordString())
		}
	}
	require.NotEmpty(t, word, "the guide's 78 in H2 with two F")
	firstF := strings.Replace(word, "F", "(F)", 1)
	x := NewCorrector(lex)
	cp, err := NewCoup(lex, Context{Board: grid(nil), Tirage: "AFLMSU?", Coup: 1})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		written string
		claimed *int
		want    want
	}{
		{"guide: 74 is possible in H4 (2020: the maximum, avertissement for a different score)", firstF, score(74),
			want{78, Warning, []Reason{ScoreWrong, JokerCircling}, false, "H2"}},
		{"guide: score missing, 78 in H2 (one avertissement, §5.8)", firstF, nil, want{78, Warning, []Reason{ScoreMissing, JokerCircling}, false, "H2"}},
		{"guide: joker not circled, score missing (2020: maximum, whatever the circling)", word, nil,
			want{78, Warning, []Reason{ScoreMissing, JokerCircling}, false, "H2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bl := one(sol(tc.written, "h", ref("H4"), tc.claimed))
			d := x.Decide(cp, &bl)
			assert.Equal(t, tc.want.paid, d.Paid)
			assert.Equal(t, tc.want.sanction, d.Sanction)
			assert.Equal(t, tc.want.reasons, d.Reasons)
			assert.Equal(t, tc.want.place, d.Place)
		})
	}
	// The 74 of the guide: the first F as joker in H4.
	f, ok := x.fitAt(cp, mustWritten(t, word).letters, 7, 3, false)
	require.True(t, ok)
	found := false
	for _, a := range f.asg {
		found = found || (a.playable && a.score == 74 && a.jokers == uint16(1)<<strings.Index(word, "F"))
	}
	assert.True(t, found, "74 in H4 with the joker as the first F")
}

func mustWritten(t *testing.T, s string) written {
	w, err := parseWritten(s)
	require.NoError(t, err)
	return w
}

// The fixtures of testdata/bulletins: cases.jsonl corrected with the word
// list words.txt gives decisions.jsonl, line for line (the batch contract).
func TestFixtures(t *testing.T) {
	const dir = "../../testdata/bulletins"
	words, err := os.Open(dir + "/words.txt")
	require.NoError(t, err)
	defer words.Close()
	lex, err := lexicon.Compile(words, "fixtures")
	require.NoError(t, err)
	in, err := os.ReadFile(dir + "/cases.jsonl")
	require.NoError(t, err)
	want, err := os.ReadFile(dir + "/decisions.jsonl")
	require.NoError(t, err)
	var got bytes.Buffer
	_, err = NewBatch(lex).Run(bytes.NewReader(in), &got)
	require.NoError(t, err)
	ws, gs := bufio.NewScanner(bytes.NewReader(want)), bufio.NewScanner(&got)
	for ws.Scan() {
		require.True(t, gs.Scan(), "missing answer for %s", ws.Text())
		assert.JSONEq(t, ws.Text(), gs.Text())
	}
	assert.False(t, gs.Scan(), "extra answers")
}
