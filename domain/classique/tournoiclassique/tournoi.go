// Package tournoiclassique is the classique tournament aggregate: registration with
// cote, seeding, rounds paired by the director from the software's proposal
// (pairing.Propose), which he may amend (both kept as events), results
// copied from the validated feuilles de match, withdrawals (§9 abandon en
// cours de tournoi) and the closing that triggers the cote computation. It
// also ranks players (Classer), for the Swiss pairing and the standings
// projection alike.
package tournoiclassique

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"

	"arbitre/domain/aggregate"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore/repository"
)

// Inscrit is a registered player.
type Inscrit struct {
	Joueur string
	Nom    string
	Cote   int
	Retire bool
}

// TournoiClassique is the tournament aggregate, built by Ouvrir or Rejouer.
type TournoiClassique struct {
	aggregate.Base

	ouvert    TournoiOuvert
	inscrits  []Inscrit
	index     map[string]int
	tetes     []string
	proposee  *AppariementPropose
	amendee   *AppariementAmende
	publiees  []RondePubliee
	resultats map[string]ResultatEnregistre // by match id
	clos      bool
}

// Ouvrir opens the tournament (the first event of its stream) of rondes
// rounds with its configuration: the tie-breaks after points de match and
// what the bye counts (ConfigParDefaut when the director sets none).
func (t *TournoiClassique) Ouvrir(id, nom string, rondes int, cfg Config) error {
	if t.Version() > 0 {
		return erreur.Refus(erreur.CodeAlreadyExists, "le tournoi %s existe déjà", t.ID())
	}
	if _, err := Stream(id); err != nil {
		return erreur.RefusCause(CodeInvalidInput, err, "Identifiant de tournoi %q invalide", id)
	}
	if rondes < 1 {
		return erreur.Refus(CodeInvalidInput, "Donnée invalide : un tournoi a au moins une ronde (%d demandée)", rondes)
	}
	if err := cfg.Valider(); err != nil {
		return err
	}
	return aggregate.Record(t, TournoiOuvert{Tournoi: id, Nom: nom, Rondes: rondes, Config: &cfg})
}

// Nouveau returns an empty tournament, ready for Ouvrir or a replay (the
// repository's new aggregate).
func Nouveau() *TournoiClassique {
	return &TournoiClassique{index: map[string]int{}, resultats: map[string]ResultatEnregistre{}}
}

// Rejouer rebuilds a tournament from its events.
func Rejouer(events []any) (*TournoiClassique, error) { return repository.Replay(Nouveau(), events) }

// Apply is the one transition function, shared by commands and replay:
// it checks an event before changing anything.
func (t *TournoiClassique) Apply(e any) error { return aggregate.Apply(&t.Base, t.appliquer, e) }

func (t *TournoiClassique) appliquer(e any) error {
	if _, ok := e.(TournoiOuvert); ok != (t.Version() == 0) {
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : %s doit être le premier événement, et lui seul", TypeTournoiOuvert)
	}
	switch ev := e.(type) {
	case TournoiOuvert:
		t.ouvert = ev
	case JoueurInscrit:
		if _, inscrit := t.index[ev.Joueur]; inscrit {
			return erreur.Refus(CodeCorruptHistory, "Historique illisible : %s inscrit deux fois", ev.Joueur)
		}
		t.index[ev.Joueur] = len(t.inscrits)
		t.inscrits = append(t.inscrits, Inscrit{Joueur: ev.Joueur, Nom: ev.Nom, Cote: ev.Cote})
	case TetesDeSerie:
		t.tetes = ev.Ordre
	case AppariementPropose:
		t.proposee, t.amendee = &ev, nil
	case AppariementAmende:
		t.amendee = &ev
	case RondePubliee:
		t.publiees = append(t.publiees, ev)
		t.proposee, t.amendee = nil, nil
	case ResultatEnregistre:
		if _, corrige := t.resultats[ev.Match]; corrige != (ev.Correction != "") {
			return erreur.Refus(CodeCorruptHistory, "Historique illisible : résultat de %s enregistré deux fois ou corrigé avant d'exister", ev.Match)
		}
		t.resultats[ev.Match] = ev
	case JoueurRetire:
		i, ok := t.index[ev.Joueur]
		if !ok {
			return erreur.Refus(CodeCorruptHistory, "Historique illisible : retrait de %s, inconnu", ev.Joueur)
		}
		t.inscrits[i].Retire = true
		t.proposee, t.amendee = nil, nil
	case TournoiClos:
		t.clos = true
	default:
		return erreur.Refus(CodeCorruptHistory, "Historique illisible : événement de tournoi %T inconnu", e)
	}
	return nil
}

// Copie is a copy of the tournament sharing nothing a transition changes.
func (t *TournoiClassique) Copie() *TournoiClassique {
	c := *t
	c.inscrits = slices.Clone(t.inscrits)
	c.publiees = slices.Clone(t.publiees)
	c.index = maps.Clone(t.index)
	c.resultats = maps.Clone(t.resultats)
	return &c
}

// ID is the tournament id.
func (t *TournoiClassique) ID() string { return t.ouvert.Tournoi }

// Config is the tournament's configuration: the one it opened with, or
// ConfigParDefaut for a tournament opened before it was recorded.
func (t *TournoiClassique) Config() Config { return t.ouvert.Configuration() }

// Nom is the tournament's name.
func (t *TournoiClassique) Nom() string { return t.ouvert.Nom }

// Resultat returns the result recorded for a match, and false when none.
func (t *TournoiClassique) Resultat(match string) (ResultatEnregistre, bool) {
	r, ok := t.resultats[match]
	return r, ok
}

// Inscrits lists the registered players in registration order.
func (t *TournoiClassique) Inscrits() []Inscrit { return slices.Clone(t.inscrits) }

// TetesDeSerie is the seeding, once established.
func (t *TournoiClassique) TetesDeSerie() []string { return slices.Clone(t.tetes) }

// Rondes is the number of rounds planned.
func (t *TournoiClassique) Rondes() int { return t.ouvert.Rondes }

// Publiees are the published rounds.
func (t *TournoiClassique) Publiees() []RondePubliee { return slices.Clone(t.publiees) }

// Proposition is the pending proposal and its amendment, if any.
func (t *TournoiClassique) Proposition() (*AppariementPropose, *AppariementAmende) {
	return t.proposee, t.amendee
}

// Clos reports whether the tournament is closed.
func (t *TournoiClassique) Clos() bool { return t.clos }

// Inscrire registers a player with his cote (0 for none), before the
// seeding.
func (t *TournoiClassique) Inscrire(joueur, nom string, cote int) error {
	if err := t.exigerInscriptions(); err != nil {
		return err
	}
	if faute := t.fauteInscription(Inscription{Joueur: joueur, Nom: nom, Cote: cote}, nil); faute != "" {
		return erreur.Refus(CodeInvalidPlayer, "Inscription refusée%s : %s", entre(joueur), faute)
	}
	return aggregate.Record(t, JoueurInscrit{Joueur: joueur, Nom: nom, Cote: cote})
}

// exigerInscriptions refuses registrations once the seeding is made.
func (t *TournoiClassique) exigerInscriptions() error {
	if t.tetes != nil {
		return erreur.Refus(CodeWrongState, "Inscriptions closes : les têtes de série sont faites")
	}
	return nil
}

// fauteInscription says what is wrong with a registration, "" when
// nothing; vus holds the players registered earlier in the same batch.
// The player's id is not repeated (see entre).
func (t *TournoiClassique) fauteInscription(i Inscription, vus map[string]bool) string {
	_, inscrit := t.index[i.Joueur]
	switch {
	case i.Joueur == "":
		return "joueur sans identifiant"
	case inscrit || vus[i.Joueur]:
		return "déjà inscrit"
	case i.Cote < 0:
		return fmt.Sprintf("la cote %d est impossible", i.Cote)
	}
	return ""
}

// entre names a player in parentheses, or nothing for a missing id.
func entre(joueur string) string {
	if joueur == "" {
		return ""
	}
	return " (" + joueur + ")"
}

// EtablirTetesDeSerie closes registrations and seeds the players by cote.
func (t *TournoiClassique) EtablirTetesDeSerie() error {
	if t.tetes != nil {
		return erreur.Refus(CodeWrongState, "Les têtes de série sont déjà faites")
	}
	actifs := t.actifs()
	if len(actifs) < 2 {
		return erreur.Refus(CodeWrongState, "Têtes de série impossibles : %d joueur actif, un tournoi en demande au moins deux", len(actifs))
	}
	slices.SortFunc(actifs, func(a, b Inscrit) int { return cmp.Or(cmp.Compare(b.Cote, a.Cote), cmp.Compare(a.Joueur, b.Joueur)) })
	ordre := make([]string, len(actifs))
	for i, p := range actifs {
		ordre[i] = p.Joueur
	}
	return aggregate.Record(t, TetesDeSerie{Ordre: ordre})
}

func (t *TournoiClassique) actifs() []Inscrit {
	var out []Inscrit
	for _, p := range t.inscrits {
		if !p.Retire {
			out = append(out, p)
		}
	}
	return out
}

// complete reports whether every game of the published rounds has a result.
func (t *TournoiClassique) complete() bool {
	for _, r := range t.publiees {
		for _, tb := range r.Tables {
			if _, ok := t.resultats[tb.Match]; !ok {
				return false
			}
		}
	}
	return true
}

// Proposer asks the software for the next round's pairing with a method
// (pairing.InitialByCote is the usual first round, Swiss the next ones).
func (t *TournoiClassique) Proposer(method pairing.Method, kingAvoidsRepeats bool) error {
	switch {
	case t.clos:
		return erreur.Refus(CodeWrongState, "Le tournoi est clos")
	case t.tetes == nil:
		return erreur.Refus(CodeWrongState, "Faire d'abord les têtes de série")
	case len(t.publiees) >= t.ouvert.Rondes:
		return erreur.Refus(CodeWrongState, "Les %d rondes sont déjà publiées", t.ouvert.Rondes)
	case !t.complete():
		return erreur.Refus(CodeRoundIncomplete, "Ronde incomplète : la ronde %d a des parties sans résultat", len(t.publiees))
	}
	ronde := len(t.publiees) + 1
	prop, err := pairing.Propose(t.requete(ronde, method, kingAvoidsRepeats))
	if err != nil {
		motif := "la méthode n'a pas de solution"
		if cause := (*erreur.Erreur)(nil); errors.As(err, &cause) {
			motif = cause.Message
		}
		return erreur.RefusCause(CodePairingFailed, err, "Ronde %d : %s", ronde, motif)
	}
	ev := AppariementPropose{Ronde: ronde, Method: prop.Method, Exempt: string(prop.Bye)}
	for _, tb := range prop.Tables {
		ev.Tables = append(ev.Tables, Table{Numero: tb.Number, Premier: string(tb.First), Second: string(tb.Second)})
	}
	for _, id := range prop.OpponentWithdrawn {
		ev.AdversaireRetire = append(ev.AdversaireRetire, string(id))
	}
	return aggregate.Record(t, ev)
}

// requete builds the pairing request from the results so far.
func (t *TournoiClassique) requete(ronde int, method pairing.Method, king bool) pairing.Request {
	req := pairing.Request{Round: ronde, Method: method, KingOfTheHillAvoidsRepeats: king}
	lignes := t.Classement()
	for _, l := range lignes {
		req.Players = append(req.Players, pairing.Player{ID: pairing.PlayerID(l.Joueur), Cote: l.Cote,
			MatchPoints: l.PointsDeMatch, Spread: l.Pdep, Withdrawn: l.Retire})
	}
	pos := map[string]int{}
	for i, p := range req.Players {
		pos[string(p.ID)] = i
	}
	for _, r := range t.publiees {
		for _, tb := range r.Tables {
			req.History = append(req.History, pairing.Meeting{Round: r.Ronde, First: pairing.PlayerID(tb.Premier), Second: pairing.PlayerID(tb.Second)})
			req.Players[pos[tb.Premier]].Starts++
		}
		if r.Exempt != "" {
			req.Players[pos[r.Exempt]].HadBye = true
		}
	}
	return req
}

// TableAmendee is one game of the director's amended pairing.
type TableAmendee struct {
	Premier, Second string
}

// Amender replaces the pending proposal's tables with the director's
// (§3.1 starts included). Every active player must appear exactly once, at
// a table or as the bye; a bye only with an odd number of players and never
// twice to the same player.
func (t *TournoiClassique) Amender(tables []TableAmendee, exempt, motif string) error {
	if t.proposee == nil {
		return erreur.Refus(CodeWrongState, "Aucune proposition d'appariement à amender")
	}
	actifs := map[string]bool{}
	for _, p := range t.actifs() {
		actifs[p.Joueur] = true
	}
	vus := map[string]bool{}
	voir := func(id string) error {
		switch {
		case !actifs[id]:
			return erreur.Refus(CodeInvalidPairing, "Appariement invalide : %q n'est pas un joueur actif", id)
		case vus[id]:
			return erreur.Refus(CodeInvalidPairing, "Appariement invalide : %s apparaît deux fois", id)
		}
		vus[id] = true
		return nil
	}
	ev := AppariementAmende{Ronde: t.proposee.Ronde, Exempt: exempt, Motif: motif}
	for i, tb := range tables {
		if err := voir(tb.Premier); err != nil {
			return err
		}
		if err := voir(tb.Second); err != nil {
			return err
		}
		ev.Tables = append(ev.Tables, Table{Numero: i + 1, Premier: tb.Premier, Second: tb.Second})
	}
	if (exempt != "") != (len(actifs)%2 == 1) {
		return erreur.Refus(CodeInvalidPairing, "Appariement invalide : un exempt si et seulement si le nombre de joueurs (%d) est impair", len(actifs))
	}
	if exempt != "" {
		if err := voir(exempt); err != nil {
			return err
		}
		for _, r := range t.publiees {
			if r.Exempt == exempt {
				return erreur.Refus(CodeInvalidPairing, "Appariement invalide : %s a déjà été exempt à la ronde %d", exempt, r.Ronde)
			}
		}
	}
	if len(vus) != len(actifs) {
		return erreur.Refus(CodeInvalidPairing, "Appariement invalide : %d joueurs actifs sur %d sont appariés", len(vus), len(actifs))
	}
	return aggregate.Record(t, ev)
}

// Publier fixes the round: the amendment if any, else the proposal; each
// table gets its match id (MatchID).
func (t *TournoiClassique) Publier() error {
	if t.proposee == nil {
		return erreur.Refus(CodeWrongState, "Aucune proposition d'appariement à publier")
	}
	ev := RondePubliee{Ronde: t.proposee.Ronde, Tables: t.proposee.Tables, Exempt: t.proposee.Exempt}
	if t.amendee != nil {
		ev.Tables, ev.Exempt, ev.Amende = t.amendee.Tables, t.amendee.Exempt, true
	}
	ev.Tables = slices.Clone(ev.Tables)
	for i := range ev.Tables {
		ev.Tables[i].Match = MatchID(t.ID(), ev.Ronde, ev.Tables[i].Numero)
	}
	return aggregate.Record(t, ev)
}

// MatchID is the id of the match stream of a table.
func MatchID(tournoi string, ronde, table int) string {
	return fmt.Sprintf("%s-r%d-t%d", tournoi, ronde, table)
}

// EnregistrerResultat copies a validated feuille de match of a published
// table into the tournament, once.
func (t *TournoiClassique) EnregistrerResultat(match string, f matchclassique.FeuilleValidee) error {
	return t.EnregistrerResultats([]FeuilleDeMatch{{Match: match, Feuille: f}})
}

// Retirer withdraws a player (§9 abandon en cours de tournoi). A pending
// proposal is dropped: the director asks for a new one without him.
func (t *TournoiClassique) Retirer(joueur, motif string) error {
	i, ok := t.index[joueur]
	switch {
	case !ok:
		return erreur.Refus(CodeUnknownPlayer, "Joueur inconnu : %q n'est pas inscrit", joueur)
	case t.inscrits[i].Retire:
		return erreur.Refus(CodeAlreadyWithdrawn, "%s s'est déjà retiré du tournoi", joueur)
	case t.clos:
		return erreur.Refus(CodeWrongState, "Le tournoi est clos")
	}
	return aggregate.Record(t, JoueurRetire{Joueur: joueur, Apres: len(t.publiees), Motif: motif})
}

// Clore closes the tournament once every round is published and played.
func (t *TournoiClassique) Clore() error {
	switch {
	case t.clos:
		return erreur.Refus(CodeWrongState, "Le tournoi est déjà clos")
	case len(t.publiees) < t.ouvert.Rondes:
		return erreur.Refus(CodeRoundIncomplete, "Clôture impossible : %d rondes publiées sur %d", len(t.publiees), t.ouvert.Rondes)
	case !t.complete():
		return erreur.Refus(CodeRoundIncomplete, "Clôture impossible : des parties n'ont pas de résultat")
	}
	return aggregate.Record(t, TournoiClos{Tournoi: t.ID()})
}

// Classement ranks the players now (see Classer).
func (t *TournoiClassique) Classement() []Ligne {
	participants := make([]Participant, len(t.inscrits))
	for i, p := range t.inscrits {
		participants[i] = Participant{Joueur: p.Joueur, Cote: p.Cote, Retire: p.Retire}
	}
	var rencontres []Rencontre
	var exempts []string
	for _, r := range t.publiees {
		for _, tb := range r.Tables {
			if res, ok := t.resultats[tb.Match]; ok {
				rencontres = append(rencontres, RencontreDe(res))
			}
		}
		if r.Exempt != "" {
			exempts = append(exempts, r.Exempt)
		}
	}
	return Classer(t.Config(), participants, rencontres, exempts)
}

// RencontreDe turns a recorded result into a Rencontre for Classer.
func RencontreDe(r ResultatEnregistre) Rencontre {
	return Rencontre{Joueurs: r.Joueurs, Scores: r.Scores, PointsDeMatch: r.PointsDeMatch, Forfait: r.Fin == string(matchclassique.FinForfait)}
}
