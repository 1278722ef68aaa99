// Package appel is the appeal (recours) of fisf-reglement-duplicate-2020.txt
// §6.3–§6.4 and of the guide d'organisation et d'arbitrage §3.8 as an
// event-sourced aggregate, one stream per appeal (Flux). An appeal's id
// belongs to its tournament: two tournaments may each have an appeal "AP1".
//
// A player who feels wronged, or the arbitral body, files an appeal against
// a decision of an arbiter, a double arbitre or the juge-arbitre (§6.3). The
// tournament's commission d'arbitrage (§6.4.1) is composed, every member
// votes, and the commission decides: upheld (the requested decision replaces
// the contested one), rejected, or amended (the commission's own decision).
// Its decision can be taken once to the FISF commission de recours
// (§6.4.2), the last resort. A decided level is never edited; a decision
// reaches the standings only through a new bulletin correction in the game's
// stream (see package command).
//
// Every command method checks the rules against the current state and
// records an event; recording runs the same transition (Apply) that
// rebuilds the appeal from its stream.
package appel

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"fmt"
	"slices"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/correction"
)

// The levels of an appeal (§6.4).
const (
	NiveauCommissionArbitrage = 1 // §6.4.1, guide §3.8
	NiveauRecoursFISF         = 2 // §6.4.2: last resort
)

const (
	// delaiApresDernierePartie: with no next game, an appeal is filed at
	// the latest 15 minutes after the last game of the competition (§6.3).
	delaiApresDernierePartie = 15 * time.Minute
	// delaiPieces: the appellant has two weeks to complete a dossier the
	// FISF président found lacking (§6.4.2.c).
	delaiPieces = 14 * 24 * time.Hour
	// membresMinimum: the smallest commission the texts describe has three
	// members (guide §3.8.2: Switzerland three, Québec a président and two
	// or four, France a président and four; §6.4.2.b: five at the FISF).
	membresMinimum = 3
)

// Horaire is when a game of a tournament started (its first tirage) and
// ended for §6.3 (the closure of its results), as the store recorded them;
// zero when not yet. Fin carries the server's monotonic reading when the
// closure recorded one.
type Horaire struct {
	Partie string
	Debut  time.Time
	Fin    eventstore.Instant
}

// Echeance is a deadline of an appeal: a length of time (Delai) from an
// instant (Depuis), measured as a real length (eventstore.Instant.Since:
// a server's clock set forward or back does not move it) — 15 minutes
// after the last game (§6.3), two weeks for the documents (§6.4.2.c) —;
// or, when PartieSuivante, the start of the next game (§6.3), a fact
// already stored: passed whatever the clock reads.
type Echeance struct {
	Depuis         eventstore.Instant
	Delai          time.Duration
	PartieSuivante bool
}

// Date is when the deadline falls on the wall clock, as people read it.
func (e Echeance) Date() time.Time { return e.Depuis.Wall.Add(e.Delai) }

// Depassee tells whether the deadline has passed at maintenant.
func (e Echeance) Depassee(maintenant eventstore.Instant) bool {
	d, _ := maintenant.Since(e.Depuis)
	return e.PartieSuivante || d > e.Delai
}

// EcheanceRecours is the filing deadline of §6.3: before the next game of
// the competition starts (debutPartieSuivante, the time its first tirage
// was stored) or, failing that, 15 minutes after its last game. Zero times
// mean unknown; false when neither is known (no deadline).
func EcheanceRecours(debutPartieSuivante time.Time, finDernierePartie eventstore.Instant) (Echeance, bool) {
	switch {
	case !debutPartieSuivante.IsZero():
		return Echeance{Depuis: eventstore.Instant{Wall: debutPartieSuivante}, PartieSuivante: true}, true
	case !finDernierePartie.Wall.IsZero():
		return Echeance{Depuis: finDernierePartie, Delai: delaiApresDernierePartie}, true
	}
	return Echeance{}, false
}

// Statut is where an appeal stands.
type Statut string

// The states of an appeal, read at its current level.
const (
	StatutDepose   Statut = "depose"    // filed, commission not composed yet
	StatutEnExamen Statut = "en_examen" // commission composed, deliberating
	StatutDecide   Statut = "decide"    // decided at the current level
	StatutClasse   Statut = "classe"    // FISF dossier void (§6.4.2.c)
)

// Niveau is the state of one level of the appeal.
type Niveau struct {
	Numero    int
	Instance  Instance
	Requerant Requerant
	Motif     string
	// Contestee is the bulletin decision contested at this level: the one
	// named on filing, then the one in force after the level below.
	Contestee *correction.Decision
	// Demandee is the decision the appellant asks for.
	Demandee    *correction.Decision
	TransmisPar string
	President   string
	Membres     []string
	Votes       []Vote
	Decision    *DecisionRendue
	Pieces      *PiecesDemandees
	Complet     bool
	Classe      *AppelClasse
	Appliquee   bool
}

func (n *Niveau) membre(x string) bool { return slices.Contains(n.Membres, x) }

func (n *Niveau) aVote(x string) bool {
	return slices.ContainsFunc(n.Votes, func(v Vote) bool { return v.Membre == x })
}

// piecesEnAttente: documents were asked for and not received (§6.4.2.c).
func (n *Niveau) piecesEnAttente() bool { return n.Pieces != nil && !n.Complet }

func (n *Niveau) copie() Niveau {
	c := *n
	c.Membres = slices.Clone(n.Membres)
	c.Votes = slices.Clone(n.Votes)
	return c
}

// Flux is the stream of appeal id of tournament tournoi:
// "appel-<n>-<tournoi>-<id>", n the length of the tournament's id, so that
// no two tournaments' appeals share a stream (tournament "A-B" with id "C"
// and tournament "A" with id "B-C" do not). Whoever names an id learns
// nothing of another tournament's appeals (issue 28 item 10).
func Flux(tournoi, id string) (string, error) {
	for _, x := range []string{tournoi, id} {
		if _, err := streamname.AppelStream(x); err != nil {
			return "", err
		}
	}
	return streamname.AppelStream(fmt.Sprintf("%d-%s-%s", len(tournoi), tournoi, id))
}

// Retrouver replays appeal id of tournament tournoi with lire, which
// replays a stream into a new appeal (version 0 when the stream is
// empty): from its stream Flux or, for an appeal filed while ids were
// global, from "appel-<id>" (eventstore.AppelStream) when the appeal there
// is this tournament's; its new events then go there too. Another
// tournament's appeal under that old name is not this one: the answer is
// the same as for an id nobody used, an appeal at version 0. An invalid id
// is APPEAL_NOT_FOUND; an appeal of those days filed under the very name
// Flux gives (an id such as "2-T1-AP1") takes that name: INVALID_APPEAL.
func Retrouver(tournoi, id string, lire func(flux string) (*Appel, error)) (*Appel, error) {
	flux, err := Flux(tournoi, id)
	if err != nil {
		return nil, &erreur.Erreur{Code: CodeAppealNotFound, Message: fmt.Sprintf("identifiant de recours %q invalide", id), Err: err}
	}
	a, err := lire(flux)
	switch {
	case err != nil:
		return nil, err
	case a.Version() > 0 && (a.objet.Tournoi != tournoi || a.id != id):
		return nil, &erreur.Erreur{Code: CodeInvalidAppeal, Message: fmt.Sprintf("identifiant de recours %q invalide", id)}
	case a.Version() > 0:
		return a, nil
	}
	global, _ := streamname.AppelStream(id) // valid: Flux checked id
	g, err := lire(global)
	if err != nil {
		return nil, err
	}
	if g.Version() > 0 && g.objet.Tournoi == tournoi && g.id == id {
		g.flux = global
		return g, nil
	}
	return a, nil
}

// Appel is the aggregate of one appeal.
type Appel struct {
	id       string
	flux     string
	objet    Objet
	deposeLe time.Time
	echeance *time.Time
	niveaux  []*Niveau
	aggregate.Base
}

// Nouveau returns an empty appeal, ready for Deposer or for replaying its
// stream with Apply.
func Nouveau() *Appel { return &Appel{} }

// ID is the appeal's identifier.
func (a *Appel) ID() string { return a.id }

// Flux is the stream the appeal is stored in: Flux of its tournament and
// id, or "appel-<id>" for an appeal filed while ids were global
// (Retrouver).
func (a *Appel) Flux() string { return a.flux }

// Objet is what the appeal is about.
func (a *Appel) Objet() Objet { return a.objet }

// DeposeLe is when the appeal was filed.
func (a *Appel) DeposeLe() time.Time { return a.deposeLe }

// Niveaux returns a copy of every level, the commission d'arbitrage first.
func (a *Appel) Niveaux() []Niveau {
	out := make([]Niveau, len(a.niveaux))
	for i, n := range a.niveaux {
		out[i] = n.copie()
	}
	return out
}

// Statut is the state of the appeal at its current level; "" before filing.
func (a *Appel) Statut() Statut {
	if len(a.niveaux) == 0 {
		return ""
	}
	n := a.courant()
	switch {
	case n.Classe != nil:
		return StatutClasse
	case n.Decision != nil:
		return StatutDecide
	case n.President != "":
		return StatutEnExamen
	}
	return StatutDepose
}

// DecisionEnVigueur is the bulletin decision the appeal put in force and
// the level that did, or nil and 0 when the contested decision stands
// (nothing decided yet, rejected, or a void FISF dossier).
func (a *Appel) DecisionEnVigueur() (*correction.Decision, int) {
	for i := len(a.niveaux) - 1; i >= 0; i-- {
		if d := a.niveaux[i].Decision; d != nil && d.Decision != nil {
			return d.Decision, d.Niveau
		}
	}
	return nil, 0
}

// AAppliquer returns the decision to carry into the game: the level's
// decision in force when the appeal is about a bulletin and that level has
// not been applied yet.
func (a *Appel) AAppliquer() (DecisionRendue, bool) {
	d, niveau := a.DecisionEnVigueur()
	if d == nil || !a.objet.Bulletin() || a.niveaux[niveau-1].Appliquee {
		return DecisionRendue{}, false
	}
	return *a.niveaux[niveau-1].Decision, true
}

// Copie is a copy of the appeal that shares nothing a transition changes
// (aggregate.Record).
func (a *Appel) Copie() *Appel {
	c := *a
	c.niveaux = make([]*Niveau, len(a.niveaux))
	for i, n := range a.niveaux {
		copie := n.copie()
		c.niveaux[i] = &copie
	}
	return &c
}

func (a *Appel) courant() *Niveau { return a.niveaux[len(a.niveaux)-1] }

// ouvert returns the current level if it is still open to deliberation.
func (a *Appel) ouvert() (*Niveau, error) {
	if a.Version() == 0 {
		return nil, erreur.Refus(CodeAppealNotFound, "aucun recours n'est déposé")
	}
	n := a.courant()
	switch {
	case n.Classe != nil:
		return nil, erreur.Refus(CodeAppealClosed, "le recours %s est classé nul et non avenu (§6.4.2.c)", a.id)
	case n.Decision != nil:
		return nil, erreur.Refus(CodeAppealAlreadyDecided, "la %s a déjà statué sur le recours %s ; seul un recours de niveau supérieur peut la remettre en cause (§6.4.2)", libelle(n.Instance), a.id)
	}
	return n, nil
}

// Saisine is what an appellant hands in (§6.3). Echeance is the deadline
// from EcheanceRecours, zero when none is known.
type Saisine struct {
	Appel     string
	Objet     Objet
	Requerant Requerant
	Motif     string
	Contestee *correction.Decision
	Demandee  *correction.Decision
	// Echeance is the §6.3 deadline, nil when none is known.
	Echeance *Echeance
}

// Deposer files the appeal with the commission d'arbitrage (§6.3): by a
// player who feels wronged or by the arbitral body, with its grounds,
// before the deadline of §6.3 when one is known.
func (a *Appel) Deposer(s Saisine, maintenant eventstore.Instant) error {
	if a.Version() > 0 {
		return erreur.Refus(CodeAppealAlreadyFiled, "le recours %s est déjà déposé", a.id)
	}
	if _, err := streamname.AppelStream(s.Appel); err != nil {
		return &erreur.Erreur{Code: CodeInvalidAppeal, Message: fmt.Sprintf("identifiant de recours %q invalide", s.Appel), Err: err}
	}
	o := s.Objet
	switch {
	case o.Tournoi == "":
		return erreur.Refus(CodeInvalidAppeal, "un recours porte sur un tournoi")
	case o.Coup < 0 || o.Table < 0:
		return erreur.Refus(CodeInvalidAppeal, "coup et table ne sont pas négatifs")
	case (o.Coup > 0 || o.Licence != "" || o.Table > 0) && o.Partie == "":
		return erreur.Refus(CodeInvalidAppeal, "un coup, un joueur ou une table se désignent dans une partie")
	case s.Motif == "":
		return erreur.Refus(CodeInvalidAppeal, "un recours expose son motif (§6.3)")
	case s.Echeance != nil && s.Echeance.PartieSuivante:
		return erreur.Refus(CodeDeadlinePassed, "recours formulé après le début de la partie suivante, le %s (§6.3)", s.Echeance.Date().Format(time.RFC3339))
	case s.Echeance != nil && s.Echeance.Depassee(maintenant):
		return erreur.Refus(CodeDeadlinePassed, "recours formulé plus de 15 minutes après la dernière partie, après l'échéance du %s (§6.3)", s.Echeance.Date().Format(time.RFC3339))
	}
	if _, err := Flux(o.Tournoi, s.Appel); err != nil {
		return &erreur.Erreur{Code: CodeInvalidAppeal, Message: fmt.Sprintf("identifiant de tournoi %q invalide", o.Tournoi), Err: err}
	}
	if err := validerRequerant(s.Requerant); err != nil {
		return err
	}
	if err := validerDecisions(s.Contestee, s.Demandee); err != nil {
		return err
	}
	e := AppelDepose{Appel: s.Appel, Objet: o, Requerant: s.Requerant, Motif: s.Motif, Contestee: s.Contestee,
		Demandee: s.Demandee, DeposeLe: maintenant.Wall}
	if s.Echeance != nil {
		e.Echeance = new(s.Echeance.Date())
	}
	return aggregate.Record(a, e)
}

// ComposerCommission records who sits at the current level: the président
// and the members, président included (§6.4.1; §6.4.2.b for the FISF). A
// person concerned by the dispute does not sit (guide §3.8.1.A: "la
// personne en cause ne doit pas assister aux débats"; §3.8.2: alternates
// replace a member concerned by the dispute), nor, at the FISF, a member of
// the commission d'arbitrage of the event (§6.4.2.b).
func (a *Appel) ComposerCommission(president string, membres []string) error {
	n, err := a.ouvert()
	if err != nil {
		return err
	}
	if n.President != "" {
		return erreur.Refus(CodeCommissionAlreadyComposed, "la %s du recours %s est déjà composée", libelle(n.Instance), a.id)
	}
	vus := map[string]bool{}
	for _, m := range membres {
		if m == "" || vus[m] {
			return erreur.Refus(CodeInvalidCommission, "membre %q absent ou en double", m)
		}
		vus[m] = true
	}
	switch {
	case len(membres) < membresMinimum:
		return erreur.Refus(CodeInvalidCommission, "une commission compte au moins %d membres (guide §3.8.2), %d donnés", membresMinimum, len(membres))
	case !vus[president]:
		return erreur.Refus(CodeInvalidCommission, "le président %q doit être membre de la commission (§6.4.2.b)", president)
	}
	for _, m := range membres {
		if raison := a.implique(m); raison != "" {
			return erreur.Refus(CodeMemberInvolved, "%s ne peut siéger : %s", m, raison)
		}
	}
	return aggregate.Record(a, CommissionComposee{Niveau: n.Numero, Instance: n.Instance, President: president, Membres: slices.Clone(membres)})
}

// implique tells why a person may not sit at the current level, "" if he may.
func (a *Appel) implique(m string) string {
	if m == a.objet.Licence {
		return "joueur objet du litige (guide §3.8.1.A)"
	}
	for _, n := range a.niveaux {
		if n.Requerant.Identite == m {
			return "auteur du recours (guide §3.8.1.A)"
		}
		if n.Numero < a.courant().Numero && n.membre(m) {
			return "membre de la commission d'arbitrage de l'épreuve (§6.4.2.b)"
		}
	}
	return ""
}

// Voter records one member's vote at the current level. Only members vote,
// once each; an appeal can be upheld only if a decision was requested.
func (a *Appel) Voter(membre string, issue Issue) error {
	n, err := a.ouvert()
	if err != nil {
		return err
	}
	if err := a.deliberable(n); err != nil {
		return err
	}
	switch {
	case !n.membre(membre):
		return erreur.Refus(CodeNotAMember, "%s n'est pas membre de la %s du recours %s", membre, libelle(n.Instance), a.id)
	case n.aVote(membre):
		return erreur.Refus(CodeVoteAlreadyCast, "%s a déjà voté", membre)
	}
	if err := a.issuePossible(n, issue); err != nil {
		return err
	}
	return aggregate.Record(a, VoteEmis{Niveau: n.Numero, Membre: membre, Issue: issue})
}

// deliberable: the commission is composed and, at the FISF, holds every
// document it asked for (§6.4.2.c).
func (a *Appel) deliberable(n *Niveau) error {
	switch {
	case n.President == "":
		return erreur.Refus(CodeCommissionNotComposed, "la %s du recours %s n'est pas composée (§6.4.1)", libelle(n.Instance), a.id)
	case n.piecesEnAttente():
		return erreur.Refus(CodeDossierIncomplete, "pièces demandées non reçues : %s (§6.4.2.c)", n.Pieces.Pieces)
	}
	return nil
}

func (a *Appel) issuePossible(n *Niveau, issue Issue) error {
	switch issue {
	case IssueRejete, IssueAmende:
		return nil
	case IssueAccueilli:
		if n.Demandee == nil && a.objet.Bulletin() {
			return erreur.Refus(CodeInvalidAppeal, "aucune décision n'est demandée : le recours peut être rejeté ou la décision amendée")
		}
		return nil
	}
	return erreur.Refus(CodeInvalidAppeal, "issue %q inconnue (accueilli, rejete, amende)", issue)
}

// Majorite is the outcome the votes carry: the one with strictly the most
// votes (guide §3.8.1.A: "les décisions sont prises à la majorité simple des
// membres"). The texts do not settle a tie; Arbitre gives the président,
// who presides ex officio (§6.4.2.b, guide §3.8.1.A), the casting vote, so
// departage is true when his vote broke a tie. A tie the président's vote
// does not break (he voted for neither tied outcome) has no majority.
func Majorite(votes []Vote, president string) (issue Issue, departage bool, err error) {
	compte := map[Issue]int{}
	var voixPresident Issue
	for _, v := range votes {
		compte[v.Issue]++
		if v.Membre == president {
			voixPresident = v.Issue
		}
	}
	meilleur := 0
	var entete []Issue
	for _, i := range []Issue{IssueAccueilli, IssueRejete, IssueAmende} {
		switch c := compte[i]; {
		case c > meilleur:
			meilleur, entete = c, []Issue{i}
		case c == meilleur && c > 0:
			entete = append(entete, i)
		}
	}
	switch {
	case len(entete) == 1:
		return entete[0], false, nil
	case slices.Contains(entete, voixPresident):
		return voixPresident, true, nil
	}
	return "", false, erreur.Refus(CodeNoMajority, "aucune majorité : %v à égalité sans la voix du président", entete)
}

// Deliberation is a commission's decision as the président announces it.
// Decision is the commission's own bulletin decision, given only when
// amending; upheld applies the requested one, rejected leaves the contested
// one in force.
type Deliberation struct {
	Issue      Issue
	Decision   *correction.Decision
	Motivation string
}

// Decider records the commission's decision at the current level, once:
// every member has voted (guide §3.8: "tous les membres doivent être
// présents"), the outcome is the majority's (Majorite), and it is
// reasoned. A decided level is immutable.
func (a *Appel) Decider(d Deliberation, maintenant time.Time) error {
	n, err := a.ouvert()
	if err != nil {
		return err
	}
	if err := a.deliberable(n); err != nil {
		return err
	}
	if err := a.issuePossible(n, d.Issue); err != nil {
		return err
	}
	if d.Motivation == "" {
		return erreur.Refus(CodeInvalidAppeal, "une décision de commission est motivée")
	}
	decision := d.Decision
	switch d.Issue {
	case IssueAmende:
		if decision == nil && a.objet.Bulletin() {
			return erreur.Refus(CodeInvalidAppeal, "amender un bulletin demande la décision de la commission")
		}
		if err := validerDecisions(decision); err != nil {
			return err
		}
	default:
		if decision != nil {
			return erreur.Refus(CodeInvalidAppeal, "seule une décision amendée porte sa propre décision de bulletin")
		}
		if d.Issue == IssueAccueilli {
			decision = n.Demandee
		}
	}
	if len(n.Votes) < len(n.Membres) {
		return erreur.Refus(CodeVotesIncomplete, "%d votes sur %d membres : tous les membres délibèrent (guide §3.8)", len(n.Votes), len(n.Membres))
	}
	majorite, departage, err := Majorite(n.Votes, n.President)
	if err != nil {
		return err
	}
	if majorite != d.Issue {
		return erreur.Refus(CodeMajorityMismatch, "les votes donnent %q, la décision annonce %q", majorite, d.Issue)
	}
	return aggregate.Record(a, DecisionRendue{Niveau: n.Numero, Instance: n.Instance, Issue: d.Issue, Decision: decision,
		Motivation: d.Motivation, President: n.President, Votes: slices.Clone(n.Votes), Departage: departage, RendueLe: maintenant})
}

// MarquerAppliquee records that the decision in force (AAppliquer) was
// carried into the game as a new bulletin correction.
func (a *Appel) MarquerAppliquee(niveau int) error {
	if a.Version() == 0 {
		return erreur.Refus(CodeAppealNotFound, "aucun recours n'est déposé")
	}
	d, ok := a.AAppliquer()
	if !ok || d.Niveau != niveau {
		return erreur.Refus(CodeNothingToApply, "le recours %s n'a pas de décision du niveau %d à appliquer", a.id, niveau)
	}
	return aggregate.Record(a, DecisionAppliquee{Niveau: niveau, Partie: a.objet.Partie, Coup: a.objet.Coup, Licence: a.objet.Licence})
}

// RecoursFISF takes a decided appeal to the FISF commission de recours
// (§6.4.2.a). TransmisPar is the président of the commission d'arbitrage
// or, in his absence, the organiser, who sends the dossier (§6.4.2.c).
// Demandee, when nil, keeps the decision requested below. The texts set no
// deadline for it.
type RecoursFISF struct {
	Requerant   Requerant
	Motif       string
	Demandee    *correction.Decision
	TransmisPar string
}

// FormerRecoursFISF opens the FISF level once the commission d'arbitrage
// has decided; nothing lies above the FISF (guide §3.8.2: "instance de
// dernier recours").
func (a *Appel) FormerRecoursFISF(r RecoursFISF, maintenant time.Time) error {
	if a.Version() == 0 {
		return erreur.Refus(CodeAppealNotFound, "aucun recours n'est déposé")
	}
	n := a.courant()
	switch {
	case n.Numero == NiveauRecoursFISF:
		return erreur.Refus(CodeAppealFinal, "la commission de recours FISF est la dernière instance (§6.4.2)")
	case n.Decision == nil:
		return erreur.Refus(CodeAppealNotDecided, "la commission d'arbitrage n'a pas encore statué (§6.4.2.a)")
	case r.Motif == "":
		return erreur.Refus(CodeInvalidAppeal, "un recours expose son motif")
	case r.TransmisPar == "":
		return erreur.Refus(CodeInvalidAppeal, "le dossier est transmis par le président de la commission d'arbitrage ou l'organisateur (§6.4.2.c)")
	}
	if err := validerRequerant(r.Requerant); err != nil {
		return err
	}
	if err := validerDecisions(r.Demandee); err != nil {
		return err
	}
	return aggregate.Record(a, RecoursFISFForme{Niveau: NiveauRecoursFISF, Requerant: r.Requerant, Motif: r.Motif,
		Demandee: r.Demandee, TransmisPar: r.TransmisPar, FormeLe: maintenant})
}

// DemanderPieces records the FISF président's request for missing
// documents; the appellant has two weeks (§6.4.2.c).
func (a *Appel) DemanderPieces(pieces string, maintenant eventstore.Instant) error {
	n, err := a.ouvert()
	if err != nil {
		return err
	}
	switch {
	case n.Numero != NiveauRecoursFISF:
		return erreur.Refus(CodeInvalidAppeal, "seul le président de la commission de recours FISF demande des pièces (§6.4.2.c)")
	case n.President == "":
		return erreur.Refus(CodeCommissionNotComposed, "la commission de recours FISF n'est pas composée (§6.4.2.b)")
	case n.piecesEnAttente():
		return erreur.Refus(CodeDossierIncomplete, "des pièces sont déjà attendues : %s", n.Pieces.Pieces)
	case pieces == "":
		return erreur.Refus(CodeInvalidAppeal, "préciser les pièces demandées")
	}
	return aggregate.Record(a, PiecesDemandees{Niveau: n.Numero, Pieces: pieces, Echeance: maintenant.Wall.Add(delaiPieces), Monotone: maintenant.Monotonic})
}

// CompleterDossier records the documents received within two weeks
// (§6.4.2.c).
func (a *Appel) CompleterDossier(maintenant eventstore.Instant) error {
	n, err := a.piecesAttendues()
	if err != nil {
		return err
	}
	if n.Pieces.echeance().Depassee(maintenant) {
		return erreur.Refus(CodeDeadlinePassed, "pièces reçues après l'échéance du %s (§6.4.2.c)", n.Pieces.Echeance.Format(time.RFC3339))
	}
	return aggregate.Record(a, DossierComplete{Niveau: n.Numero, CompleteLe: maintenant.Wall})
}

// Classer closes the FISF level as null and void once two weeks passed
// without the documents (§6.4.2.c); the decision below stands.
func (a *Appel) Classer(maintenant eventstore.Instant) error {
	n, err := a.piecesAttendues()
	if err != nil {
		return err
	}
	if !n.Pieces.echeance().Depassee(maintenant) {
		return erreur.Refus(CodeDeadlineRunning, "le délai de deux semaines court jusqu'au %s (§6.4.2.c)", n.Pieces.Echeance.Format(time.RFC3339))
	}
	return aggregate.Record(a, AppelClasse{Niveau: n.Numero, Motif: "pièces non fournies dans les deux semaines (§6.4.2.c)", ClasseLe: maintenant.Wall})
}

func (a *Appel) piecesAttendues() (*Niveau, error) {
	n, err := a.ouvert()
	if err != nil {
		return nil, err
	}
	if !n.piecesEnAttente() {
		return nil, erreur.Refus(CodeInvalidAppeal, "aucune pièce n'est attendue")
	}
	return n, nil
}

func validerRequerant(r Requerant) error {
	if r.Identite == "" || (r.Qualite != QualiteJoueur && r.Qualite != QualiteArbitre) {
		return erreur.Refus(CodeInvalidAppeal, "le recours vient d'un joueur ou d'un arbitre identifié (§6.3)")
	}
	return nil
}

// validerDecisions checks bulletin decisions in the form of engine/correction.
func validerDecisions(ds ...*correction.Decision) error {
	for _, d := range ds {
		if d == nil {
			continue
		}
		switch d.Sanction {
		case correction.None, correction.Warning, correction.Penalty, correction.Zero, correction.Average:
		default:
			return erreur.Refus(CodeInvalidAppeal, "sanction %q inconnue", d.Sanction)
		}
		switch {
		case d.Paid < d.MinPaid() || d.DisciplineWarnings < 0 || d.AverageCap < 0:
			return erreur.Refus(CodeInvalidAppeal, "une décision de bulletin n'a pas de valeur négative, hors pénalité de 5 points sur un score de moins de 5 (§5.6)")
		case (d.Sanction == correction.Zero || d.Sanction == correction.Average) && d.Paid != 0:
			return erreur.Refus(CodeInvalidAppeal, "une nullité ou une moyenne ne paie rien directement (§5.7, §5.9)")
		}
	}
	return nil
}

func libelle(i Instance) string {
	if i == InstanceRecoursFISF {
		return "commission de recours FISF"
	}
	return "commission d'arbitrage"
}
