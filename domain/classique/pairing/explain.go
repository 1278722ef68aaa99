package pairing

import "arbitre/domain/erreur"

// Why a pairing is what it is, for the director who publishes it: per
// table, the rematch it is (if any) and why its first player starts
// (§3.1), and why the bye is who he is. It explains any pairing of the
// round, the software's proposal or the director's amendment, from the
// same request the proposal was made from.

// StartReason is why a table's first player starts (§3.1: the software
// balances the number of times each player starts); Texte says it in French.
type StartReason string

// The reasons a first player starts.
const (
	DebutMoinsSouvent StartReason = "moins_souvent"
	DebutPlusSouvent  StartReason = "plus_souvent"
	DebutSecondAvant  StartReason = "second_avant"
	DebutPremierAvant StartReason = "premier_avant"
	DebutAlternance   StartReason = "alternance"
)

var textesDebut = map[StartReason]string{
	DebutMoinsSouvent: "a moins souvent commencé (§3.1)",
	DebutPlusSouvent:  "a plus souvent commencé : contraire à l'équilibre du §3.1",
	DebutSecondAvant:  "était second à sa dernière partie (§3.1)",
	DebutPremierAvant: "commençait déjà sa dernière partie : contraire au §3.1",
	DebutAlternance:   "départs égaux : alternance selon le numéro de table (§3.1)",
}

// Texte is the reason in French.
func (s StartReason) Texte() string { return textesDebut[s] }

// ByeReason is why the bye (the player paired against the fictitious
// player) is who he is; Texte says it in French.
type ByeReason string

// The reasons of the bye.
const (
	ExemptDernier    ByeReason = "dernier"
	ExemptChoisi     ByeReason = "choisi"
	ExemptDejaExempt ByeReason = "deja_exempt"
)

var textesExempt = map[ByeReason]string{
	ExemptDernier:    "le moins bien classé des joueurs jamais exemptés",
	ExemptChoisi:     "choix du directeur : un joueur moins bien classé n'a jamais été exempt",
	ExemptDejaExempt: "déjà exempt à une ronde précédente",
}

// Texte is the reason in French, "" for none.
func (b ByeReason) Texte() string { return textesExempt[b] }

// TableReason explains one table.
type TableReason struct {
	Number int
	// RepeatOf is the round the two players last met in, 0 when they never
	// did.
	RepeatOf int
	// Start says why First starts.
	Start StartReason
}

// Explanation explains a pairing.
type Explanation struct {
	Tables []TableReason
	// Repeats counts the tables that are rematches: 0 when all were avoided.
	Repeats int
	// Bye says why the bye is who he is, "" with no bye.
	Bye ByeReason
}

// Explain gives the reasons of a pairing of req's round. Players unknown to
// req are refused with a coded *erreur.Erreur.
func Explain(req Request, tables []Table, bye PlayerID) (Explanation, error) {
	r, err := newRoster(req)
	if err != nil {
		return Explanation{}, err
	}
	if err := r.known(bye); err != nil {
		return Explanation{}, err
	}
	var ex Explanation
	for _, tb := range tables {
		if err := r.known(tb.First, tb.Second); err != nil {
			return Explanation{}, err
		}
		first, second := r.index[tb.First], r.index[tb.Second]
		reason := TableReason{Number: tb.Number, RepeatOf: lastMeeting(req.History, tb.First, tb.Second), Start: r.startReason(first, second)}
		if reason.RepeatOf > 0 {
			ex.Repeats++
		}
		ex.Tables = append(ex.Tables, reason)
	}
	if bye != "" {
		ex.Bye = r.byeReason(r.index[bye])
	}
	return ex, nil
}

// known refuses ids the request does not register ("" stands for no bye).
func (r *roster) known(ids ...PlayerID) error {
	for _, id := range ids {
		if _, ok := r.index[id]; !ok && id != "" {
			return erreur.Refus(CodeUnknownPlayerInHistory, "Appariement inexplicable : %q n'est pas inscrit", id)
		}
	}
	return nil
}

// lastMeeting is the latest round a and b met in, 0 when never.
func lastMeeting(history []Meeting, a, b PlayerID) int {
	last := 0
	for _, m := range history {
		if (m.First == a && m.Second == b || m.First == b && m.Second == a) && m.Round > last {
			last = m.Round
		}
	}
	return last
}

// startReason says why first starts against second, by the rules orient
// applies.
func (r *roster) startReason(first, second int) StartReason {
	bf, bs := r.startBalance(first), r.startBalance(second)
	lf, ls := r.startedLast[first], r.startedLast[second]
	switch {
	case bf < bs:
		return DebutMoinsSouvent
	case bf > bs:
		return DebutPlusSouvent
	case lf != 0 && ls != 0 && lf < ls:
		return DebutSecondAvant
	case lf != 0 && ls != 0 && lf > ls:
		return DebutPremierAvant
	}
	return DebutAlternance
}

// byeReason says why bye is the bye, by the standings.
func (r *roster) byeReason(bye int) ByeReason {
	if r.players[bye].HadBye {
		return ExemptDejaExempt
	}
	ranked := r.active()
	r.byStanding(ranked)
	pos, err := r.lowestEligibleForBye(ranked)
	if err == nil && ranked[pos] != bye {
		return ExemptChoisi
	}
	return ExemptDernier
}
