package matchclassique

// Points de match of the feuille de match (§7): victory 3, draw 2, defeat 1;
// 0 for the loser of a forfeit, of a unilateral abandon or of an arbiter's
// decision (§9).
const (
	PointsVictoire = 3
	PointsNul      = 2
	PointsDefaite  = 1
	PointsSanction = 0
)

// Scores of the abandon table (§9).
const (
	ScoreAbandonVainqueur   = 450
	ScoreAbandonAbandonnant = 350
	EcartAbandon            = 100
)

// Vainqueur applies §7 gain de la partie: the player with at least one point
// more wins, otherwise ex æquo. It returns the loser (-1 for a draw) and the
// points de match.
func Vainqueur(scores [2]int) (perdant int, pointsDeMatch [2]int) {
	switch {
	case scores[0] > scores[1]:
		return 1, [2]int{PointsVictoire, PointsDefaite}
	case scores[1] > scores[0]:
		return 0, [2]int{PointsDefaite, PointsVictoire}
	}
	return -1, [2]int{PointsNul, PointsNul}
}

// AbandonScores is the table of §9 "abandon en cours de partie": the scores
// written for the winner and the abandoning player from their scores at the
// time of the abandon. The gap is the winner's score minus the abandoning
// player's (negative when the abandoning player leads). The table says
// "inférieur à 100" and "supérieur à 100"; a gap of exactly 100 is taken
// with the second pair of rows (the scores at the time stand), since the
// game is then already decided by 100 points.
//
//	gap < 100,  winner > 450  → winner's score, 350
//	gap < 100,  winner ≤ 450  → 450, 350
//	gap ≥ 100,  winner > 450  → both scores at the time
//	gap ≥ 100,  winner ≤ 450  → 450, abandoning player's score
func AbandonScores(vainqueur, abandonnant int) (int, int) {
	ecart := vainqueur - abandonnant
	switch {
	case ecart < EcartAbandon && vainqueur > ScoreAbandonVainqueur:
		return vainqueur, ScoreAbandonAbandonnant
	case ecart < EcartAbandon:
		return ScoreAbandonVainqueur, ScoreAbandonAbandonnant
	case vainqueur > ScoreAbandonVainqueur:
		return vainqueur, abandonnant
	}
	return ScoreAbandonVainqueur, abandonnant
}

// terminerSurSanction ends the game against player j (Sanction).
func (p *Match) terminerSurSanction(fin Fin, j int) MatchTermine {
	return Sanction(fin, j, p.scores)
}

// Sanction is the end of a game against player j: an abandon (agreed or
// not) or an arbiter's decision, scored from the scores at that time with
// the table of §9; with eight letters the loser loses by exactly 100
// points (§9). It serves the match and the director's entry of a paper
// feuille de match alike.
func Sanction(fin Fin, j int, scores [2]int) MatchTermine {
	v, a := AbandonScores(scores[1-j], scores[j])
	if fin == FinDefaiteHuitLettres {
		a = v - EcartAbandon
	}
	ev := MatchTermine{Fin: fin, Joueur: j, Perdant: j}
	ev.Scores[1-j], ev.Scores[j] = v, a
	ev.PointsDeMatch[1-j], ev.PointsDeMatch[j] = PointsVictoire, PointsSanction
	if fin == FinAbandon {
		ev.PointsDeMatch[j] = PointsDefaite
	}
	return ev
}

// Forfait is the forfeit of player j, absent at the start (§9 absence d'un
// joueur): 0 points de match, no scores.
func Forfait(j int) MatchTermine {
	fin := MatchTermine{Fin: FinForfait, Joueur: j, Perdant: j}
	fin.PointsDeMatch[1-j] = PointsVictoire
	return fin
}

// terminerReliquat is §7 reliquat épuisé: player f, who emptied his rack,
// gains the value of the opponent's letters, which the opponent loses.
func (p *Match) terminerReliquat(f int) MatchTermine {
	reste := ValeurChevalet(p.chevalets[1-f])
	ev := MatchTermine{Fin: FinReliquatEpuise, Joueur: f}
	ev.Ajustements[f], ev.Ajustements[1-f] = reste, -reste
	return p.conclure(ev)
}

// terminerEnDeduisant is §7 blocage, temps épuisé and refus de jeu (§4.2):
// each player deducts the value of his own letters.
func (p *Match) terminerEnDeduisant(fin Fin) MatchTermine {
	ev := MatchTermine{Fin: fin, Joueur: -1}
	for j := range 2 {
		ev.Ajustements[j] = -ValeurChevalet(p.chevalets[j])
	}
	return p.conclure(ev)
}

func (p *Match) conclure(ev MatchTermine) MatchTermine {
	for j := range 2 {
		ev.Scores[j] = p.scores[j] + ev.Ajustements[j]
	}
	ev.Perdant, ev.PointsDeMatch = Vainqueur(ev.Scores)
	return ev
}
