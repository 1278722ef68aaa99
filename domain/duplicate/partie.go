// Package duplicate is the duplicate game (partie) of
// fisf-reglement-duplicate-2020.txt §3 as an event-sourced aggregate. Every
// decision of the director is an event; a command method checks the rules
// against the current state and records events, and recording runs the same
// transition (apply) that rebuilds the game from its stream.
package duplicate

import (
	"arbitre/engine/lexicon"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/engine/board"
	"arbitre/engine/correction"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// Statut is where the game stands between commands.
type Statut string

// The states of a game.
const (
	StatutAttenteTirage Statut = "attente_tirage" // before a tirage
	StatutTirage        Statut = "tirage"         // tirage announced, coup being played
	StatutTop           Statut = "top"            // top announced
	StatutInterrompue   Statut = "interrompue"
	StatutTerminee      Statut = "terminee"
)

// dureeInterruption is the longest interruption a game survives (§3.7,
// guide §2.13).
const dureeInterruption = 15 * time.Minute

// joueur is a player's standing in the game.
type joueur struct {
	premierCoup int  // §6.2: earlier coups count zero
	elimineAu   int  // the coup he was eliminated on (§3.8.3), 0 while in
	enRetard    bool // added after the game's creation (JoueurArrive)
}

// joueursAEcrire are the game's players, its own to write (partage.go),
// made for prevus players when there are none yet.
func (p *Partie) joueursAEcrire(prevus int) *parJoueur[joueur] {
	p.joueurs = p.joueurs.modifiable(prevus)
	return p.joueurs
}

// avantTop is what a coup's top changed, to annul the coup afterwards (§3.6).
type avantTop struct {
	grille board.Board
	lettre lettres
}

// Partie is the aggregate of one duplicate game.
type Partie struct {
	aggregate.Base
	id      string
	tournoi string
	numero  int
	config  Config
	moteur  Moteur
	// sansLexique is LEXICON_NOT_LOADED when the engines do not hold the
	// lexicon the game was created under.
	sansLexique error
	// lexique is the word list the game was created under (nil for a game
	// created before it was recorded); never changed after, copies share it.
	lexique *lexicon.Identite
	// pause is the start of the current interruption (§3.7): the server's
	// wall time and, when its clock has one, its monotonic reading.
	pause eventstore.Instant

	statut       Statut
	avantPause   Statut
	prochainCoup int
	grille       board.Board
	lettres      lettres
	reliquat     string // announced reliquat of the current tirage
	tirees       string // new letters of the current tirage
	jokerAjoute  bool
	auChoix      bool
	interdit     *tile.Rack // tirage of the last annulled coup (§3.6)
	avant        avantTop
	chrono       Chrono
	tops         map[int]TopRetenu
	ramasses     map[int]bool
	joueurs      *parJoueur[joueur]
	discipline   Discipline
	contextes    map[int]contexte
	premierMot   int // length of the word of coup 1 (§4.3.2, §5.5)
	deposes      parCoup[BulletinDepose]
	corrections  parCoup[BulletinCorrige]
	contre       parCoup[DoubleArbitrage]
	decisions    parCoup[correction.Decision]
	// commissions are the commission's decisions on appeal that are the
	// bulletins' decisions in force (§6.3).
	commissions parCoup[DecisionCommission]
	billets     parCoup[bool]
	renvois     parCoup[bool] // bulletins sent to the commission
	elimines    map[int]bool
	toppings    parCoup[TopTrouve] // §3.8.4
	// appels are the appeal decisions recorded, by appeal and level.
	appels map[decisionAppel]bool
	fin    *PartieTerminee
	// clos: the director closed the results (ResultatsClos).
	clos bool
	// rejets are the tirages rejected since the last tirage played (§3.2, §3.6).
	rejets []TirageRejete
	// feuille is the sheet of a pre-drawn game, once loaded (guide §2.17);
	// never changed after, so copies share it.
	feuille *Feuille
	// lecture is where the repository read the game, kept for its next
	// save (repository glue: the domain never looks at it).
	lecture repository.FamilyRead
}

// Nouvelle returns an empty game, ready for Creer or for replaying its
// stream with Appliquer. moteur validates tops; replays never use it.
func Nouvelle(moteur Moteur) *Partie {
	return &Partie{
		moteur:      moteur,
		tops:        map[int]TopRetenu{},
		ramasses:    map[int]bool{},
		contextes:   map[int]contexte{},
		deposes:     parCoup[BulletinDepose]{},
		corrections: parCoup[BulletinCorrige]{},
		contre:      parCoup[DoubleArbitrage]{},
		decisions:   parCoup[correction.Decision]{},
		commissions: parCoup[DecisionCommission]{},
		billets:     parCoup[bool]{},
		renvois:     parCoup[bool]{},
		elimines:    map[int]bool{},
		toppings:    parCoup[TopTrouve]{},
		appels:      map[decisionAppel]bool{},
	}
}

// ID is the game's identifier.
func (p *Partie) ID() string { return p.id }

// ExigerLexique is LEXICON_NOT_LOADED when the game's lexicon is not loaded:
// nothing may be decided on it with another list.
func (p *Partie) ExigerLexique() error { return p.sansLexique }

// Config is the configuration fixed at creation.
func (p *Partie) Config() Config { return p.config }

// Lexique is the word list the game is judged with, as recorded at its
// creation; nil for a game created before it was recorded.
func (p *Partie) Lexique() *lexicon.Identite { return p.lexique }

// Statut is the state of the game.
func (p *Partie) Statut() Statut { return p.statut }

// Grille is the grid.
func (p *Partie) Grille() board.Board { return p.grille }

// Rack is the letters in front of the players: the tirage during a coup,
// the reliquat between coups.
func (p *Partie) Rack() tile.Rack { return p.lettres.rack }

// Sac is the letters left in the bag.
func (p *Partie) Sac() tile.Rack { return p.lettres.sac }

// ProchainCoup is the number of the coup the next tirage is for.
func (p *Partie) ProchainCoup() int { return p.prochainCoup }

// Top returns the top of a coup.
func (p *Partie) Top(coup int) (TopRetenu, bool) {
	t, ok := p.tops[coup]
	return t, ok
}

// Fin returns how the game ended, or nil.
func (p *Partie) Fin() *PartieTerminee { return p.fin }

// Joueurs lists the players still in the game (neither eliminated nor
// excluded, §6.1), sorted.
func (p *Partie) Joueurs() []string {
	out := make([]string, 0, p.joueurs.len())
	for l, j := range p.joueurs.tous() {
		if j.elimineAu == 0 && !p.discipline.Exclu(l) {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// Attendus lists the players whose bulletin coup n awaits: still in the
// game and not arrived after it (§6.2), sorted.
func (p *Partie) Attendus(n int) []string {
	out := []string{}
	for _, l := range p.Joueurs() {
		if j, _ := p.joueurs.lire(l); n >= j.premierCoup {
			out = append(out, l)
		}
	}
	return out
}

// Lecture is where the repository read the game (its stream and its
// tables' streams), for the next save.
func (p *Partie) Lecture() repository.FamilyRead { return p.lecture }

// Lue records where the repository read the game or saved it last.
func (p *Partie) Lue(l repository.FamilyRead) { p.lecture = l }

// Copie is a copy of the game that a transition of either changes
// without changing the other: the repository keeps the last state it read
// of a game and hands out copies, which commands change. The entries by
// player are shared until one of the two writes them (partage.go); the
// rest is copied.
func (p *Partie) Copie() *Partie {
	c := *p
	c.tops = maps.Clone(p.tops)
	c.rejets = slices.Clone(p.rejets)
	c.ramasses = maps.Clone(p.ramasses)
	p.joueurs.partager()
	c.discipline = p.discipline.copie()
	c.contextes = maps.Clone(p.contextes)
	c.deposes = p.deposes.copie()
	c.corrections = p.corrections.copie()
	c.contre = p.contre.copie()
	c.decisions = p.decisions.copie()
	c.commissions = p.commissions.copie()
	c.billets = p.billets.copie()
	c.renvois = p.renvois.copie()
	c.elimines = maps.Clone(p.elimines)
	c.toppings = p.toppings.copie()
	c.appels = maps.Clone(p.appels)
	return &c
}

// Creer opens the game (§3) on the engines' default lexicon. The
// configuration is validated and completed with the regulation's defaults;
// players are licence numbers.
func (p *Partie) Creer(id, tournoi string, numero int, config Config, joueurs []string) error {
	return p.CreerSurLexique(nil, id, tournoi, numero, config, joueurs, nil)
}

// CreerSurLexique opens the game judged with the lexicon lex for good
// (issue 16 item 6), or the default one when lex is nil: a twinned site
// plays the principal's game with the principal's list (guide §2.18.1.A,
// one game for every site). A list the engines do not hold makes every
// later command LEXICON_NOT_LOADED, naming the list to load. arbitres are the
// tables each arbiter covers (§5.9 averages), a table under one arbiter.
func (p *Partie) CreerSurLexique(lex *lexicon.Identite, id, tournoi string, numero int, config Config, joueurs []string, arbitres []ArbitreTables) error {
	if p.Version() > 0 {
		return erreur.Refus(CodeWrongState, "la partie %s existe déjà", p.id)
	}
	if id == "" {
		return erreur.Refus(CodeInvalidConfig, "une partie a besoin d'un identifiant")
	}
	c, err := config.Valider()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, j := range joueurs {
		if j == "" || seen[j] {
			return erreur.Refus(CodeInvalidConfig, "licence %q absente ou en double", j)
		}
		seen[j] = true
	}
	if c.Elimination() && len(joueurs) < 2 {
		return erreur.Refus(CodeInvalidConfig, "une partie par élimination oppose au moins deux joueurs (§3.8.3)")
	}
	if err := validerArbitres(arbitres); err != nil {
		return err
	}
	creee := PartieCreee{Partie: id, Tournoi: tournoi, Numero: numero, Config: c, Joueurs: append([]string(nil), joueurs...)}
	for _, a := range arbitres {
		creee.Arbitres = append(creee.Arbitres, ArbitreTables{Arbitre: a.Arbitre, Tables: slices.Clone(a.Tables)})
	}
	creee.Lexique = lex
	if m, ok := p.moteur.(avecLexique); ok && lex == nil {
		defaut := m.Lexique().Identite()
		creee.Lexique = &defaut
	}
	return aggregate.Record(p, creee)
}

// validerArbitres checks the tables each arbiter covers: a named arbiter,
// at least one table, tables from 1, each under one arbiter only.
func validerArbitres(arbitres []ArbitreTables) error {
	de := map[int]string{}
	for _, a := range arbitres {
		if a.Arbitre == "" || len(a.Tables) == 0 {
			return erreur.Refus(CodeInvalidConfig, "chaque arbitre est nommé et couvre au moins une table (§5.9)")
		}
		for _, t := range a.Tables {
			switch autre, pris := de[t]; {
			case t < 1:
				return erreur.Refus(CodeInvalidConfig, "la table %d de l'arbitre %s n'existe pas : les tables partent de 1", t, a.Arbitre)
			case pris && autre == a.Arbitre:
				return erreur.Refus(CodeInvalidConfig, "la table %d est nommée deux fois pour l'arbitre %s", t, a.Arbitre)
			case pris:
				return erreur.Refus(CodeInvalidConfig, "la table %d relève de deux arbitres, %s et %s : une table a un seul arbitre (§5.9)", t, autre, a.Arbitre)
			}
			de[t] = a.Arbitre
		}
	}
	return nil
}

func (p *Partie) exigerEnCours() error {
	switch p.statut {
	case "":
		return erreur.Refus(CodeNotFound, "la partie n'existe pas")
	case StatutTerminee:
		return erreur.Refus(CodeGameOver, "la partie est terminée (%s)", p.fin.Motif)
	case StatutInterrompue:
		return erreur.Refus(CodeWrongState, "la partie est interrompue")
	}
	return nil
}

func (p *Partie) exigerStatut(s Statut, quoi string) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	if p.statut != s {
		return erreur.Refus(CodeWrongState, "%s impossible : la partie est à l'étape %q", quoi, p.statut)
	}
	return nil
}

// Tirer draws the tirage of the next coup (§3.1, §3.2). With the software
// source, lettres must be empty: letters come from the software bag, and
// invalid tirages are rejected and redrawn until one is valid, each rejet
// an event. Otherwise lettres are the new letters in order of extraction as
// the director read them ('?' a joker); an invalid tirage is recorded as a
// rejet and the director draws again. Once the bag is empty the tirage is
// the reliquat alone, whatever the source (§3.1, §3.7): lettres is empty.
func (p *Partie) Tirer(saisie string) error {
	if p.feuille != nil { // a pre-drawn game whose sheet is loaded (guide §2.17)
		if saisie != "" {
			return erreur.Refus(CodeInvalidTirage, "la partie prétirée tire ses lettres de sa feuille : ne pas les saisir")
		}
		return p.TirerPretire(*p.feuille)
	}
	return p.tirer(saisie)
}

// tirer draws the tirage from the letters typed (saisie) or, for the
// software, from the bag.
func (p *Partie) tirer(saisie string) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	if !p.entreCoups() {
		return erreur.Refus(CodeWrongState, "Tirage impossible : le coup %d est en cours", p.prochainCoup)
	}
	coup := p.prochainCoup
	taille := p.config.Variant().RackSize
	if p.config.Source == SourceLogiciel && saisie != "" {
		return erreur.Refus(CodeInvalidTirage, "les lettres sont tirées par le logiciel : ne pas les saisir")
	}
	if p.config.Source != SourceLogiciel && saisie == "" && p.lettres.sac.Size() > 0 {
		return erreur.Refus(CodeInvalidTirage, "saisir les lettres tirées du sac, dans l'ordre d'extraction")
	}
	l := p.lettres
	var evts []any
	for essai := 0; ; essai++ {
		if essai == 1000 {
			return erreur.Refus(CodeInvalidTirage, "aucun tirage valide après %d essais", essai)
		}
		reliquat := l.rack.String()
		joker := p.config.Formule == FormuleJoker && l.rack[tile.NoLetter] == 0 && l.reserve > 0
		avecJoker := l
		if joker {
			avecJoker.reserve--
			avecJoker.rack[tile.NoLetter]++
		}
		besoin := taille - avecJoker.rack.Size()
		var nouvelles []tile.Letter
		if p.config.Source == SourceLogiciel {
			nouvelles = avecJoker.piocher(p.config.GraineTest, besoin)
		} else {
			var err error
			if nouvelles, err = lireLettres(saisie); err != nil {
				return err
			}
			if want := min(besoin, avecJoker.sac.Size()); len(nouvelles) != want {
				return erreur.Refus(CodeInvalidTirage, "il faut tirer %d lettre(s) pour compléter le reliquat %q, pas %d", want, reliquat, len(nouvelles))
			}
			if !avecJoker.contient(nouvelles) {
				return erreur.Refus(CodeInvalidTirage, "les lettres %q ne sont pas toutes dans le sac", saisie)
			}
		}
		tirage := avecJoker
		tirage.puiser(nouvelles)
		restantes := l.restantes()
		validite := evaluerTirage(coup, natureDe(&tirage.rack), natureDe(&restantes))
		motif := ""
		switch {
		case validite == TirageInvalide:
			motif = RejetVoyellesConsonnes
		case p.interdit != nil && *p.interdit == tirage.rack:
			motif = RejetTirageIdentique
		}
		if motif == "" {
			evts = append(evts, TirageEffectue{Coup: coup, Reliquat: reliquat, Tirees: texteLettres(nouvelles),
				JokerAjoute: joker, AuChoix: validite == TirageAuChoix, Source: p.config.Source})
			break
		}
		evts = append(evts, TirageRejete{Coup: coup, Reliquat: reliquat, Tirees: texteLettres(nouvelles), JokerAjoute: joker, Motif: motif})
		l.tirages++
		l.rendre(p.config.Formule)
		if p.config.Source != SourceLogiciel {
			break
		}
	}
	return aggregate.Record(p, evts...)
}

// Rejeter is the director's rejet of a tirage that is valid only if Y or a
// joker counts as the missing vowel or consonant (§3.2, guide §4.2). A
// tirage valid whatever they count as, or one at the end of the game where
// the choice is no longer free (§3.2, §3.7), cannot be rejected.
func (p *Partie) Rejeter() error {
	if err := p.exigerStatut(StatutTirage, "le rejet"); err != nil {
		return err
	}
	if !p.auChoix {
		return erreur.Refus(CodeRejetRefused, "le tirage %s est valide quelle que soit la nature du Y et des jokers, ou la fin de partie ne laisse plus le choix (§3.2)", p.lettres.rack.String())
	}
	return aggregate.Record(p, TirageRejete{Coup: p.prochainCoup, Reliquat: p.reliquat, Tirees: p.tirees, JokerAjoute: p.jokerAjoute, Motif: RejetChoixDirecteur})
}

// RetenirTop records the director's solution (§3.4): ref in FISF notation
// ("H4" horizontal, "4H" vertical), the whole word with a joker in lower
// case. It is refused unless it is playable, scores the maximum, uses no
// joker when a joker-free top exists (§3.4), in the joker formula makes the
// joker come back when a top of the same score does (§3.8.1), and ends the
// game when an admissible top of the same score does (§3.4, §3.7). When the
// letters left end the game (§3.7), the end is recorded with the top.
func (p *Partie) RetenirTop(ref, mot string) error {
	if err := p.exigerStatut(StatutTirage, "l'annonce du top"); err != nil {
		return err
	}
	coup := p.prochainCoup
	r, err := board.ParseRef(ref)
	if err != nil {
		return &erreur.Erreur{Code: CodeInvalidTop, Message: fmt.Sprintf("référence %q illisible", ref), Err: err}
	}
	word, err := lireMot(mot)
	if err != nil {
		return err
	}
	rack := p.lettres.rack
	res := p.moteur.Verifier(&p.grille, r, word, &rack)
	if !res.Playable() {
		return erreur.Refus(codeInjouable(&res), "%s en %s n'est pas jouable avec %s : %s", mot, ref, rack.String(), probleme(&res))
	}
	tops := p.moteur.Tops(&p.grille, rack)
	if len(tops) == 0 {
		return erreur.Refus(CodeNoSolution, "aucune solution avec %s : annuler le coup (§3.6)", rack.String())
	}
	placees := lettresPlacees(&p.grille, r, word)
	if joue, err := p.exigerTopJoue(coup, r, word, int(res.Score)); err != nil {
		return err
	} else if !joue {
		if err := p.exigerTopDuLogiciel(tops, placees, ref, mot, int(res.Score)); err != nil {
			return err
		}
	}
	top := TopRetenu{Coup: coup, Ref: r.String(), Mot: tile.WordText(word), Score: int(res.Score), Placees: texteTuiles(placees),
		JokerRemplace: p.rangJoker(placees) == jokerRevient}
	_, apres, err := p.poser(top)
	if err != nil {
		return &erreur.Erreur{Code: CodeInvalidTop, Message: fmt.Sprintf("%s en %s ne se pose pas", mot, ref), Err: err}
	}
	restantes := apres.restantes()
	if motif, fini := finDePartie(natureDe(&restantes)); fini {
		return aggregate.Record(p, top, PartieTerminee{Motif: motif, DernierCoup: coup})
	}
	return aggregate.Record(p, top)
}

// exigerTopDuLogiciel checks a top against the engine's (§3.4): the
// maximum score, the joker kept when a top keeps it or makes it come back
// (§3.4, §3.8.1), the end of the game when an admissible top ends it
// (§3.4, §3.7).
func (p *Partie) exigerTopDuLogiciel(tops []movegen.Move, placees []tile.Tile, ref, mot string, score int) error {
	if score < int(tops[0].Score) {
		return erreur.Refus(CodeNotMaxScore, "%s en %s vaut %d points ; le top est de %d points (§3.4)", mot, ref, score, tops[0].Score)
	}
	sols := p.classer(tops)
	switch rang, meilleur := p.rangJoker(placees), p.rangJoker(lettresPlaceesCoup(&sols[0].Move)); {
	case rang > meilleur && meilleur == jokerGarde:
		return erreur.Refus(CodeJokerTopRefused, "%s utilise un joker alors qu'un top de %d points le conserve (§3.4, §3.8.1)", mot, score)
	case rang > meilleur:
		return erreur.Refus(CodeJokerNotKept, "%s laisse le joker sur la grille alors que %s en %s, de %d points aussi, le fait revenir (§3.8.1)",
			mot, sols[0].Move.WordString(), sols[0].Move.Ref().String(), score)
	}
	if !p.finit(placees) {
		for _, s := range sols {
			if s.Admissible && s.FinDePartie {
				return erreur.Refus(CodeMustEndGame, "%s en %s vaut aussi %d points et met fin à la partie : il doit être retenu (§3.4, §3.7)", s.Move.WordString(), s.Move.Ref().String(), s.Move.Score)
			}
		}
	}
	return nil
}

// Solution is one max-score placement of the engine for the current tirage.
// Admissible says the director may retain it (§3.4): it keeps the joker
// when a top does, and it ends the game when an admissible top does.
type Solution struct {
	Move        movegen.Move
	Joker       bool
	FinDePartie bool
	Admissible  bool
}

// Solutions recomputes the engine's tops for the current tirage, the
// admissible ones first (§3.4, §3.8.1); none outside a coup.
func (p *Partie) Solutions() []Solution {
	if p.statut != StatutTirage {
		return nil
	}
	return p.classer(p.moteur.Tops(&p.grille, p.lettres.rack))
}

// The ranks of a top by what it does with the joker (§3.4, §3.8.1), best
// first: it leaves the joker in the rack; it puts the joker down but the
// joker formula replaces it by its letter, still in the bag, and the joker
// comes back; it spends the joker.
const (
	jokerGarde = iota
	jokerRevient
	jokerPerdu
)

// rangJoker ranks the tiles a top puts down by what they do with the joker.
func (p *Partie) rangJoker(placees []tile.Tile) int {
	sac, joker := p.lettres.sac, false
	for _, t := range placees {
		if !t.IsJoker() {
			continue
		}
		joker = true
		if p.config.Formule != FormuleJoker || sac[t.Letter()] == 0 {
			return jokerPerdu
		}
		sac[t.Letter()]--
	}
	if joker {
		return jokerRevient
	}
	return jokerGarde
}

// classer marks the admissible tops and sorts them first, keeping the
// engine's order otherwise: only the tops that treat the joker best
// (§3.4, §3.8.1), and among them the ones ending the game if any does
// (§3.4, §3.7).
func (p *Partie) classer(tops []movegen.Move) []Solution {
	sols := make([]Solution, len(tops))
	rangs := make([]int, len(tops))
	meilleur, fin := jokerPerdu, false
	for i := range tops {
		m := &tops[i]
		placees := lettresPlaceesCoup(m)
		sols[i] = Solution{Move: *m, Joker: m.UsesJoker, FinDePartie: p.finit(placees)}
		rangs[i] = p.rangJoker(placees)
		meilleur = min(meilleur, rangs[i])
	}
	for i, s := range sols {
		fin = fin || (rangs[i] == meilleur && s.FinDePartie)
	}
	for i := range sols {
		s := &sols[i]
		s.Admissible = rangs[i] == meilleur && (!fin || s.FinDePartie)
	}
	sort.SliceStable(sols, func(i, j int) bool { return sols[i].Admissible && !sols[j].Admissible })
	return sols
}

// finit reports whether putting down these tiles ends the game (§3.7).
func (p *Partie) finit(placees []tile.Tile) bool {
	r := p.lettres.restantes()
	for _, t := range placees {
		if t.IsJoker() {
			r[tile.NoLetter]--
		} else {
			r[t.Letter()]--
		}
	}
	_, fini := finDePartie(natureDe(&r))
	return fini
}

// AnnulerCoup voids the current coup (§3.6): with motif aucune_solution
// when the engine finds no placement, or erreur by the director's decision
// after an error, before or after the top. Every letter of the coup goes
// back to the bag; the game ends if no different tirage can be drawn
// (§3.7).
func (p *Partie) AnnulerCoup(motif string) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	switch {
	case motif == AnnulationAucuneSolution && p.statut == StatutTirage:
		if len(p.moteur.Tops(&p.grille, p.lettres.rack)) > 0 {
			return erreur.Refus(CodeAnnulationRefused, "le tirage %s a des solutions (§3.6)", p.lettres.rack.String())
		}
	case motif == AnnulationErreur && (p.statut == StatutTirage || p.statut == StatutTop):
	case motif != AnnulationAucuneSolution && motif != AnnulationErreur:
		return erreur.Refus(CodeAnnulationRefused, "motif d'annulation %q inconnu : aucune_solution ou erreur (§3.6)", motif)
	default:
		return erreur.Refus(CodeAnnulationRefused, "aucun coup en cours à annuler")
	}
	coup := p.prochainCoup
	if p.statut == StatutTop {
		coup--
	}
	return aggregate.Decide(p, func(c *Partie) error {
		if err := aggregate.Record(c, CoupAnnule{Coup: coup, Motif: motif}); err != nil {
			return err
		}
		restantes := c.lettres.restantes()
		if restantes.Size() <= c.config.Variant().RackSize {
			fin := FinTirageDifferent
			if motif == AnnulationAucuneSolution {
				fin = FinPlusDePlacement
			}
			return aggregate.Record(c, PartieTerminee{Motif: fin, DernierCoup: coup - 1})
		}
		return nil
	})
}

// Ramasser records that the bulletins of the current coup were collected
// (§3.7, guide §2.13).
func (p *Partie) Ramasser() error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	coup := p.coupEnCours()
	if coup == 0 || p.ramasses[coup] {
		return erreur.Refus(CodeWrongState, "aucun coup dont ramasser les bulletins")
	}
	return aggregate.Record(p, BulletinsRamasses{Coup: coup})
}

// entreCoups reports that no coup is being played: a tirage may be drawn.
func (p *Partie) entreCoups() bool {
	return p.statut == StatutAttenteTirage || p.statut == StatutTop
}

// coupEnCours is the coup being played or just topped, 0 before the first.
func (p *Partie) coupEnCours() int {
	switch p.statut {
	case StatutTirage:
		return p.prochainCoup
	case StatutTop, StatutAttenteTirage, StatutInterrompue:
		return p.prochainCoup - 1
	}
	return 0
}

func (p *Partie) exigerJoueur(licence string, coup int) error {
	j, ok := p.joueurs.lire(licence)
	switch {
	case !ok:
		return erreur.Refus(CodeUnknownPlayer, "le joueur %s ne participe pas à la partie", licence)
	case coup < j.premierCoup:
		return erreur.Refus(CodeLatePlayer, "le joueur %s est arrivé au coup %d : le coup %d lui est compté nul (§6.2)", licence, j.premierCoup, coup)
	case j.elimineAu > 0 && coup > j.elimineAu:
		return erreur.Refus(CodeEliminated, "le joueur %s est éliminé au coup %d", licence, j.elimineAu)
	case p.discipline.Exclu(licence):
		return erreur.Refus(CodeExcluded, "le joueur %s est exclu de la partie (§6.1)", licence)
	}
	return nil
}

// ArriveeEnRetard adds a player who arrives late (§6.2): the coups already
// drawn count zero for him.
func (p *Partie) ArriveeEnRetard(licence string) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	if licence == "" || p.joueurs.a(licence) {
		return erreur.Refus(CodeInvalidConfig, "licence %q absente ou déjà inscrite à la partie", licence)
	}
	premier := p.prochainCoup
	if p.statut == StatutTirage {
		premier++
	}
	return aggregate.Record(p, JoueurArrive{Licence: licence, PremierCoup: premier})
}

// RetirerJoueur withdraws a player added late by mistake, with the reason:
// only a late arrival (§6.2) with nothing of his recorded yet — no
// bulletin, topping time, decision or sanction — and while the results are
// open. A player with results stays: his bulletins are typed missing.
func (p *Partie) RetirerJoueur(licence, motif string) error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	j, ok := p.joueurs.lire(licence)
	switch {
	case !ok:
		return erreur.Refus(CodeUnknownPlayer, "le joueur %s n'est pas de la partie %s", licence, p.id)
	case !j.enRetard:
		return erreur.Refus(CodeWrongState, "le joueur %s est de la partie depuis sa création : seul un joueur ajouté en retard (§6.2) se retire", licence)
	case p.aDesResultats(licence):
		return erreur.Refus(CodeWrongState, "des résultats du joueur %s sont enregistrés (bulletin, temps, décision ou sanction) : il reste dans la partie", licence)
	case strings.TrimSpace(motif) == "":
		return erreur.Refus(CodeInvalidConfig, "le retrait d'un joueur est motivé")
	}
	return aggregate.Record(p, JoueurRetire{Licence: licence, Motif: motif})
}

// aDesResultats reports that something of the player's is recorded: a
// bulletin, a topping time, a decision or a disciplinary sanction.
func (p *Partie) aDesResultats(licence string) bool {
	return p.deposes.aUnCoup(licence) || p.toppings.aUnCoup(licence) || p.decisions.aUnCoup(licence) ||
		p.discipline.Concerne(licence)
}

// Interrompre starts an interruption at instant a of the server's clock
// (§3.7, guide §2.13).
func (p *Partie) Interrompre(a eventstore.Instant) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	return aggregate.Record(p, PartieInterrompue{Debut: a.Wall, Monotone: a.Monotonic})
}

// DureeInterruption is the length of an interruption. §3.7 ends the game
// « interrompue durant plus de 15 minutes d'affilée »: a real length, which
// a setting of the server's clock during the interruption (an operator, an
// NTP step) does not change. It is measured on the server's monotonic clock
// when the process that saw the interruption start sees it end; otherwise
// (the server restarted in between, no monotonic reading survives) it is
// read on the wall clock, never negative, and Murale says so.
type DureeInterruption struct {
	Duree  time.Duration `json:"duree"`
	Murale bool          `json:"murale,omitempty"`
}

// dureeInterruption is the length of the current interruption at fin.
func (p *Partie) dureeInterruption(fin eventstore.Instant) DureeInterruption {
	d, monotone := fin.Since(p.pause)
	return DureeInterruption{Duree: d, Murale: !monotone}
}

// Reprendre ends an interruption at instant a of the server's clock. After
// more than 15 minutes in a row (DureeInterruption) the game is over (§3.7,
// guide §2.13): annulled if fewer than 15 coups (10 in original formulas)
// were collected, otherwise valid up to the last collected coup that was
// not annulled.
func (p *Partie) Reprendre(a eventstore.Instant) error {
	if p.statut != StatutInterrompue {
		return erreur.Refus(CodeWrongState, "la partie n'est pas interrompue")
	}
	duree := p.dureeInterruption(a)
	if duree.Duree <= dureeInterruption {
		return aggregate.Record(p, PartieReprise{Fin: a.Wall, Monotone: a.Monotonic, Interruption: &duree})
	}
	dernier := 0
	for c := range p.ramasses {
		if _, ok := p.tops[c]; ok {
			dernier = max(dernier, c)
		}
	}
	annulee := len(p.ramasses) < p.config.CoupsMinimumInterruption()
	if annulee {
		dernier = 0
	}
	return aggregate.Record(p, PartieTerminee{Motif: FinInterruption, DernierCoup: dernier, Annulee: annulee, Interruption: &duree})
}

// Eliminer applies the rule of the elimination modes to the coup just
// topped (§3.8.3, guide §2.14–2.15): the reference is the best score among
// the players still in (the top when one of them found it); every player
// below it is eliminated. Disciplinary decisions count (§5.5, §5.7). In
// sudden death, and so in the barrage that follows it (§3.8.3), every
// penalty counts on the coup itself (§5.9): the 5-point one and the one of
// an avertissement beyond the free ones. The elimination is decided on
// judged bulletins only (« la meilleure solution trouvée par au moins un
// autre joueur »): it is refused while a player still in has none for the
// coup (BULLETINS_PENDING); a bulletin the player did not hand in is typed
// missing (§5.7) and corrected. The last player left wins.
func (p *Partie) Eliminer() error {
	if err := p.exigerStatut(StatutTop, "l'élimination"); err != nil {
		return err
	}
	coup := p.prochainCoup - 1
	if !p.config.Elimination() {
		return erreur.Refus(CodeWrongState, "pas d'élimination hors mort subite et barrage (§3.8.3)")
	}
	if p.elimines[coup] {
		return erreur.Refus(CodeWrongState, "les éliminations du coup %d sont déjà décidées", coup)
	}
	scores := map[string]int{}
	reference := 0
	var attendus []string
	for _, l := range p.Attendus(coup) {
		d, ok := p.DecisionSanctionnee(coup, l)
		if !ok {
			attendus = append(attendus, l)
			continue
		}
		brut, penalite, _ := Points(d)
		s := brut - penalite - p.Avertissements(l).Penalty[coup-1]
		scores[l] = s
		reference = max(reference, s)
	}
	if len(attendus) > 0 {
		return erreur.Refus(CodeBulletinsPending, "éliminations du coup %d sur les bulletins jugés seulement (§3.8.3) : bulletin(s) de %s à saisir et corriger",
			coup, strings.Join(attendus, ", "))
	}
	elimines := []string{}
	for _, l := range p.Joueurs() {
		if s, ok := scores[l]; ok && s < reference {
			elimines = append(elimines, l)
		}
	}
	return aggregate.Decide(p, func(c *Partie) error {
		if err := aggregate.Record(c, EliminationsDecidees{Coup: coup, Reference: reference, Elimines: elimines}); err != nil {
			return err
		}
		if restants := c.Joueurs(); len(restants) == 1 {
			return aggregate.Record(c, PartieTerminee{Motif: FinVainqueur, DernierCoup: coup, Vainqueur: restants[0]})
		}
		return nil
	})
}

// AnnulerEliminations undoes, with the director's reason, the eliminations
// he decided in error on the last coup played (§3.8.3), before the next
// tirage: the players eliminated on it are in again and, when the
// elimination left one player, the end of the game goes with it. The
// decision stays in the history beside its annulment; the director decides
// the eliminations again. Refused without a reason (CANCELLATION_REFUSED),
// without eliminations to undo or after the next tirage (WRONG_STATE),
// once the results are closed (RESULTS_CLOSED).
func (p *Partie) AnnulerEliminations(motif string) error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	coup := p.prochainCoup - 1
	vainqueur := p.fin != nil && p.fin.Motif == FinVainqueur && p.fin.DernierCoup == coup
	if !p.elimines[coup] || !(p.entreCoups() || vainqueur) {
		return erreur.Refus(CodeWrongState, "aucune élimination à annuler : seules celles du dernier coup joué s'annulent, avant le tirage suivant")
	}
	if motif == "" {
		return erreur.Refus(CodeAnnulationRefused, "l'annulation des éliminations du coup %d est motivée", coup)
	}
	return aggregate.Record(p, EliminationsAnnulees{Coup: coup, Motif: motif})
}

// TirageEnCours is the announcement of the last tirage (§3.1): the reliquat
// (alphabetical, joker last) and the new letters in order of extraction.
func (p *Partie) TirageEnCours() (reliquat, tirees string) { return p.reliquat, p.tirees }

// JokerAjoute says the director added the joker to the tirage on the stand
// (§3.8.1): it is neither in the reliquat announced nor among the new letters.
func (p *Partie) JokerAjoute() bool { return p.jokerAjoute }

// Rejets are the tirages rejected since the last tirage played (§3.2,
// §3.6), first first: those before the tirage on the stand, or before the
// next one; a top or an annulled coup clears them.
func (p *Partie) Rejets() []TirageRejete { return slices.Clone(p.rejets) }

// Case is a square a top covers: row and column from 0, its letter (a
// joker in lower case) and whether the top put it down.
type Case struct {
	Ligne   int    `json:"ligne"`
	Colonne int    `json:"colonne"`
	Lettre  string `json:"lettre"`
	Posee   bool   `json:"posee"`
}

// CasesDuTop lists the squares the top of a coup covers, in word order.
func (p *Partie) CasesDuTop(coup int) []Case {
	top, ok := p.tops[coup]
	cx, okc := p.contextes[coup]
	r, err := board.ParseRef(top.Ref)
	if !ok || !okc || err != nil {
		return nil
	}
	out := make([]Case, 0, len(top.Mot))
	for i, sq := 0, r.Start(); i < len(top.Mot); i, sq = i+1, sq+r.Step() {
		out = append(out, Case{Ligne: sq / board.Size, Colonne: sq % board.Size, Lettre: top.Mot[i : i+1], Posee: cx.grille.Square(sq) == tile.Empty})
	}
	return out
}
