// Package movegen generates every legal placement of a rack on a board with
// the GADDAG of package lexicon (Gordon's algorithm, one row at a time, the
// board transposed for columns) and scores each one incrementally (§1.2 of
// fisf-reglement-duplicate-2020.txt). Three recorders share one walk: count
// only, every move, and the top (every placement of maximum score).
package movegen

import "fmt"

// Variant is the formula's rack size and Scrabble bonuses (§1.2.3, §3.8.2).
type Variant struct {
	Name string
	// RackSize is the number of letters in a full tirage.
	RackSize int
	// MaxPlaced is the most tiles one coup may put down.
	MaxPlaced int
	// Bonus[n] is the prime for putting down n tiles.
	Bonus [10]int
}

// The formulas of §1.2.3 and §3.8.2.
var (
	// Standard: seven letters, 50 points for a Scrabble (§1.2.3).
	Standard = Variant{Name: "normal", RackSize: 7, MaxPlaced: 7, Bonus: [10]int{7: 50}}
	// SeptSurHuit: eight letters, at most seven put down, 50 for seven (§3.8.2).
	SeptSurHuit = Variant{Name: "7sur8", RackSize: 8, MaxPlaced: 7, Bonus: [10]int{7: 50}}
	// SeptEtHuit: eight letters, 50 for seven, 75 for eight (§3.8.2).
	SeptEtHuit = Variant{Name: "7et8", RackSize: 8, MaxPlaced: 8, Bonus: [10]int{7: 50, 8: 75}}
	// SeptHuitNeuf: nine letters, 50 for seven, 75 for eight, 100 for nine (§3.8.2).
	SeptHuitNeuf = Variant{Name: "789", RackSize: 9, MaxPlaced: 9, Bonus: [10]int{7: 50, 8: 75, 9: 100}}
)

// Variants lists the formulas by name.
var Variants = []Variant{Standard, SeptSurHuit, SeptEtHuit, SeptHuitNeuf}

// VariantNamed finds a formula by its name.
func VariantNamed(name string) (Variant, error) {
	for _, v := range Variants {
		if v.Name == name {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("unknown formula %q: normal, 7sur8, 7et8 or 789", name)
}
