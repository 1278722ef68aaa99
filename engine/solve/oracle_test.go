package solve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/board"
	"arbitre/engine/enginetest"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// oraclePosition is a line of ../shared/oracle/ods8_public.jsonl.
type oraclePosition struct {
	Position
	TopScore int `json:"top_score"`
	Moves    int `json:"moves"`
	Tops     []struct {
		Placement
		Single bool `json:"single"`
	} `json:"tops"`
}

// The engine must agree with the reference positions computed by an
// independent engine: exact top score, exact move count, exact set of tops.
func TestOracleODS8(t *testing.T) {
	lex := enginetest.ODS8(t)
	f, err := os.Open(enginetest.SharedPath("oracle/ods8_public.jsonl"))
	if err != nil {
		t.Skipf("oracle positions not available: %v", err)
	}
	defer f.Close()
	s := NewSolver(lex, movegen.Options{Variant: movegen.Standard}, false)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		var want oraclePosition
		require.NoError(t, json.Unmarshal(sc.Bytes(), &want))
		got, err := s.Solve(want.Position)
		require.NoError(t, err, string(want.ID))
		assert.Equal(t, want.TopScore, got.TopScore, "top score of %s", want.ID)
		assert.Equal(t, want.Moves, got.Moves, "moves of %s", want.ID)
		if want.Moves == 0 {
			assert.Empty(t, got.Tops, "tops of %s", want.ID)
			n++
			continue
		}
		require.NotEmpty(t, want.Tops, "the oracle lists the tops of %s", want.ID)
		single := false
		for _, tp := range want.Tops {
			single = single || tp.Single
		}
		if single {
			// A single tile forms words both ways: the oracle names one of
			// them, so the tops compare by the tiles they put down.
			b, err := board.Parse(want.Board)
			require.NoError(t, err)
			wantPlaces, gotPlaces := map[string]bool{}, map[string]bool{}
			for _, tp := range want.Tops {
				wantPlaces[placement(t, &b, tp.Placement)] = true
			}
			for _, tp := range got.Tops {
				gotPlaces[placement(t, &b, tp)] = true
			}
			assert.Equal(t, wantPlaces, gotPlaces, "tops of %s by placement", want.ID)
		} else {
			var wantTops, gotTops []string
			for _, tp := range want.Tops {
				wantTops = append(wantTops, tp.Word+" "+tp.Ref)
			}
			for _, tp := range got.Tops {
				gotTops = append(gotTops, tp.Word+" "+tp.Ref)
			}
			assert.ElementsMatch(t, wantTops, gotTops, "tops of %s", want.ID)
		}
		n++
	}
	require.NoError(t, sc.Err())
	t.Logf("%d oracle positions checked", n)
}

// placement names a move by the tiles it puts down on b: square and letter
// of each, in order along the word.
func placement(t *testing.T, b *board.Board, p Placement) string {
	t.Helper()
	r, err := board.ParseRef(p.Ref)
	require.NoError(t, err)
	word, err := play.ParseWord(p.Word)
	require.NoError(t, err)
	key := ""
	for i, sq := 0, r.Start(); i < len(word); i, sq = i+1, sq+r.Step() {
		if b.Square(sq) == tile.Empty {
			key += fmt.Sprintf("%d%c ", sq, word[i].Byte())
		}
	}
	require.NotEmpty(t, key, "%s %s puts a tile down", p.Word, p.Ref)
	return key
}
