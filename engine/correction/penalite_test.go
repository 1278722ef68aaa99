package correction

import "testing"

// TestArt5_6_PenaliteSousCinqPoints: the −5 of §5.3.3/§5.6 is withdrawn
// from the score of the word even when it is under 5 points: NE at 6H scores
// 2, its bulletin without location pays 2 − 5 = −3, not a clamped 0 (which
// made the standings count 5 before the penalty, §3.5's solo comparison
// included).
func TestArt5_6_PenaliteSousCinqPoints(t *testing.T) {
	runCases(t, []decideCase{
		{name: "§5.6 NE for 2 without location: −3", board: minerGrid, tirage: tirage,
			bulletin: one(sol("NE", "v", nil, score(2))),
			want:     want{-3, Penalty, []Reason{RaccordMissing}, false, "6H"}},
	})
}
