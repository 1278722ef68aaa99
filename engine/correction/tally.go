package correction

// FreeWarnings is the number of avertissements a player gets without
// penalty in a game (§5.9): three, five in blitz or an original formula.
func FreeWarnings(blitzOrOriginal bool) int {
	if blitzOrOriginal {
		return 5
	}
	return 3
}

// Tally is the §5.9 count of a player's avertissements over one game.
type Tally struct {
	// Warnings is the total, disciplinary ones included.
	Warnings int `json:"warnings"`
	// Nth[i] is the rank of the last avertissement of decision i (0: none).
	Nth []int `json:"nth"`
	// Penalty[i] is the points withdrawn for decision i's avertissements.
	Penalty []int `json:"penalty"`
	// Total is the sum withdrawn at the end of the game.
	Total int `json:"total"`
}

// CountWarnings applies §5.9 to a player's decisions in coup order: from the
// (free+1)-th avertissement on, each one withdraws five points; the total is
// withdrawn at the end of the game. Decisions are not changed.
func CountWarnings(ds []Decision, free int) Tally {
	t := Tally{Nth: make([]int, len(ds)), Penalty: make([]int, len(ds))}
	for i := range ds {
		for n := ds[i].Warnings(); n > 0; n-- {
			t.Warnings++
			t.Nth[i] = t.Warnings
			if t.Warnings > free {
				t.Penalty[i] += 5
				t.Total += 5
			}
		}
	}
	return t
}
