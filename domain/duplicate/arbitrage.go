package duplicate

import (
	"fmt"
	"slices"
	"sort"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/engine/board"
	"arbitre/engine/correction"
	"arbitre/engine/tile"
)

// contexte is what a coup's bulletins are corrected against: the grid before
// the top and the tirage (§5).
type contexte struct {
	grille board.Board
	tirage tile.Rack
}

// DuBulletin tells whether events of type typ belong to the bulletins'
// life alone (deposit, correction, double arbitrage, billet, referral to
// the commission and its decision): they change nothing of a game's public
// state (grid, tirage, tops, chrono, status) but its version.
func DuBulletin(typ string) bool {
	switch typ {
	case TypeBulletinDepose, TypeBulletinCorrige, TypeDoubleArbitrage, TypeBilletEmis, TypeRenvoiCommission, TypeDecisionCommission:
		return true
	}
	return false
}

// Passer counts an event of a type DuBulletin names without reading it:
// the game's public state and version stay exact, its bulletins are not
// kept. It serves the readers of that public state alone (the games'
// views), which need neither decode nor hold the players' bulletins.
func (p *Partie) Passer(typ string) error {
	return aggregate.Apply(&p.Base, func(any) error {
		switch {
		case !DuBulletin(typ):
			return &erreur.Erreur{Code: CodeCorruptHistory, Message: fmt.Sprintf("événement %s : la partie ne peut pas le passer", typ)}
		case p.statut == "":
			return &erreur.Erreur{Code: CodeCorruptHistory, Message: fmt.Sprintf("événement %s incohérent avec la partie", typ), Err: fmt.Errorf("la partie n'est pas créée")}
		}
		return nil
	}, typ)
}

func (p *Partie) onBulletin(e any) {
	switch e := e.(type) {
	case BulletinDepose:
		p.deposes.mettre(e.Coup, e.Licence, e, p.joueurs.len())
	case BulletinCorrige:
		p.corrections.mettre(e.Coup, e.Licence, e, p.joueurs.len())
		p.contre.oter(e.Coup, e.Licence) // a new correction awaits its own check
	case DoubleArbitrage:
		p.contre.mettre(e.Coup, e.Licence, e, 0)
	case BilletEmis:
		p.billets.mettre(e.Coup, e.Licence, true, 0)
	case RenvoiCommission:
		p.renvois.mettre(e.Coup, e.Licence, true, 0)
	case DecisionCommission:
		p.appels[decisionAppel{appel: e.Appel, niveau: e.Niveau}] = true
	}
	if coup, licence, d, ok := DecisionImposee(e); ok {
		p.decisions.mettre(coup, licence, d, p.joueurs.len())
		if c, ok := e.(DecisionCommission); ok {
			p.commissions.mettre(coup, licence, c, 0)
		} else {
			p.commissions.oter(coup, licence)
		}
	}
}

// ContexteCorrection is the engine/correction context of a topped coup,
// rebuilt from the events: the grid before the top, the tirage, the length
// of the first word, the top's score, the variant (§3.8.2) and the words
// not admitted in this player's earlier zéros whose billet he has not
// received (§5.9 averages).
func (p *Partie) ContexteCorrection(coup int, licence string) (correction.Context, bool) {
	cx, ok := p.contextes[coup]
	if !ok {
		return correction.Context{}, false
	}
	top := p.tops[coup].Score
	ctx := correction.Context{Board: cx.grille.Rows(), Tirage: cx.tirage.String(), Coup: coup,
		FirstWordLength: p.premierMot, Top: &top, Variant: string(p.config.Variante)}
	if coup == 1 {
		ctx.FirstWordLength = 0
	}
	var coups []int
	for c := range p.decisions {
		if c < coup {
			coups = append(coups, c)
		}
	}
	sort.Ints(coups)
	for _, c := range coups {
		if d, ok := p.decisions.lire(c, licence); ok && !p.billets.a(c, licence) {
			ctx.Unnotified = append(ctx.Unnotified, d.NotAdmitted...)
		}
	}
	return ctx, true
}

// Depose returns the bulletin a player handed in for a coup.
func (p *Partie) Depose(coup int, licence string) (BulletinDepose, bool) {
	b, ok := p.deposes.lire(coup, licence)
	return b, ok
}

// Correction returns the latest correction (arbiter and engine) of a
// bulletin.
func (p *Partie) Correction(coup int, licence string) (BulletinCorrige, bool) {
	c, ok := p.corrections.lire(coup, licence)
	return c, ok
}

// Renvoye reports that a bulletin was sent to the commission (§5.3.3, §6.3).
func (p *Partie) Renvoye(coup int, licence string) bool { return p.renvois.a(coup, licence) }

// BilletRemis reports that the billet de correction of a bulletin was
// handed to the player (§5.9): he is told the motive of its nullité.
func (p *Partie) BilletRemis(coup int, licence string) bool { return p.billets.a(coup, licence) }

// Decision returns the decision in force for a bulletin: the latest valid
// one among corrections, double arbitrage and the commission's.
func (p *Partie) Decision(coup int, licence string) (correction.Decision, bool) {
	d, ok := p.decisions.lire(coup, licence)
	return d, ok
}

// DecisionMoteur is what engine/correction decides now for a player's
// bulletin of a topped coup: what the arbiter sees before he confirms or
// amends it.
func (p *Partie) DecisionMoteur(coup int, licence string) (correction.Decision, error) {
	if p.statut == "" {
		return correction.Decision{}, erreur.Refus(CodeNotFound, "la partie n'existe pas")
	}
	b, ok := p.deposes.lire(coup, licence)
	if !ok {
		return correction.Decision{}, erreur.Refus(CodeInvalidBulletin, "aucun bulletin de %s au coup %d", licence, coup)
	}
	return p.corriger(coup, licence, b.Bulletin)
}

// Apercu is what engine/correction would decide for a bulletin of a player
// of the game at a topped coup (§5), without recording anything: the
// arbiter sees the decision while he types the bulletin.
func (p *Partie) Apercu(coup int, licence string, b correction.Bulletin) (correction.Decision, error) {
	if err := p.exigerTopAnnonce(coup, licence); err != nil {
		return correction.Decision{}, err
	}
	return p.corriger(coup, licence, b)
}

// corriger runs engine/correction on a bulletin of a topped coup.
func (p *Partie) corriger(coup int, licence string, b correction.Bulletin) (correction.Decision, error) {
	ctx, ok := p.ContexteCorrection(coup, licence)
	if !ok {
		return correction.Decision{}, erreur.Refus(CodeInvalidBulletin, "le top du coup %d n'est pas annoncé", coup)
	}
	d, err := p.moteur.Corriger(ctx, &b)
	if err != nil {
		return correction.Decision{}, &erreur.Erreur{Code: CodeInvalidBulletin, Message: fmt.Sprintf("correction du bulletin de %s au coup %d impossible", licence, coup), Err: err}
	}
	return d, nil
}

// ContreArbitrage returns the second arbiter's check of the correction in
// force, if any (guide §5, double arbitrage).
func (p *Partie) ContreArbitrage(coup int, licence string) (DoubleArbitrage, bool) {
	e, ok := p.contre.lire(coup, licence)
	return e, ok
}

// DecisionEnAppel is the commission's decision on appeal (§6.3) when it is
// the bulletin's decision in force: not once a correction or a double
// arbitrage replaced it, nor for an appeal rejected (the decision stands).
func (p *Partie) DecisionEnAppel(coup int, licence string) (DecisionCommission, bool) {
	e, ok := p.commissions.lire(coup, licence)
	return e, ok
}

// DeposerBulletin records a bulletin as written (§4), typed by the arbiter
// of the player's table, for the coup being played or an earlier coup that
// was not annulled; after the end of the game, for a coup whose results
// stand, until the results are closed. A missing bulletin is recorded with
// Missing set (§5.7).
func (p *Partie) DeposerBulletin(b BulletinDepose) error {
	if err := p.exigerSaisie(); err != nil {
		return err
	}
	_, topped := p.tops[b.Coup]
	if dernier := p.coupsAJuger(); b.Coup < 1 || b.Coup > dernier || (!topped && b.Coup != dernier) {
		return erreur.Refus(CodeInvalidBulletin, "bulletin du coup %d : le dernier coup à juger est le %d", b.Coup, dernier)
	}
	if err := p.exigerJoueur(b.Licence, b.Coup); err != nil {
		return err
	}
	if _, ok := p.deposes.lire(b.Coup, b.Licence); ok {
		return erreur.Refus(CodeInvalidBulletin, "le bulletin du joueur %s au coup %d est déjà saisi", b.Licence, b.Coup)
	}
	if err := b.Bulletin.Validate(); err != nil {
		return &erreur.Erreur{Code: CodeInvalidBulletin, Message: fmt.Sprintf("bulletin de %s au coup %d mal saisi", b.Licence, b.Coup), Err: err}
	}
	return aggregate.Record(p, b)
}

// Correction is an arbiter's correction of a bulletin: nil Arbitrage
// confirms the engine's decision; otherwise it is his decision and Motif his
// reason (required when it differs from the engine's).
type Correction struct {
	Coup      int
	Licence   string
	Arbitre   string
	Table     int
	Arbitrage *correction.Decision
	Motif     string
}

// CorrigerBulletin corrects a bulletin of a topped coup (§5): the engine
// decides, the arbiter confirms or decides otherwise with a reason. Both
// decisions are recorded when they differ. A new correction of the same
// bulletin replaces the earlier one.
func (p *Partie) CorrigerBulletin(c Correction) error {
	if err := p.exigerJugement(c.Coup, c.Licence); err != nil {
		return err
	}
	if c.Arbitre == "" {
		return erreur.Refus(CodeInvalidBulletin, "l'arbitre qui corrige doit être nommé")
	}
	moteur, err := p.DecisionMoteur(c.Coup, c.Licence)
	if err != nil {
		return err
	}
	e := BulletinCorrige{Coup: c.Coup, Licence: c.Licence, Arbitre: c.Arbitre, Table: c.Table, Moteur: &moteur}
	if c.Arbitrage != nil && len(correction.Compare(moteur, *c.Arbitrage)) > 0 {
		if err := validerDecision(c.Arbitrage, p.tops[c.Coup].Score); err != nil {
			return err
		}
		if c.Motif == "" {
			return erreur.Refus(CodeInvalidBulletin, "l'arbitre qui s'écarte du moteur donne son motif")
		}
		a := *c.Arbitrage
		e.Arbitrage, e.Motif = &a, c.Motif
	}
	return aggregate.Record(p, e)
}

// CorrigerAMain records a correction decided without the engine (a lost
// bulletin re-established by the arbiter, a coup played on paper): the
// arbiter's decision and his reason.
func (p *Partie) CorrigerAMain(c Correction) error {
	if err := p.exigerJugement(c.Coup, c.Licence); err != nil {
		return err
	}
	switch {
	case c.Arbitre == "" || c.Motif == "":
		return erreur.Refus(CodeInvalidBulletin, "une correction à la main est signée par l'arbitre et motivée")
	case c.Arbitrage == nil:
		return erreur.Refus(CodeInvalidBulletin, "une correction à la main donne la décision de l'arbitre")
	}
	if err := validerDecision(c.Arbitrage, p.tops[c.Coup].Score); err != nil {
		return err
	}
	a := *c.Arbitrage
	return aggregate.Record(p, BulletinCorrige{Coup: c.Coup, Licence: c.Licence, Arbitre: c.Arbitre, Table: c.Table, Arbitrage: &a, Motif: c.Motif})
}

// exigerJugement lets an arbiter judge a bulletin of a topped coup: until
// the results are closed.
func (p *Partie) exigerJugement(coup int, licence string) error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	return p.exigerTopAnnonce(coup, licence)
}

func (p *Partie) exigerTopAnnonce(coup int, licence string) error {
	if p.statut == "" {
		return erreur.Refus(CodeNotFound, "la partie n'existe pas")
	}
	if _, ok := p.tops[coup]; !ok {
		return erreur.Refus(CodeInvalidBulletin, "le top du coup %d n'est pas annoncé", coup)
	}
	return p.exigerJoueur(licence, coup)
}

func (p *Partie) exigerCorrige(coup int, licence string) (BulletinCorrige, error) {
	if err := p.exigerTopAnnonce(coup, licence); err != nil {
		return BulletinCorrige{}, err
	}
	c, ok := p.corrections.lire(coup, licence)
	if !ok {
		return BulletinCorrige{}, erreur.Refus(CodeInvalidBulletin, "le bulletin de %s au coup %d n'est pas corrigé", licence, coup)
	}
	return c, nil
}

// ContreArbitrer records the double arbitrage of a corrected bulletin (guide
// §5): a second arbiter, not the one who corrected it, confirms the decision
// in force or amends it with a reason.
func (p *Partie) ContreArbitrer(e DoubleArbitrage) error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	c, err := p.exigerCorrige(e.Coup, e.Licence)
	if err != nil {
		return err
	}
	switch {
	case e.Arbitre == "" || e.Arbitre == c.Arbitre:
		return erreur.Refus(CodeInvalidBulletin, "le double arbitrage est fait par un second arbitre, pas par %q", c.Arbitre)
	case e.Confirme && e.Decision != nil:
		return erreur.Refus(CodeInvalidBulletin, "une confirmation ne porte pas de nouvelle décision")
	case !e.Confirme && e.Motif == "":
		return erreur.Refus(CodeInvalidBulletin, "le second arbitre qui amende donne son motif")
	}
	if !e.Confirme {
		if err := validerDecision(e.Decision, p.tops[e.Coup].Score); err != nil {
			return err
		}
		d := *e.Decision
		e.Decision = &d
	}
	return aggregate.Record(p, e)
}

// EmettreBillet records the billet de correction handed to the player for
// the decision in force, disciplinary sanctions included (§5.9, guide
// §5.2); it notifies the words not admitted of that coup.
func (p *Partie) EmettreBillet(coup int, licence, arbitre string) error {
	if _, err := p.exigerCorrige(coup, licence); err != nil {
		return err
	}
	d, _ := p.DecisionSanctionnee(coup, licence)
	d.Reasons = slices.Clone(d.Reasons)
	d.NotAdmitted = slices.Clone(d.NotAdmitted)
	return aggregate.Record(p, BilletEmis{Coup: coup, Licence: licence, Arbitre: arbitre, Decision: d})
}

// RenvoyerCommission sends a handed-in bulletin to the commission
// d'arbitrage (§5.3.3, §6.3), with the reason and, for an appeal, its id.
func (p *Partie) RenvoyerCommission(e RenvoiCommission) error {
	if err := p.exigerTopAnnonce(e.Coup, e.Licence); err != nil {
		return err
	}
	if _, ok := p.deposes.lire(e.Coup, e.Licence); !ok {
		return erreur.Refus(CodeInvalidBulletin, "aucun bulletin de %s au coup %d à renvoyer", e.Licence, e.Coup)
	}
	if e.Motif == "" {
		return erreur.Refus(CodeInvalidBulletin, "le renvoi en commission est motivé")
	}
	return aggregate.Record(p, e)
}

// decisionAppel names one decision of an appeal: the appeal and its level.
type decisionAppel struct {
	appel  string
	niveau int
}

// DeciderAppel records the commission's decision on appeal for a corrected
// bulletin (§6.3): upheld or amended with the new decision, or rejected
// without one; always with the rationale. It is accepted after the end of
// the game: appeals are decided then. A decision of an appeal's level
// already recorded is not recorded again: carrying it is idempotent.
func (p *Partie) DeciderAppel(e DecisionCommission) error {
	if p.appels[decisionAppel{appel: e.Appel, niveau: e.Niveau}] {
		return nil
	}
	if _, err := p.exigerCorrige(e.Coup, e.Licence); err != nil {
		return err
	}
	switch {
	case e.Appel == "":
		return erreur.Refus(CodeInvalidBulletin, "la décision de la commission se rapporte à un appel")
	case e.Motif == "":
		return erreur.Refus(CodeInvalidBulletin, "la décision de la commission est motivée")
	case e.Issue == AppelRejete && e.Decision != nil:
		return erreur.Refus(CodeInvalidBulletin, "un appel rejeté laisse la décision en vigueur")
	case e.Issue != AppelRejete && e.Issue != AppelAccueilli && e.Issue != AppelAmende:
		return erreur.Refus(CodeInvalidBulletin, "issue %q inconnue : upheld, rejected ou amended", e.Issue)
	}
	if e.Issue != AppelRejete {
		if err := validerDecision(e.Decision, p.tops[e.Coup].Score); err != nil {
			return err
		}
		d := *e.Decision
		e.Decision = &d
	}
	return aggregate.Record(p, e)
}
