package enginetest

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"arbitre/engine/board"
	"arbitre/engine/tile"
)

// OraclePosition is one reference position of ../shared/oracle.
type OraclePosition struct {
	ID       string   `json:"id"`
	Stage    string   `json:"stage"`
	Rows     []string `json:"board"`
	RackText string   `json:"rack"`
	TopScore int      `json:"top_score"`
	Moves    int      `json:"moves"`
	Board    board.Board
	Rack     tile.Rack
}

// OraclePositions returns the reference positions of the given stage ("" for
// all), or skips when the oracle file is absent.
func OraclePositions(tb testing.TB, stage string) []OraclePosition {
	tb.Helper()
	f, err := os.Open(SharedPath("oracle/ods8_public.jsonl"))
	if err != nil {
		tb.Skipf("oracle positions not available (%v): skipped", err)
	}
	defer f.Close()
	var out []OraclePosition
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var p OraclePosition
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatalf("oracle line: %v", err)
		}
		if stage != "" && p.Stage != stage {
			continue
		}
		if p.Board, err = board.Parse(p.Rows); err != nil {
			tb.Fatalf("oracle %s: %v", p.ID, err)
		}
		if p.Rack, err = tile.ParseRack(p.RackText); err != nil {
			tb.Fatalf("oracle %s: %v", p.ID, err)
		}
		out = append(out, p)
	}
	return out
}
