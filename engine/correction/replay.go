package correction

import (
	"fmt"
	"slices"
)

// Difference is one field where a recorrection disagrees with the recorded
// decision.
type Difference struct {
	Field    string `json:"field"`
	Recorded string `json:"recorded"`
	Now      string `json:"now"`
}

// Recorrect corrects the bulletin again and compares with the recorded
// decision: an engine change must never silently change a past result. The
// engine versions are reported as a difference only when something else
// differs too.
func (x *Corrector) Recorrect(cp *Coup, b *Bulletin, recorded Decision) (Decision, []Difference) {
	now := x.Decide(cp, b)
	return now, Compare(recorded, now)
}

// Compare lists the differences between two decisions on the same bulletin.
func Compare(recorded, now Decision) []Difference {
	var out []Difference
	add := func(field string, a, b any) {
		if sa, sb := fmt.Sprint(a), fmt.Sprint(b); sa != sb {
			out = append(out, Difference{Field: field, Recorded: sa, Now: sb})
		}
	}
	add("paid", recorded.Paid, now.Paid)
	add("sanction", recorded.Sanction, now.Sanction)
	if !slices.Equal(recorded.Reasons, now.Reasons) {
		add("reasons", recorded.Reasons, now.Reasons)
	}
	add("commission", recorded.Commission, now.Commission)
	add("place", recorded.Place, now.Place)
	add("score_written_back", deref(recorded.ScoreWrittenBack), deref(now.ScoreWrittenBack))
	if !slices.Equal(recorded.NotAdmitted, now.NotAdmitted) {
		add("not_admitted", recorded.NotAdmitted, now.NotAdmitted)
	}
	add("average_cap", recorded.AverageCap, now.AverageCap)
	add("discipline_warnings", recorded.DisciplineWarnings, now.DisciplineWarnings)
	add("billet", recorded.Billet, now.Billet)
	if len(out) > 0 {
		add("engine", recorded.Engine, now.Engine)
	}
	return out
}

func deref(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
