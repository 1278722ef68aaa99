package matchclassique

import (
	"fmt"
	"slices"
	"strings"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/board"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// Creation is the command that opens a match.
type Creation struct {
	Match   string
	Tournoi string
	Ronde   int
	Table   int
	// Manche is the game number of a best-of-three (1, 2 or 3), 0 for a
	// single game.
	Manche  int
	Joueurs [2]string
	// Premier is the starting player designated by the software (§3.1);
	// leave it empty to designate him by TirageAuSort instead.
	Premier string
	// TirageAuSort are the letters each player drew in turn to decide who
	// starts (§3.1), e.g. {"?EK", "EB"}: see PremierParTirage.
	TirageAuSort [2]string
	// PremierManche1 is who started game 1; required for game 2, which the
	// other player starts (§3.1).
	PremierManche1 string
}

// Creer opens the match: the first event of its stream (an empty match,
// Nouvelle, under its rules).
func (p *Match) Creer(c Creation) error {
	if p.Version() > 0 {
		return erreur.Refus(CodeAlreadyCreated, "le match %s existe déjà", p.ID())
	}
	if p.regles == nil {
		return erreur.Refus(CodeInvalidMatch, "Partie invalide : les règles sont nécessaires")
	}
	if _, err := streamname.MatchStream(c.Match); err != nil {
		return erreur.RefusCause(CodeInvalidMatch, err, "Identifiant de match %q invalide", c.Match)
	}
	a, b := c.Joueurs[0], c.Joueurs[1]
	switch {
	case a == "" || b == "":
		return erreur.Refus(CodeInvalidMatch, "Partie invalide : un match se joue à deux")
	case a == b:
		return erreur.Refus(CodeInvalidMatch, "Partie invalide : %q ne peut pas jouer contre lui-même", a)
	case c.Manche < 0 || c.Manche > 3:
		return erreur.Refus(CodeInvalidMatch, "Partie invalide : la manche %d d'un match en deux manches gagnantes n'existe pas", c.Manche)
	case c.Ronde < 0 || c.Table < 0:
		return erreur.Refus(CodeInvalidMatch, "Partie invalide : ronde %d, table %d", c.Ronde, c.Table)
	}
	ev := MatchCree{Match: c.Match, Tournoi: c.Tournoi, Ronde: c.Ronde, Table: c.Table, Manche: c.Manche,
		Joueurs: c.Joueurs, Lexique: p.regles.lex.Label()}
	identite := p.regles.lex.Identite()
	ev.Identite = &identite
	tirage := c.TirageAuSort[0] != "" || c.TirageAuSort[1] != ""
	switch {
	case c.Premier != "" && tirage:
		return erreur.Refus(CodeInvalidDesignator, "Désignation invalide : le premier joueur est désigné ou tiré au sort, pas les deux")
	case c.Premier == a || c.Premier == b:
		ev.Designation = ParLogiciel
		ev.Premier = slices.Index(c.Joueurs[:], c.Premier)
	case c.Premier != "":
		return erreur.Refus(CodeInvalidDesignator, "Désignation invalide : %q ne joue pas ce match (§3.1)", c.Premier)
	case tirage:
		premier, err := PremierParTirage(c.TirageAuSort)
		if err != nil {
			return err
		}
		ev.Designation, ev.Premier, ev.Tirages = ParTirageAuSort, premier, c.TirageAuSort[:]
	default:
		return erreur.Refus(CodeInvalidDesignator, "Désignation invalide : désigner le premier joueur ou tirer des lettres (§3.1)")
	}
	if c.Manche == 2 {
		m1 := slices.Index(c.Joueurs[:], c.PremierManche1)
		if m1 < 0 {
			return erreur.Refus(CodeInvalidDesignator, "Désignation invalide : la manche 2 demande qui a commencé la manche 1 (§3.1)")
		}
		if m1 == ev.Premier {
			return erreur.Refus(CodeInvalidDesignator, "Désignation invalide : la manche 2 commence par le joueur qui n'a pas commencé la manche 1 (§3.1)")
		}
		ev.PremierManche1 = c.PremierManche1
	}
	return aggregate.Record(p, ev)
}

// PremierParTirage decides who starts from the letters drawn (§3.1): each
// player's letters in the order drawn; jokers do not count and are drawn
// again; equal letters make both draw again; the letter closest to A
// starts. Every letter must have been needed. It returns 0 or 1.
func PremierParTirage(tirages [2]string) (int, error) {
	var seq [2][]tile.Letter
	for j, s := range tirages {
		ls, err := tile.ParseLetters(s)
		if err != nil {
			return -1, erreur.RefusCause(CodeInvalidDesignator, err, "Désignation invalide : lettres %q (§3.1)", s)
		}
		for _, l := range ls {
			if l != tile.NoLetter {
				seq[j] = append(seq[j], l)
			}
		}
	}
	for i := 0; i < len(seq[0]) && i < len(seq[1]); i++ {
		if seq[0][i] == seq[1][i] {
			continue
		}
		if len(seq[0]) != i+1 || len(seq[1]) != i+1 {
			return -1, erreur.Refus(CodeInvalidDesignator, "Désignation invalide : lettres tirées alors que le tirage au sort est déjà décidé")
		}
		if seq[0][i] < seq[1][i] {
			return 0, nil
		}
		return 1, nil
	}
	return -1, erreur.Refus(CodeInvalidDesignator, "Désignation invalide : les lettres tirées ne décident pas qui commence")
}

// Tirer records letters a player took from the bag: his seven first letters
// (§3.2.2, the starting player first) or those completing his rack after a
// word (§4.1.4: up to seven, or what is left).
func (p *Match) Tirer(joueur, lettres string) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseTirageInitial && p.phase != PhaseEnCours {
		return erreur.Refus(CodeWrongPhase, "Tirage impossible dans la phase %s", p.phase)
	}
	if p.tirageDu != j {
		return erreur.Refus(CodeInvalidDraw, "Tirage refusé : %s n'a pas de lettres à tirer maintenant", joueur)
	}
	r, err := tile.ParseRack(lettres)
	if err != nil {
		return erreur.RefusCause(CodeInvalidDraw, err, "Tirage refusé : %q illisible", lettres)
	}
	if r.Size() != p.aTirer {
		return erreur.Refus(CodeInvalidDraw, "Tirage refusé : %s doit tirer %d lettres, pas %d (§4.1.4)", joueur, p.aTirer, r.Size())
	}
	if sac := p.sac; !retirer(&sac, r) {
		return erreur.Refus(CodeInvalidDraw, "%q n'est pas dans le sac", lettres)
	}
	return aggregate.Record(p, Tirage{Joueur: j, Lettres: r.String()})
}

// aSonTour checks that a player may play a turn (place, pass, exchange).
func (p *Match) aSonTour(joueur string) (int, error) {
	j, err := p.joueur(joueur)
	if err != nil {
		return -1, err
	}
	switch {
	case p.phase != PhaseEnCours:
		return -1, erreur.Refus(CodeWrongPhase, "Aucun coup possible dans la phase %s", p.phase)
	case p.FinEnAttente():
		return -1, erreur.Refus(CodeEndPending, "Fin de partie en attente : la partie s'achève quand le dernier coup est contesté ou accepté (§7)")
	case p.trait != j:
		return -1, erreur.Refus(CodeNotYourTurn, "Ce n'est pas le tour de %s", joueur)
	case p.tirageDu >= 0:
		return -1, erreur.Refus(CodeDrawPending, "%s doit d'abord tirer ses lettres (§4.1.4)", p.creation.Joueurs[p.tirageDu])
	}
	return j, nil
}

// PlacerMot places a word (§4.1): ref in FISF notation ("H4" horizontal,
// "4H" vertical), mot the whole word along the line with every joker in
// lower case as the letter it stands for (§4.1.3). The placement must fit
// the grid and the rack; the engine scores it (§4.1.2). Words not in the
// lexicon are accepted: they stay unless contested (§5.4).
func (p *Match) PlacerMot(joueur, ref, mot string) error {
	j, err := p.aSonTour(joueur)
	if err != nil {
		return err
	}
	if p.tempsEpuise[j] {
		return erreur.Refus(CodeTimeExhausted, "Le temps de %s est épuisé : il ne peut plus que passer (§7)", joueur)
	}
	r, err := board.ParseRef(ref)
	if err != nil {
		return erreur.RefusCause(CodeInvalidPlacement, err, "Placement invalide : référence %q illisible", ref)
	}
	word, err := play.ParseWord(mot)
	if err != nil {
		return erreur.RefusCause(CodeInvalidPlacement, err, "Placement invalide : mot %q illisible", mot)
	}
	var res play.Result
	rack := p.chevalets[j]
	p.regles.checker.Check(&p.grille, r, word, &rack, &res)
	if res.Problem != play.OK {
		refuse := &erreur.Erreur{Code: CodeInvalidPlacement, Message: fmt.Sprintf("Placement invalide : %s en %s, %s", mot, ref, res.Problem.Motif())}
		return refuse.Avec("detail", res.Problem.String())
	}
	ev := MotPlace{Joueur: j, Ref: r.String(), Mot: tile.WordText(word), Score: int(res.Score)}
	var placees, jokers strings.Builder
	for i, sq := 0, r.Start(); i < len(word); i, sq = i+1, sq+r.Step() {
		if p.grille.Square(sq) == tile.Empty {
			placees.WriteByte(word[i].Byte())
			if word[i].IsJoker() {
				jokers.WriteByte(word[i].Letter().Byte())
			}
		}
	}
	ev.Placees, ev.Jokers = placees.String(), jokers.String()
	for i := 0; i < res.NWords; i++ {
		ev.Mots = append(ev.Mots, res.Words[i].Text())
	}
	return aggregate.Record(p, ev)
}

// Passer is "JE PASSE" (§4.2); the sixth consecutive pass ends the game,
// each player deducting his rack (§7 refus de jeu).
func (p *Match) Passer(joueur string) error {
	j, err := p.aSonTour(joueur)
	if err != nil {
		return err
	}
	events := []any{Passe{Joueur: j, Force: p.tempsEpuise[j]}}
	if p.passes+1 >= PassesConsecutives {
		events = append(events, p.terminerEnDeduisant(FinSixPasses))
	}
	return aggregate.Record(p, events...)
}

// Echanger is "JE CHANGE n LETTRES" (§4.3): allowed only while the bag
// holds at least seven letters, and not once the opponent's time is out
// (§7). tirees are taken from the bag before rejetees go back in.
func (p *Match) Echanger(joueur, rejetees, tirees string) error {
	j, err := p.aSonTour(joueur)
	if err != nil {
		return err
	}
	switch {
	case p.tempsEpuise[j]:
		return erreur.Refus(CodeTimeExhausted, "Le temps de %s est épuisé : il ne peut plus que passer (§7)", joueur)
	case p.tempsEpuise[1-j]:
		return erreur.Refus(CodeExchangeRefused, "Échange refusé : le temps de l'adversaire est épuisé, plus d'échange (§7)")
	case p.sac.Size() < MinimumEchange:
		return erreur.Refus(CodeExchangeRefused, "Échange refusé : %d lettres dans le sac, un échange en demande au moins %d (§4.3)", p.sac.Size(), MinimumEchange)
	}
	out, err1 := tile.ParseRack(rejetees)
	in, err2 := tile.ParseRack(tirees)
	switch {
	case err1 != nil || err2 != nil:
		return erreur.Refus(CodeExchangeRefused, "Échange refusé : lettres %q et %q illisibles", rejetees, tirees)
	case out.Size() == 0:
		return erreur.Refus(CodeExchangeRefused, "Échange refusé : un échange remet au moins une lettre (§4.3)")
	case out.Size() != in.Size():
		return erreur.Refus(CodeExchangeRefused, "Échange refusé : %d lettres remises et %d tirées, il en faut autant de chaque côté (§4.3)", out.Size(), in.Size())
	}
	if rack := p.chevalets[j]; !retirer(&rack, out) {
		return erreur.Refus(CodeExchangeRefused, "Échange refusé : %q n'est pas sur le chevalet de %s", rejetees, joueur)
	}
	if sac := p.sac; !retirer(&sac, in) {
		return erreur.Refus(CodeExchangeRefused, "%q n'est pas dans le sac", tirees)
	}
	return aggregate.Record(p, Echange{Joueur: j, Rejetees: out.String(), Tirees: in.String()})
}

// Contester submits words of the opponent's last play to the arbiter (§5.2)
// and applies §5.3: all refused → the play is withdrawn and its author
// passes his turn (it counts as a pass, §4.2: the sixth ends the game);
// all admitted → 5 points per word off the contester; mixed → withdrawn and
// 5 points per word contested wrongly. Withdrawn, it is the contester's
// turn. With an empty bag the window stays open over passes (§5.2). When
// the contested play ended the game and stays, the game ends (§7 reliquat
// épuisé).
func (p *Match) Contester(joueur string, mots []string) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseEnCours || p.dernier == nil || p.dernier.joueur != 1-j {
		return erreur.Refus(CodeNothingToContest, "Contestation impossible : %s n'a aucun coup de son adversaire à contester (§5.2)", joueur)
	}
	if len(mots) == 0 {
		return erreur.Refus(CodeInvalidContest, "Contestation invalide : nommer au moins un mot (§5.2)")
	}
	ev := ContestationTranchee{Contestataire: j}
	seen := map[string]bool{}
	for _, m := range mots {
		w, err := tile.ParseWord(m)
		if err != nil {
			return erreur.RefusCause(CodeInvalidContest, err, "Contestation invalide : mot contesté %q illisible", m)
		}
		key := strings.ToUpper(tile.WordText(w))
		if seen[key] {
			return erreur.Refus(CodeInvalidContest, "Contestation invalide : %s est contesté deux fois", m)
		}
		seen[key] = true
		if !slices.ContainsFunc(p.dernier.mots, func(w string) bool { return strings.EqualFold(w, key) }) {
			return erreur.Refus(CodeInvalidContest, "Contestation invalide : %s n'a pas été formé par le dernier coup %v", m, p.dernier.mots)
		}
		admis := p.regles.lex.ContainsString(key)
		ev.Verdicts = append(ev.Verdicts, Verdict{Mot: key, Admis: admis})
		if admis {
			ev.Penalite += PenaliteFixe
		} else {
			ev.Retire = true
		}
	}
	if ev.Retire {
		var reprises tile.Rack
		for _, t := range p.dernier.tuiles {
			if t.IsJoker() {
				reprises[tile.NoLetter]++
			} else {
				reprises[t.Letter()]++
			}
		}
		ev.ScoreRetire, ev.Reprises, ev.RemisesAuSac = p.dernier.score, reprises.String(), p.dernier.tirees.String()
	}
	// The game's end is computed once the verdict is applied: §7 « Une
	// fois appliquées les éventuelles pénalités », the contester's 5 points
	// included.
	auteur, finit := p.dernier.joueur, p.dernier.finit
	return aggregate.Decide(p, func(c *Match) error {
		if err := aggregate.Record(c, ev); err != nil {
			return err
		}
		switch {
		case !ev.Retire && finit:
			return aggregate.Record(c, c.terminerReliquat(auteur))
		case ev.Retire && c.passes >= PassesConsecutives:
			return aggregate.Record(c, c.terminerEnDeduisant(FinSixPasses))
		}
		return nil
	})
}

// Cloturer is the opponent of the player who emptied his rack with an
// empty bag accepting the last play: the game ends, the finisher gains the
// value of the opponent's letters, which the opponent loses (§7 reliquat
// épuisé).
func (p *Match) Cloturer(joueur string) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseEnCours || !p.FinEnAttente() || p.dernier.joueur != 1-j {
		return erreur.Refus(CodeWrongPhase, "%s n'a pas de partie terminée à clore (§7)", joueur)
	}
	return aggregate.Record(p, p.terminerReliquat(p.dernier.joueur))
}

// ConstaterBlocage ends a blocked game (§7 blocage): fewer than seven
// letters in the bag, so no exchange, and both players passed since the
// last word; each deducts his rack.
func (p *Match) ConstaterBlocage() error {
	switch {
	case p.phase != PhaseEnCours:
		return erreur.Refus(CodeWrongPhase, "Blocage impossible dans la phase %s", p.phase)
	case p.sac.Size() >= MinimumEchange:
		return erreur.Refus(CodeBlockageRefused, "Blocage refusé : %d lettres dans le sac, les joueurs peuvent encore échanger (§7)", p.sac.Size())
	case p.passes < 2:
		return erreur.Refus(CodeBlockageRefused, "Blocage refusé : les deux joueurs doivent avoir passé depuis le dernier mot (§7)")
	}
	return aggregate.Record(p, p.terminerEnDeduisant(FinBlocage))
}

// DeclarerTempsEpuise records that a player's clock ran out (§6, §7): he
// may only pass and contest from now on; when both clocks are out the game
// ends and each deducts his rack.
func (p *Match) DeclarerTempsEpuise(joueur string) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	switch {
	case p.phase != PhaseEnCours:
		return erreur.Refus(CodeWrongPhase, "Aucune pendule ne tourne dans la phase %s", p.phase)
	case p.tempsEpuise[j]:
		return erreur.Refus(CodeTimeExhausted, "Le temps de %s est déjà épuisé", joueur)
	}
	events := []any{TempsEpuise{Joueur: j}}
	if p.tempsEpuise[1-j] {
		events = append(events, p.terminerEnDeduisant(FinTempsEpuise))
	}
	return aggregate.Record(p, events...)
}

// Penaliser inflicts a penalty (§4.1.3, §8, §9): 5 points, per letter for
// letters drawn in excess or before the opponent (lettres ≥ 1 then, 0
// otherwise).
func (p *Match) Penaliser(joueur string, motif Motif, lettres int) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseTirageInitial && p.phase != PhaseEnCours {
		return erreur.Refus(CodeWrongPhase, "Pénalité impossible dans la phase %s", p.phase)
	}
	ev := Penalite{Joueur: j, Motif: motif}
	switch motif {
	case MotifLettresEnTrop, MotifTirageAnticipe:
		if lettres < 1 || lettres > tile.TotalTiles {
			return erreur.Refus(CodeInvalidPenalty, "Pénalité invalide : %s compte les lettres retournées, %d n'est pas un nombre valable", motif, lettres)
		}
		ev.Lettres, ev.Points = lettres, PenaliteFixe*lettres
	case MotifJokerErrone, MotifArbitre:
		if lettres != 0 {
			return erreur.Refus(CodeInvalidPenalty, "Pénalité invalide : %s ne se compte pas par lettre", motif)
		}
		ev.Points = PenaliteFixe
	default:
		return erreur.Refus(CodeInvalidPenalty, "Pénalité invalide : %q inconnue", motif)
	}
	return aggregate.Record(p, ev)
}

// DemanderAbandon is "J'abandonne" (§9); the opponent accepts or refuses.
func (p *Match) DemanderAbandon(joueur string) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	switch {
	case p.phase != PhaseEnCours:
		return erreur.Refus(CodeWrongPhase, "Abandon impossible dans la phase %s", p.phase)
	case p.abandon >= 0:
		return erreur.Refus(CodeAbandonRefused, "Abandon : une proposition attend déjà sa réponse")
	}
	return aggregate.Record(p, AbandonDemande{Joueur: j})
}

// RepondreAbandon is the opponent's answer (§9): accepted, the sheet is
// filled from the table (AbandonScores) and the loser keeps 1 point de
// match; refused, the game goes on.
func (p *Match) RepondreAbandon(joueur string, accepte bool) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseEnCours || p.abandon != 1-j {
		return erreur.Refus(CodeAbandonRefused, "Abandon : %s n'a aucune proposition d'abandon à laquelle répondre", joueur)
	}
	if !accepte {
		return aggregate.Record(p, AbandonRefuse{Joueur: j})
	}
	return aggregate.Record(p, p.terminerSurSanction(FinAbandon, 1-j))
}

// ConstaterAbandon is the arbiter entering the abandon of a player who left
// without his opponent's agreement (§9): the table applies and he scores 0
// points de match. The arbiter's entry is the feuille de match.
func (p *Match) ConstaterAbandon(joueur string) error {
	return p.sanctionArbitrale(joueur, FinAbandonUnilateral)
}

// DeclarerDefaite is a loss by the arbiter's decision (§8, §9), on the
// model of the unilateral abandon; huitLettres is the case of a player who
// played with eight letters or more, who loses by 100 points (§9).
func (p *Match) DeclarerDefaite(joueur string, huitLettres bool) error {
	fin := FinDefaiteArbitrale
	if huitLettres {
		fin = FinDefaiteHuitLettres
	}
	return p.sanctionArbitrale(joueur, fin)
}

// DeclarerForfait records the forfeit of a player absent at the start
// (§9 absence d'un joueur): 0 points de match, no scores.
func (p *Match) DeclarerForfait(joueur string) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseTirageInitial {
		return erreur.Refus(CodeWrongPhase, "Le forfait se déclare avant le début de la partie (§9)")
	}
	fin := Forfait(j)
	return aggregate.Record(p, fin, p.feuilleArbitre(fin))
}

func (p *Match) sanctionArbitrale(joueur string, fin Fin) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	if p.phase != PhaseEnCours {
		return erreur.Refus(CodeWrongPhase, "Sanction impossible dans la phase %s", p.phase)
	}
	ev := p.terminerSurSanction(fin, j)
	return aggregate.Record(p, ev, p.feuilleArbitre(ev))
}

func (p *Match) feuilleArbitre(fin MatchTermine) FeuilleValidee {
	f := p.feuille(fin.Scores, fin.Perdant, fin.PointsDeMatch, fin.Fin)
	f.ParArbitre = true
	return f
}

func (p *Match) feuille(scores [2]int, perdant int, pm [2]int, fin Fin) FeuilleValidee {
	c := p.creation
	return FeuilleValidee{Tournoi: c.Tournoi, Ronde: c.Ronde, Table: c.Table, Joueurs: c.Joueurs, Premier: c.Premier,
		Fin: fin, Scores: scores, Perdant: perdant, PointsDeMatch: pm}
}

// SignerFeuille is a player signing the feuille de match with the scores he
// reads on his own score sheet (§2.1.5, §7). Matching the recorded result it
// is a signature, and the second signature validates the sheet; otherwise it
// is a disagreement for the arbiter (§9 désaccord sur les totaux).
func (p *Match) SignerFeuille(joueur string, scores [2]int) error {
	j, err := p.joueur(joueur)
	if err != nil {
		return err
	}
	switch {
	case p.phase != PhaseTerminee:
		return erreur.Refus(CodeInvalidSheet, "Feuille de match : rien à signer dans la phase %s", p.phase)
	case p.desaccord:
		return erreur.Refus(CodeInvalidSheet, "Feuille de match : un désaccord attend la décision de l'arbitre")
	case p.signatures[j]:
		return erreur.Refus(CodeInvalidSheet, "Feuille de match : %s a déjà signé", joueur)
	}
	if scores != p.resultat.scores {
		return aggregate.Record(p, DesaccordSignale{Joueur: j, Scores: scores})
	}
	events := []any{FeuilleSignee{Joueur: j}}
	if p.signatures[1-j] {
		r := p.resultat
		events = append(events, p.feuille(r.scores, r.perdant, r.pointsDeMatch, p.fin.Fin))
	}
	return aggregate.Record(p, events...)
}

// TrancherDesaccord is the arbiter's decision on disputed scores (§4.1.2 d,
// §9): the result follows the decided scores (an agreed abandon keeps its
// loser) and both players sign again.
func (p *Match) TrancherDesaccord(scores [2]int) error {
	if p.phase != PhaseTerminee || !p.desaccord {
		return erreur.Refus(CodeInvalidSheet, "Feuille de match : aucun désaccord à trancher")
	}
	ev := DesaccordTranche{Scores: scores}
	if p.fin.Fin == FinAbandon {
		ev.Perdant, ev.PointsDeMatch = p.resultat.perdant, p.resultat.pointsDeMatch
	} else {
		ev.Perdant, ev.PointsDeMatch = Vainqueur(scores)
	}
	return aggregate.Record(p, ev)
}
