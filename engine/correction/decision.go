package correction

import (
	"slices"
	"sort"
)

// EngineVersion identifies the correction rules of this package; it is
// recorded with every Decision so a replay can tell a rules change from a
// changed bulletin.
const EngineVersion = "arbitre-correction/3 (FISF duplicate 2020)"

// Sanction is the outcome of a bulletin (§5.5–§5.9).
type Sanction string

// The sanctions.
const (
	None    Sanction = "none"
	Warning Sanction = "warning" // avertissement (§5.5)
	Penalty Sanction = "penalty" // pénalité de 5 points (§5.6)
	Zero    Sanction = "zero"    // nullité (§5.7)
	Average Sanction = "average" // moyenne for a repeated non-admitted word (§5.9)
)

// severity orders sanctions for "la sanction la moins sévère" (§5.3 in fine).
func (s Sanction) severity() int {
	switch s {
	case None:
		return 0
	case Warning:
		return 1
	case Penalty:
		return 2
	case Average:
		return 3
	}
	return 4
}

// Reason is a box of the billet de correction (guide §5.2).
type Reason string

// The reason codes, in the order the billet lists them.
const (
	ScoreMissing          Reason = "SCORE_MISSING"            // (5)
	ScoreWrong            Reason = "SCORE_WRONG"              // (6)
	JokerCircling         Reason = "JOKER_CIRCLING"           // (7)
	RaccordTwoLetters     Reason = "RACCORD_TWO_LETTERS"      // (8)
	RaccordMissing        Reason = "RACCORD_MISSING"          // (20)
	RaccordWrong          Reason = "RACCORD_WRONG"            // (21)
	Inverted              Reason = "INVERTED"                 // (9), with REFERENCE_WRONG: (27)
	TwoReferencesOneWrong Reason = "TWO_REFERENCES_ONE_WRONG" // (10)
	ReferenceWrong        Reason = "REFERENCE_WRONG"          // (22)
	Offset                Reason = "OFFSET"                   // (15)
	FinalLetterOmitted    Reason = "FINAL_LETTER_OMITTED"     // (16)
	WordNotAdmitted       Reason = "WORD_NOT_ADMITTED"        // (19)
	LetterError           Reason = "LETTER_ERROR"             // (23)
	GridError             Reason = "GRID_ERROR"               // (18), (26)
	WordNotWhole          Reason = "WORD_NOT_WHOLE"           // (24)
	NotAWord              Reason = "NOT_A_WORD"               // §1.1, §5.7: a single letter
	HardToRead            Reason = "HARD_TO_READ"             // §5.5: presentation hard to read
	SeveralSolutions      Reason = "SEVERAL_SOLUTIONS"        // §5.4.2.b
	AboveTop              Reason = "ABOVE_TOP"                // §5.9
	FallaciousRaccord     Reason = "FALLACIOUS_RACCORD"       // §5.3.3
	Illegible             Reason = "ILLEGIBLE"                // (25)
	Late                  Reason = "LATE"                     // (29)
	Exchanged             Reason = "EXCHANGED"                // (30)
	Blank                 Reason = "BLANK"                    // (31)
	Missing               Reason = "MISSING"                  // (32)
	SeveralBulletins      Reason = "SEVERAL_BULLETINS"        // §5.7
	Discipline            Reason = "DISCIPLINE"               // (11), §5.8
)

var reasonOrder = map[Reason]int{}

func init() {
	for i, r := range []Reason{ScoreMissing, ScoreWrong, JokerCircling, RaccordTwoLetters, RaccordMissing,
		RaccordWrong, Inverted, TwoReferencesOneWrong, ReferenceWrong, Offset, FinalLetterOmitted,
		WordNotAdmitted, LetterError, GridError, WordNotWhole, NotAWord, HardToRead, SeveralSolutions, AboveTop, FallaciousRaccord,
		Illegible, Late, Exchanged, Blank, Missing, SeveralBulletins, Discipline} {
		reasonOrder[r] = i
	}
}

// Reasons lists every reason code, in billet order.
func Reasons() []Reason {
	out := make([]Reason, len(reasonOrder))
	for r, i := range reasonOrder {
		out[i] = r
	}
	return out
}

// Decision is the correction of one bulletin: what the billet de correction
// says and what the arbiter writes back. Its JSON form is stable: it is what
// the BulletinCorrected event carries.
type Decision struct {
	// Paid is the score credited for the coup (0 for a zéro and for an
	// average, which the caller computes over the arbiter's other players;
	// for a penalty, the word's score less 5, negative under 5 points: §5.6).
	Paid int `json:"paid"`
	// Sanction is the bulletin's sanction: at least a warning when the coup
	// has a disciplinary avertissement (§5.5), the first one being then the
	// sanction itself.
	Sanction Sanction `json:"sanction"`
	// Reasons are the billet's boxes, in billet order.
	Reasons []Reason `json:"reasons"`
	// Commission: the rules send this bulletin to the commission d'arbitrage
	// (possible intent to play on two boards, fallacious raccord, graphics:
	// §5.3.3, §6.3, 2014 §B.2 and §C).
	Commission bool `json:"commission"`
	// Place is the reference of the solution paid, "" when none.
	Place string `json:"place"`
	// ScoreWrittenBack is the score the arbiter writes in the bulletin's
	// arbitrage box (guide §5.1 (07)); nil for an average.
	ScoreWrittenBack *int `json:"score_written_back"`
	// NotAdmitted are the words not admitted, played or formed (§5.9, box 19).
	NotAdmitted []string `json:"not_admitted,omitempty"`
	// AverageCap bounds an average: never more than the solution proposed (§5.9).
	AverageCap int `json:"average_cap,omitempty"`
	// DisciplineWarnings are the disciplinary avertissements that cumulate
	// with the sanction (§5.8); when the bulletin itself deserved none, the
	// first one is the sanction and is not counted here.
	DisciplineWarnings int `json:"discipline_warnings,omitempty"`
	// Billet: a billet de correction must be sent (§5.9: not for a score
	// error on the top word, nor for a zéro above the top).
	Billet bool `json:"billet"`
	// Engine is EngineVersion at the time of the decision.
	Engine string `json:"engine"`
}

// MinPaid is the lowest score a decision can pay: a penalty withdraws 5
// from a word's score, 0 at the least, so −5 (§5.6); 0 otherwise.
func (d *Decision) MinPaid() int {
	if d.Sanction == Penalty {
		return -5
	}
	return 0
}

// Warnings is the number of avertissements the decision counts for §5.9.
func (d *Decision) Warnings() int {
	n := d.DisciplineWarnings
	if d.Sanction == Warning {
		n++
	}
	return n
}

// AddDiscipline gives n disciplinary avertissements on the coup (§5.5). They
// cumulate with the bulletin's sanction (§5.8); a bulletin without one gets
// the first as its sanction, a warning, so the decision never reads « no
// sanction » while the billet shows box (11). Warnings counts n more.
func (d *Decision) AddDiscipline(n int) {
	if n <= 0 {
		return
	}
	if d.Sanction == None {
		d.Sanction = Warning
		n--
	}
	d.DisciplineWarnings += n
	if !slices.Contains(d.Reasons, Discipline) {
		// Discipline is the billet's last box: appending keeps the order.
		d.Reasons = append(slices.Clone(d.Reasons), Discipline)
	}
	d.Billet = true
}

// DisciplineOnly reports whether the decision's warning is a disciplinary
// avertissement (AddDiscipline on a bulletin without sanction): a zéro that
// replaces it keeps it among the disciplinary ones (§5.8).
func (d *Decision) DisciplineOnly() bool {
	if d.Sanction != Warning || !slices.Contains(d.Reasons, Discipline) {
		return false
	}
	for _, r := range d.Reasons {
		if r != Discipline && r != SeveralSolutions {
			return false
		}
	}
	return true
}

// outcome is the decision on one solution, before bulletin-level facts.
type outcome struct {
	paid        int
	sanction    Sanction
	reasons     []Reason
	commission  bool
	place       string
	notAdmitted []string
	averageCap  int
}

func (o *outcome) add(rs ...Reason) { o.reasons = append(o.reasons, rs...) }

// worse reports whether a is less favourable to the player than b: lower
// paid, then more severe.
func worse(a, b *outcome) bool {
	if a.paid != b.paid {
		return a.paid < b.paid
	}
	return a.sanction.severity() > b.sanction.severity()
}

// milder reports whether a is the less severe sanction (§5.3 in fine), then
// the better paid.
func milder(a, b *outcome) bool {
	if a.sanction.severity() != b.sanction.severity() {
		return a.sanction.severity() < b.sanction.severity()
	}
	return a.paid > b.paid
}

// normalise sorts and dedupes reasons in billet order.
func normalise(rs []Reason) []Reason {
	out := make([]Reason, 0, len(rs))
	seen := map[Reason]bool{}
	for _, r := range rs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return reasonOrder[out[i]] < reasonOrder[out[j]] })
	return out
}
