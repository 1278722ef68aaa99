package solve

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest"
	"arbitre/engine/movegen"
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
		var wantTops []string
		single := false
		for _, tp := range want.Tops {
			wantTops = append(wantTops, tp.Word+" "+tp.Ref)
			single = single || tp.Single
		}
		var gotTops []string
		for _, tp := range got.Tops {
			gotTops = append(gotTops, tp.Word+" "+tp.Ref)
		}
		if !single {
			assert.ElementsMatch(t, wantTops, gotTops, "tops of %s", want.ID)
		} else {
			assert.Len(t, gotTops, len(wantTops), "tops of %s", want.ID)
		}
		n++
	}
	require.NoError(t, sc.Err())
	t.Logf("%d oracle positions checked", n)
}
