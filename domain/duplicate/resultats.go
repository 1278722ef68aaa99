package duplicate

import (
	"fmt"
	"sort"
	"strings"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

// The end of a game closes the drawing, not the arbiters' work
// (introduction: « à l'issue de chaque coup, les joueurs marquent les
// points… »; guide §3.2: the players stay seated « en attendant le passage
// de leur arbitre »). The last coup's bulletins, and any held back from
// earlier coups, are typed and corrected after the last top; corrections,
// double arbitrage, sanctions and a topping's times stay open until the
// director closes the game's results. Until then the standings are
// provisional.
const (
	TypeResultatsClos    = "partie.resultats_clos"
	versionResultatsClos = 1
)

// BulletinManquant names a player's bulletin of a coup that counts and
// that nothing decides yet: not typed, or not corrected.
type BulletinManquant struct {
	Coup    int    `json:"coup"`
	Licence string `json:"licence"`
}

// ResultatsClos closes a game's results: the director confirmed Manquants
// missing, each one counting as a missing bulletin (a zéro, §5.7). After it
// no bulletin is typed or corrected, no double arbitrage, sanction or
// topping time is recorded; appeals go on (§6.3).
type ResultatsClos struct {
	Manquants []BulletinManquant `json:"manquants,omitempty"`
	// Monotone is the server's monotonic reading at the closure, from
	// which an appeal's 15 minutes are measured (§6.3); nil in a stream
	// written before it was recorded (the wall clock measures).
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// DecisionManquant is what a bulletin the director confirmed missing
// counts: a zéro for a missing bulletin (§5.7).
func DecisionManquant() correction.Decision {
	return correction.Decision{Sanction: correction.Zero, Reasons: []correction.Reason{correction.Missing}}
}

// ResultatsClos reports that the director closed the game's results.
func (p *Partie) ResultatsClos() bool { return p.clos }

// exigerResultatsOuverts refuses the arbiters' work once the director has
// closed the results (RESULTS_CLOSED).
func (p *Partie) exigerResultatsOuverts() error {
	switch {
	case p.statut == "":
		return erreur.Refus(CodeNotFound, "la partie n'existe pas")
	case p.clos:
		return erreur.Refus(CodeResultsClosed, "les résultats de la partie %s sont clos : plus de saisie, de correction ni de sanction", p.id)
	}
	return nil
}

// exigerSaisie lets a coup's results be entered (a bulletin, a topping's
// time): during the game, outside an interruption, and after its end until
// the results are closed.
func (p *Partie) exigerSaisie() error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	if p.fin == nil {
		return p.exigerEnCours()
	}
	return nil
}

// coupsAJuger is the last coup the arbiters' work may concern: the last
// coup played or being played during the game; once it is over, the last
// coup whose results stand (none when it was annulled, §3.7).
func (p *Partie) coupsAJuger() int {
	switch {
	case p.fin == nil:
		return p.dernierCoup()
	case p.fin.Annulee:
		return 0
	}
	return p.fin.DernierCoup
}

// BulletinsEnAttente lists, coup by coup, the bulletins of the coups that
// count that nothing decides yet: of every player expected on the coup
// (arrived, not eliminated before it, §6.2, §3.8.3; an excluded player's
// scores are annulled, §6.1). In a topping, a time not recorded (§3.8.4).
func (p *Partie) BulletinsEnAttente() []BulletinManquant {
	licences := make([]string, 0, p.joueurs.len())
	for l := range p.joueurs.tous() {
		licences = append(licences, l)
	}
	sort.Strings(licences)
	var out []BulletinManquant
	for coup := 1; coup <= p.coupsAJuger(); coup++ {
		if _, ok := p.tops[coup]; !ok {
			continue
		}
		for _, l := range licences {
			j, _ := p.joueurs.lire(l)
			if coup < j.premierCoup || (j.elimineAu > 0 && coup > j.elimineAu) || p.discipline.Exclu(l) {
				continue
			}
			var decide bool
			if p.config.Mode == ModeTopping {
				decide = p.toppings.a(coup, l)
			} else {
				_, decide = p.DecisionSanctionnee(coup, l)
			}
			if !decide {
				out = append(out, BulletinManquant{Coup: coup, Licence: l})
			}
		}
	}
	return out
}

// CloreResultats closes the game's results once it is over. It is refused
// during the game (WRONG_STATE), once closed (RESULTS_CLOSED), and while a
// bulletin of a coup that counts is missing or uncorrected
// (BULLETINS_PENDING) unless the director confirms them missing: each then
// counts as a missing bulletin (§5.7). a is when, with the monotonic
// reading an appeal's deadline is measured from (§6.3).
func (p *Partie) CloreResultats(confirmerManquants bool, a eventstore.Instant) error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	if p.fin == nil {
		return erreur.Refus(CodeWrongState, "la partie %s n'est pas terminée : ses résultats se closent après le dernier coup", p.id)
	}
	manquants := p.BulletinsEnAttente()
	if len(manquants) > 0 && !confirmerManquants {
		noms := make([]string, len(manquants))
		for i, m := range manquants {
			noms[i] = fmt.Sprintf("coup %d : %s", m.Coup, m.Licence)
		}
		return erreur.Refus(CodeBulletinsPending, "%d bulletin(s) manquant(s) ou non corrigé(s) (%s) : les saisir et les corriger, ou confirmer qu'ils manquent",
			len(manquants), strings.Join(noms, ", "))
	}
	return aggregate.Record(p, ResultatsClos{Manquants: manquants, Monotone: a.Monotonic})
}

// onAnnulationEliminations checks that an annulment of eliminations
// fits the game: the last coup's, before the next tirage, the results open.
func (p *Partie) onAnnulationEliminations(e EliminationsAnnulees) error {
	if !p.elimines[e.Coup] || e.Coup != p.prochainCoup-1 || p.clos {
		return fmt.Errorf("annulation des éliminations du coup %d inattendue", e.Coup)
	}
	if p.fin != nil {
		if p.fin.Motif != FinVainqueur || p.fin.DernierCoup != e.Coup {
			return fmt.Errorf("annulation des éliminations du coup %d après une fin %s", e.Coup, p.fin.Motif)
		}
		p.fin, p.statut = nil, StatutTop
	}
	joueurs := p.joueursAEcrire(0)
	for l, j := range joueurs.tous() {
		if j.elimineAu == e.Coup {
			j.elimineAu = 0
			joueurs.mettre(l, j)
		}
	}
	delete(p.elimines, e.Coup)
	return nil
}

// onClos checks that a closure fits the game and records the
// bulletins confirmed missing.
func (p *Partie) onClos(e ResultatsClos) error {
	if p.fin == nil || p.clos {
		return fmt.Errorf("clôture des résultats inattendue")
	}
	for _, m := range e.Manquants {
		if !p.joueurs.a(m.Licence) {
			return fmt.Errorf("bulletin manquant d'un joueur %s inconnu", m.Licence)
		}
	}
	for _, m := range e.Manquants {
		p.decisions.mettre(m.Coup, m.Licence, DecisionManquant(), p.joueurs.len())
	}
	p.clos = true
	return nil
}
