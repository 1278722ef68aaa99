package matchclassique

import (
	"slices"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/repository"
	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// TailleChevalet is the number of letters of a full rack (§3.2.2, §4.1.4).
const TailleChevalet = 7

// MinimumEchange is the fewest letters the bag must hold for an exchange (§4.3).
const MinimumEchange = 7

// PassesConsecutives ends the game: three passes by each player (§4.2).
const PassesConsecutives = 6

// Phase is the stage of a match.
type Phase string

const (
	// PhaseTirageInitial: created, the first racks are being drawn (§3.2.2).
	PhaseTirageInitial Phase = "tirage_initial"
	// PhaseEnCours: the game is being played.
	PhaseEnCours Phase = "en_cours"
	// PhaseTerminee: the game is over, the feuille de match is being signed.
	PhaseTerminee Phase = "terminee"
	// PhaseValidee: the feuille de match is signed; the result counts.
	PhaseValidee Phase = "validee"
)

// Regles holds what commands need besides the state: the lexicon the
// arbiter checks words against (§5.1) and the engine's move checker with the
// classique options (vertical first word allowed). A server holds the rules
// of every lexicon it has loaded: a match is judged with the rules of the
// lexicon it was created under.
type Regles struct {
	lex     *lexicon.Lexicon
	checker *play.Checker
	// parLexique are the rules of every lexicon held, shared by all of them.
	parLexique map[lexicon.Identite]*Regles
}

// NewRegles builds the rules over a lexicon, the default for new matches,
// and over the others held for the matches created under them.
func NewRegles(lex *lexicon.Lexicon, autres ...*lexicon.Lexicon) (*Regles, error) {
	if lex == nil {
		return nil, erreur.Refus(CodeInvalidMatch, "Partie invalide : un lexique est nécessaire")
	}
	parLexique := map[lexicon.Identite]*Regles{}
	for _, l := range lexicon.NewBibliotheque(lex, autres...).Lexiques() {
		r := &Regles{lex: l, parLexique: parLexique,
			checker: play.NewChecker(l, movegen.Options{Variant: movegen.Standard, FirstMoveVertical: true})}
		// Under its former labels too: the matches recorded them.
		for _, id := range l.Identites() {
			parLexique[id] = r
		}
	}
	return parLexique[lex.Identite()], nil
}

// Lexique returns the lexicon.
func (r *Regles) Lexique() *lexicon.Lexicon { return r.lex }

// pour returns the rules of the lexicon a match recorded; a match recorded
// before matches recorded it (nil) keeps these rules, the server's default.
func (r *Regles) pour(id *lexicon.Identite) (*Regles, error) {
	if id == nil {
		return r, nil
	}
	if autre, ok := r.parLexique[*id]; ok {
		return autre, nil
	}
	return nil, erreur.LexiqueAbsent(*id)
}

// coupContestable is the last word placed, open to contestation (§5.2).
type coupContestable struct {
	joueur      int
	cases       []int
	tuiles      []tile.Tile
	mots        []string
	score       int
	chevalet    string
	tirees      tile.Rack
	passesAvant int
	finit       bool
}

// Match is the match aggregate. Its fields are unexported; it is built by
// Creer (a new match) or Rejouer (from recorded events).
type Match struct {
	aggregate.Base
	regles *Regles
	// sansLexique is LEXICON_NOT_LOADED when the match's lexicon is not held.
	sansLexique error

	creation    MatchCree
	phase       Phase
	sac         tile.Rack
	chevalets   [2]tile.Rack
	grille      board.Board
	scores      [2]int
	trait       int
	tirageDu    int
	aTirer      int
	dernier     *coupContestable
	passes      int
	tempsEpuise [2]bool
	abandon     int
	fin         *MatchTermine
	resultat    resultat
	signatures  [2]bool
	desaccord   bool
	validee     *FeuilleValidee
	journal     []Coup
}

// resultat is the current outcome of a finished game.
type resultat struct {
	scores        [2]int
	perdant       int
	pointsDeMatch [2]int
}

// sacComplet is the French set: 100 letters and 2 jokers (§2.1.1).
func sacComplet() tile.Rack {
	var r tile.Rack
	for l := range r {
		r[l] = uint8(tile.Letter(l).Count())
	}
	return r
}

// Apply is the one transition function, shared by commands and replay:
// it checks an event before changing anything.
func (p *Match) Apply(e any) error { return aggregate.Apply(&p.Base, p.appliquer, e) }

func (p *Match) appliquer(e any) error {
	if _, created := e.(MatchCree); !created && p.Version() == 0 {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : le premier événement doit être %s, et non %T", TypeMatchCree, e)
	}
	if j, ok := joueurNomme(e); ok && j != 0 && j != 1 {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : %T nomme le joueur %d, un match en a deux (0 et 1)", e, j)
	}
	var err error
	switch ev := e.(type) {
	case MatchCree:
		err = p.onCree(ev)
	case Tirage:
		err = p.onTirage(ev)
	case MotPlace:
		err = p.onMotPlace(ev)
	case Passe:
		p.onPasse(ev)
	case Echange:
		err = p.onEchange(ev)
	case ContestationTranchee:
		err = p.onContestation(ev)
	case Penalite:
		p.scores[ev.Joueur] -= ev.Points
		p.noter(Coup{Joueur: ev.Joueur, Genre: CoupPenalite, Chevalet: p.chevalets[ev.Joueur].String(), Motif: string(ev.Motif), Points: -ev.Points})
	case TempsEpuise:
		p.tempsEpuise[ev.Joueur] = true
	case AbandonDemande:
		p.abandon = ev.Joueur
	case AbandonRefuse:
		p.abandon = -1
	case MatchTermine:
		p.onTerminee(ev)
	case FeuilleSignee:
		p.signatures[ev.Joueur] = true
	case DesaccordSignale:
		p.desaccord = true
	case DesaccordTranche:
		p.desaccord = false
		p.signatures = [2]bool{}
		p.resultat = resultat{scores: ev.Scores, perdant: ev.Perdant, pointsDeMatch: ev.PointsDeMatch}
	case FeuilleValidee:
		p.phase = PhaseValidee
		v := ev
		p.validee = &v
	default:
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : événement de match %T inconnu", e)
	}
	return err
}

func (p *Match) onCree(ev MatchCree) error {
	if p.Version() != 0 {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : %s après le début du match", TypeMatchCree)
	}
	p.creation = ev
	if r, err := p.regles.pour(ev.Identite); err != nil {
		p.sansLexique = err
	} else {
		p.regles = r
	}
	p.phase = PhaseTirageInitial
	p.sac = sacComplet()
	p.trait = ev.Premier
	p.tirageDu, p.aTirer = ev.Premier, TailleChevalet
	p.abandon = -1
	return nil
}

func (p *Match) onTirage(ev Tirage) error {
	lettres, err := tile.ParseRack(ev.Lettres)
	if err != nil || !retirer(&p.sac, lettres) {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : le tirage %q n'est pas dans le sac", ev.Lettres)
	}
	ajouter(&p.chevalets[ev.Joueur], lettres)
	if p.dernier != nil && p.dernier.joueur == ev.Joueur {
		ajouter(&p.dernier.tirees, lettres)
	}
	p.tirageDu, p.aTirer = -1, 0
	if p.phase == PhaseTirageInitial {
		if ev.Joueur == p.creation.Premier {
			p.tirageDu, p.aTirer = 1-ev.Joueur, TailleChevalet
		} else {
			p.phase = PhaseEnCours
		}
	}
	return nil
}

func (p *Match) onMotPlace(ev MotPlace) error {
	ref, err := board.ParseRef(ev.Ref)
	if err != nil {
		return erreur.RefusCause(CodeCorruptHistory, err, "Historique illisible : référence %q illisible", ev.Ref)
	}
	mot, err := play.ParseWord(ev.Mot)
	if err != nil {
		return erreur.RefusCause(CodeCorruptHistory, err, "Historique illisible : mot posé %q illisible", ev.Mot)
	}
	coup := &coupContestable{joueur: ev.Joueur, mots: ev.Mots, score: ev.Score, chevalet: p.chevalets[ev.Joueur].String(), passesAvant: p.passes}
	// The rack is taken from a copy, the board set once every letter is
	// found: a refused play changes nothing.
	rack := p.chevalets[ev.Joueur]
	for i, sq := 0, ref.Start(); i < len(mot); i, sq = i+1, sq+ref.Step() {
		if sq >= board.Squares || p.grille.Square(sq) != tile.Empty {
			continue
		}
		t := mot[i]
		slot := t.Letter()
		if t.IsJoker() {
			slot = tile.NoLetter
		}
		if rack[slot] == 0 {
			return erreur.Refus(CodeCorruptHistory, "Historique illisible : le mot %s en %s utilise une lettre %c absente du chevalet", ev.Mot, ev.Ref, t.Byte())
		}
		rack[slot]--
		coup.cases = append(coup.cases, sq)
		coup.tuiles = append(coup.tuiles, t)
	}
	p.chevalets[ev.Joueur] = rack
	for i, sq := range coup.cases {
		p.grille.Set(sq/board.Size, sq%board.Size, coup.tuiles[i])
	}
	p.scores[ev.Joueur] += ev.Score
	p.passes = 0
	p.trait = 1 - ev.Joueur
	p.dernier = coup
	if n := min(TailleChevalet-rack.Size(), p.sac.Size()); n > 0 {
		p.tirageDu, p.aTirer = ev.Joueur, n
	} else if rack.Size() == 0 {
		coup.finit = true
	}
	pose := []byte(ev.Mot)
	for i, sq := 0, ref.Start(); i < len(pose); i, sq = i+1, sq+ref.Step() {
		if !slices.Contains(coup.cases, sq) {
			pose[i] = '.'
		}
	}
	p.noter(Coup{Joueur: ev.Joueur, Genre: CoupPlacement, Chevalet: coup.chevalet, Ref: ev.Ref, Mot: ev.Mot, Pose: string(pose), Points: ev.Score})
	return nil
}

func (p *Match) onPasse(ev Passe) {
	p.noter(Coup{Joueur: ev.Joueur, Genre: CoupPasse, Chevalet: p.chevalets[ev.Joueur].String()})
	p.passes++
	p.trait = 1 - ev.Joueur
	// §5.2: once the bag is empty the last play stays contestable until
	// the opponent places letters; a pass does not close the window.
	if p.sac.Size() > 0 {
		p.dernier = nil
	}
}

func (p *Match) onEchange(ev Echange) error {
	rejetees, err1 := tile.ParseRack(ev.Rejetees)
	tirees, err2 := tile.ParseRack(ev.Tirees)
	chevalet, sac := p.chevalets[ev.Joueur], p.sac
	if err1 != nil || err2 != nil || !retirer(&chevalet, rejetees) || !retirer(&sac, tirees) {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : l'échange de %q contre %q ne correspond ni au chevalet ni au sac", ev.Rejetees, ev.Tirees)
	}
	avant := p.chevalets[ev.Joueur].String()
	ajouter(&chevalet, tirees)
	ajouter(&sac, rejetees)
	p.chevalets[ev.Joueur], p.sac = chevalet, sac
	p.noter(Coup{Joueur: ev.Joueur, Genre: CoupEchange, Chevalet: avant, Lettres: rejetees.String()})
	p.passes = 0
	p.trait = 1 - ev.Joueur
	p.dernier = nil
	return nil
}

func (p *Match) onContestation(ev ContestationTranchee) error {
	coup := p.dernier
	if coup == nil {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : contestation sans coup à contester")
	}
	if r := p.chevalets[coup.joueur]; ev.Retire && !retirer(&r, coup.tirees) {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : coup retiré, lettres tirées absentes du chevalet")
	}
	p.dernier = nil
	if ev.Retire {
		rack := &p.chevalets[coup.joueur]
		retirer(rack, coup.tirees)
		ajouter(&p.sac, coup.tirees)
		for i, sq := range coup.cases {
			p.grille.Set(sq/board.Size, sq%board.Size, tile.Empty)
			if coup.tuiles[i].IsJoker() {
				rack[tile.NoLetter]++
			} else {
				rack[coup.tuiles[i].Letter()]++
			}
		}
		p.scores[coup.joueur] -= coup.score
		// §5.3: the author "passe son tour"; the passes announced since
		// the play (empty bag, §5.2) follow it.
		p.passes = coup.passesAvant + 1 + p.passes
		p.trait = ev.Contestataire
		if p.tirageDu == coup.joueur {
			p.tirageDu, p.aTirer = -1, 0
		}
		p.noter(Coup{Joueur: coup.joueur, Genre: CoupRetrait, Chevalet: coup.chevalet, Points: -coup.score})
	}
	if ev.Penalite > 0 {
		p.scores[ev.Contestataire] -= ev.Penalite
		p.noter(Coup{Joueur: ev.Contestataire, Genre: CoupPenaliteContestation, Chevalet: p.chevalets[ev.Contestataire].String(), Points: -ev.Penalite})
	}
	return nil
}

func (p *Match) onTerminee(ev MatchTermine) {
	for j := range 2 {
		if ev.Ajustements[j] != 0 {
			p.noter(Coup{Joueur: j, Genre: CoupFin, Lettres: p.chevalets[1-j].String(), Propre: p.chevalets[j].String(), Points: ev.Ajustements[j]})
		}
	}
	p.phase = PhaseTerminee
	p.dernier = nil
	p.tirageDu = -1
	v := ev
	p.fin = &v
	p.scores = ev.Scores
	p.resultat = resultat{scores: ev.Scores, perdant: ev.Perdant, pointsDeMatch: ev.PointsDeMatch}
}

// noter appends to the journal with the running total.
func (p *Match) noter(c Coup) {
	c.Cumul = p.scores[c.Joueur]
	if c.Genre == CoupFin {
		c.Cumul += c.Points
	}
	p.journal = append(p.journal, c)
}

// retirer subtracts x from r when r holds it, and reports whether it did.
func retirer(r *tile.Rack, x tile.Rack) bool {
	for l := range x {
		if x[l] > r[l] {
			return false
		}
	}
	for l := range x {
		r[l] -= x[l]
	}
	return true
}

func ajouter(r *tile.Rack, x tile.Rack) {
	for l := range x {
		r[l] += x[l]
	}
}

// ValeurChevalet is the sum of the values of a rack's letters, jokers worth 0 (§4.1.2, §7).
func ValeurChevalet(r tile.Rack) int {
	v := 0
	for l := 1; l < len(r); l++ {
		v += int(r[l]) * tile.Letter(l).Value()
	}
	return v
}

// ExigerLexique is LEXICON_NOT_LOADED when the match's lexicon is not loaded:
// nothing may be decided on it with another list.
func (p *Match) ExigerLexique() error { return p.sansLexique }

// Nouveau returns an empty match under regles, ready for Creer or a replay (the
// repository's new aggregate).
func Nouveau(regles *Regles) *Match { return &Match{regles: regles} }

// Rejouer rebuilds a match from its recorded events, in order.
func Rejouer(regles *Regles, events []any) (*Match, error) {
	return repository.Replay(Nouveau(regles), events)
}

// Copie is a copy of the match sharing nothing a transition changes.
func (p *Match) Copie() *Match {
	c := *p
	c.journal = slices.Clone(p.journal)
	if p.dernier != nil {
		d := *p.dernier
		c.dernier = &d
	}
	return &c
}

// joueur returns the index of a player of this match.
func (p *Match) joueur(id string) (int, error) {
	for j, x := range p.creation.Joueurs {
		if x == id && id != "" {
			return j, nil
		}
	}
	return -1, erreur.Refus(CodeUnknownPlayer, "Joueur inconnu : %q ne joue pas le match %s", id, p.creation.Match)
}

// ID is the match id.
func (p *Match) ID() string { return p.creation.Match }

// Creation is the match's opening event.
func (p *Match) Creation() MatchCree { return p.creation }

// Phase is the current stage.
func (p *Match) Phase() Phase { return p.phase }

// Finie says the game is over (terminee or validee): from then on its
// racks, exchanges and GCG are public; before, they are the table's.
func (p *Match) Finie() bool { return p.phase == PhaseTerminee || p.phase == PhaseValidee }

// Scores are the current scores, in the order of Creation().Joueurs.
func (p *Match) Scores() [2]int { return p.scores }

// Chevalet is a player's rack ('?' jokers).
func (p *Match) Chevalet(j int) tile.Rack { return p.chevalets[j] }

// Sac is the bag's content.
func (p *Match) Sac() tile.Rack { return p.sac }

// Grille is a copy of the board.
func (p *Match) Grille() board.Board { return p.grille }

// Trait is the index of the player whose turn it is.
func (p *Match) Trait() int { return p.trait }

// TirageDu is the index of the player who must draw and how many letters,
// or -1 and 0.
func (p *Match) TirageDu() (int, int) { return p.tirageDu, p.aTirer }

// Contestable returns the words of the last play and its author while the
// opponent may still contest it (§5.2).
func (p *Match) Contestable() (joueur int, mots []string, ok bool) {
	if p.dernier == nil {
		return -1, nil, false
	}
	return p.dernier.joueur, append([]string(nil), p.dernier.mots...), true
}

// FinEnAttente reports that the last play emptied the rack with an empty
// bag: the opponent may contest it, then closes the game (§5.2, §7).
func (p *Match) FinEnAttente() bool { return p.dernier != nil && p.dernier.finit }

// Passes is the number of consecutive passes (§4.2).
func (p *Match) Passes() int { return p.passes }

// TempsEpuise reports whether a player's clock ran out.
func (p *Match) TempsEpuise(j int) bool { return p.tempsEpuise[j] }

// Fin is the ending, once the game is over.
func (p *Match) Fin() (MatchTermine, bool) {
	if p.fin == nil {
		return MatchTermine{}, false
	}
	return *p.fin, true
}

// Resultat returns the scores, the loser (-1 for ex æquo) and the points de
// match recorded for the feuille de match, once the game is over.
func (p *Match) Resultat() (scores [2]int, perdant int, pointsDeMatch [2]int, ok bool) {
	if p.fin == nil {
		return [2]int{}, -1, [2]int{}, false
	}
	return p.resultat.scores, p.resultat.perdant, p.resultat.pointsDeMatch, true
}

// Feuille is the validated feuille de match, once both signed or the
// arbiter entered it.
func (p *Match) Feuille() (FeuilleValidee, bool) {
	if p.validee == nil {
		return FeuilleValidee{}, false
	}
	return *p.validee, true
}

// Journal is the game's score sheet: every coup with the running total.
func (p *Match) Journal() []Coup { return append([]Coup(nil), p.journal...) }

// GenreCoup is the kind of a line of the journal.
type GenreCoup string

// The kinds of journal lines.
const (
	CoupPlacement            GenreCoup = "placement"
	CoupPasse                GenreCoup = "passe"
	CoupEchange              GenreCoup = "echange"
	CoupRetrait              GenreCoup = "retrait"
	CoupPenaliteContestation GenreCoup = "penalite_contestation"
	CoupPenalite             GenreCoup = "penalite"
	CoupFin                  GenreCoup = "fin"
)

// Coup is one line of the journal. Chevalet is the rack before the coup;
// Mot the whole word placed and Pose the same with '.' for the letters
// already on the grid; Lettres the letters exchanged, or for CoupFin the
// opponent's remaining letters (Propre the player's own); Points the signed
// change; Cumul the player's total after it.
type Coup struct {
	Joueur   int
	Genre    GenreCoup
	Chevalet string
	Ref      string
	Mot      string
	Pose     string
	Lettres  string
	Propre   string
	Motif    string
	Points   int
	Cumul    int
}

// joueurNomme is the player an event acts for, when it names one (a
// finished game names -1 when nobody finished: it is not a player event).
func joueurNomme(e any) (int, bool) {
	switch ev := e.(type) {
	case Tirage:
		return ev.Joueur, true
	case MotPlace:
		return ev.Joueur, true
	case Passe:
		return ev.Joueur, true
	case Echange:
		return ev.Joueur, true
	case ContestationTranchee:
		return ev.Contestataire, true
	case Penalite:
		return ev.Joueur, true
	case TempsEpuise:
		return ev.Joueur, true
	case AbandonDemande:
		return ev.Joueur, true
	case FeuilleSignee:
		return ev.Joueur, true
	}
	return 0, false
}
