package tournoiclassique

import (
	"fmt"
	"slices"
	"strings"

	"arbitre/domain/aggregate"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/erreur"
)

// What the director's console does on the tournament beyond the commands of
// the API's first version: a list registered at once, the results of the
// paper feuilles de match entered table by table, their correction, and the
// reasons of a pairing.

// Inscription is one player of a registration list.
type Inscription struct {
	Joueur string
	Nom    string
	Cote   int
}

// InscrireLot registers a whole list before the seeding: every line is
// checked first, the refusal names each bad one by its position in the list
// (n° 1 first) and nothing is written unless every line is good.
func (t *TournoiClassique) InscrireLot(lot []Inscription) error {
	if err := t.exigerInscriptions(); err != nil {
		return err
	}
	if len(lot) == 0 {
		return erreur.Refus(CodeInvalidPlayer, "Inscriptions refusées : la liste est vide")
	}
	vus := map[string]bool{}
	var fautes []string
	events := make([]any, 0, len(lot))
	for n, i := range lot {
		if faute := t.fauteInscription(i, vus); faute != "" {
			fautes = append(fautes, fmt.Sprintf("n° %d%s : %s", n+1, entre(i.Joueur), faute))
			continue
		}
		vus[i.Joueur] = true
		events = append(events, JoueurInscrit{Joueur: i.Joueur, Nom: i.Nom, Cote: i.Cote})
	}
	if len(fautes) > 0 {
		return erreur.Refus(CodeInvalidPlayer, "Inscriptions refusées, rien n'est écrit : %s", strings.Join(fautes, " ; "))
	}
	return aggregate.Record(t, events...)
}

// Saisie is the result of a table as the paper feuille de match gives it.
type Saisie struct {
	// Scores in the order of the table: its first player, then the second.
	// For an abandon or a defeat by the arbiter, the scores at that time
	// (the table of §9 gives the final ones); none for a forfeit.
	Scores [2]int
	// Fin is how the game ended; "" is reliquat_epuise.
	Fin matchclassique.Fin
	// Joueur is, for a forfeit, an abandon or a defeat, the player who
	// forfeits, abandons or is sanctioned; "" otherwise.
	Joueur string
}

// SaisirResultat records the result of a published table from its paper
// feuille de match, once (§7 for a game played out, §9 for a forfeit, an
// abandon or a defeat).
func (t *TournoiClassique) SaisirResultat(match string, s Saisie) error {
	ev, err := t.resultatSaisi(match, s)
	if err != nil {
		return err
	}
	if _, done := t.resultats[match]; done {
		return erreur.Refus(CodeInvalidResult, "Résultat refusé : le match %s a déjà son résultat ; corrigez-le en donnant le motif", match)
	}
	return aggregate.Record(t, ev)
}

// CorrigerResultat replaces the result of a table with the one entered now,
// for the reason given; the tournament must not be closed.
func (t *TournoiClassique) CorrigerResultat(match string, s Saisie, motif string) error {
	ev, err := t.resultatSaisi(match, s)
	if err != nil {
		return err
	}
	ev.Correction = strings.TrimSpace(motif)
	switch _, done := t.resultats[match]; {
	case !done:
		return erreur.Refus(CodeInvalidResult, "Correction refusée : le match %s n'a pas encore de résultat", match)
	case ev.Correction == "":
		return erreur.Refus(CodeInvalidResult, "Correction refusée : donnez le motif de la correction")
	}
	return aggregate.Record(t, ev)
}

// resultatSaisi checks an entry against the published table of match and
// computes its result.
func (t *TournoiClassique) resultatSaisi(match string, s Saisie) (ResultatEnregistre, error) {
	if t.clos {
		return ResultatEnregistre{}, erreur.Refus(CodeWrongState, "Le tournoi est clos")
	}
	ronde, tb, ok := t.tableDuMatch(match)
	if !ok {
		return ResultatEnregistre{}, erreur.Refus(CodeInvalidResult, "Résultat refusé : aucune table publiée ne joue le match %s", match)
	}
	ev := ResultatEnregistre{Ronde: ronde, Table: tb.Numero, Match: match, Joueurs: [2]string{tb.Premier, tb.Second}, Fin: string(s.Fin)}
	if s.Fin == "" {
		ev.Fin = string(matchclassique.FinReliquatEpuise)
	}
	if s.Scores[0] < 0 || s.Scores[1] < 0 {
		return ev, erreur.Refus(CodeInvalidResult, "Résultat refusé : un score est négatif (%d – %d)", s.Scores[0], s.Scores[1])
	}
	j := slices.Index(ev.Joueurs[:], s.Joueur)
	switch fin := matchclassique.Fin(ev.Fin); fin {
	case matchclassique.FinReliquatEpuise, matchclassique.FinBlocage, matchclassique.FinTempsEpuise, matchclassique.FinSixPasses:
		if s.Joueur != "" {
			return ev, erreur.Refus(CodeInvalidResult, "Résultat refusé : une partie finie par %s ne nomme pas de joueur fautif", fin)
		}
		ev.Scores = s.Scores
		ev.Perdant, ev.PointsDeMatch = matchclassique.Vainqueur(s.Scores)
	case matchclassique.FinForfait, matchclassique.FinAbandon, matchclassique.FinAbandonUnilateral, matchclassique.FinDefaiteArbitrale, matchclassique.FinDefaiteHuitLettres:
		if j < 0 {
			return ev, erreur.Refus(CodeInvalidResult, "Résultat refusé : %s demande le joueur concerné, %s ou %s (§9)", fin, tb.Premier, tb.Second)
		}
		if fin == matchclassique.FinForfait && s.Scores != [2]int{} {
			return ev, erreur.Refus(CodeInvalidResult, "Résultat refusé : un forfait n'a pas de scores (§9)")
		}
		fait := matchclassique.Forfait(j)
		if fin != matchclassique.FinForfait {
			fait = matchclassique.Sanction(fin, j, s.Scores)
		}
		ev.Scores, ev.Perdant, ev.PointsDeMatch = fait.Scores, fait.Perdant, fait.PointsDeMatch
	default:
		return ev, erreur.Refus(CodeInvalidResult, "Résultat refusé : fin de partie %q inconnue", fin)
	}
	return ev, nil
}

// tableDuMatch finds the published table that plays match, with its round.
func (t *TournoiClassique) tableDuMatch(match string) (int, Table, bool) {
	for _, r := range t.publiees {
		for _, tb := range r.Tables {
			if tb.Match == match {
				return r.Ronde, tb, true
			}
		}
	}
	return 0, Table{}, false
}

// Raisons explains a pairing of the pending round (the proposal or the
// amendment) from the results so far: rematches, who starts (§3.1), the bye
// (pairing.Explain).
func (t *TournoiClassique) Raisons(tables []Table, exempt string) (pairing.Explanation, error) {
	if t.proposee == nil {
		return pairing.Explanation{}, erreur.Refus(CodeWrongState, "Aucune proposition d'appariement à expliquer")
	}
	req := t.requete(t.proposee.Ronde, t.proposee.Method, false)
	pt := make([]pairing.Table, len(tables))
	for i, tb := range tables {
		pt[i] = pairing.Table{Number: tb.Numero, First: pairing.PlayerID(tb.Premier), Second: pairing.PlayerID(tb.Second)}
	}
	return pairing.Explain(req, pt, pairing.PlayerID(exempt))
}
