package duplicate

import (
	"fmt"
	"maps"
	"slices"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/engine/correction"
)

// The director's disciplinary decisions (fisf-reglement-duplicate-2020.txt
// §5.5, §5.7, §5.8, §5.9, §6.1; guide §2.7, §2.8, §4.5). They are taken
// during the game and are without appeal (guide §3.8.1.B): the discipline
// commission of the guide judges other incidents, outside the game.
const (
	TypeSanctionDisciplinaire    = "partie.sanction_disciplinaire"
	versionSanctionDisciplinaire = 1
)

// NatureSanction is what a disciplinary decision inflicts.
type NatureSanction string

// The disciplinary sanctions the director may inflict in a game.
const (
	// SanctionAvertissement is the avertissement "pour motif disciplinaire"
	// (§5.5): it cumulates with any other warning, penalty or zéro of the
	// coup (§5.8) and counts in the §5.9 tally.
	SanctionAvertissement NatureSanction = "avertissement"
	// SanctionZero is the nullité "pour motif disciplinaire grave" (§5.7):
	// the coup counts 0 whatever the bulletin.
	SanctionZero NatureSanction = "zero"
	// SanctionExclusion is the sanction for cheating or proven fraud (§6.1):
	// the player's scores are annulled and he takes no further part.
	SanctionExclusion NatureSanction = "exclusion"
)

// SanctionDisciplinaire (DisciplinarySanction, v1) is a disciplinary
// decision against a player on a coup, with the reason and who decided it.
type SanctionDisciplinaire struct {
	Coup    int            `json:"coup"`
	Licence string         `json:"licence"`
	Nature  NatureSanction `json:"nature"`
	Motif   string         `json:"motif"`
	// Par is who decided (the actor of the command: the director's token).
	Par string `json:"par,omitempty"`
}

// Discipline is the fold of one game's disciplinary decisions. The
// aggregate and the standings both keep one and read a player's coup
// through Decision, so they cannot disagree. Its zero value is ready.
type Discipline struct {
	avertissements parCoup[int]
	zeros          parCoup[bool]
	exclus         map[string]bool
}

// Appliquer folds the events that change the discipline: a sanction, and
// the annulment of a coup (§3.6), which voids the coup's avertissements and
// zéros with its bulletins and billets (the director gives again, on the
// coup replayed, an avertissement that should stand); an exclusion (§6.1)
// is not a coup's and stays. Other events are ignored.
func (d *Discipline) Appliquer(e any) {
	switch e := e.(type) {
	case SanctionDisciplinaire:
		switch e.Nature {
		case SanctionAvertissement:
			if d.avertissements == nil {
				d.avertissements = parCoup[int]{}
			}
			n, _ := d.avertissements.lire(e.Coup, e.Licence)
			d.avertissements.mettre(e.Coup, e.Licence, n+1, 0)
		case SanctionZero:
			if d.zeros == nil {
				d.zeros = parCoup[bool]{}
			}
			d.zeros.mettre(e.Coup, e.Licence, true, 0)
		case SanctionExclusion:
			if d.exclus == nil {
				d.exclus = map[string]bool{}
			}
			d.exclus[e.Licence] = true
		}
	case CoupAnnule:
		delete(d.avertissements, e.Coup)
		delete(d.zeros, e.Coup)
	}
}

// copie copies the discipline: a transition of either leaves the other as
// it was (the coups' entries are shared until written, partage.go).
func (d *Discipline) copie() Discipline {
	return Discipline{avertissements: d.avertissements.copie(), zeros: d.zeros.copie(), exclus: maps.Clone(d.exclus)}
}

// Exclu reports that the player was excluded from the game (§6.1).
func (d *Discipline) Exclu(licence string) bool { return d.exclus[licence] }

// Concerne reports that a sanction of the player's stands: an
// avertissement, a zéro or his exclusion.
func (d *Discipline) Concerne(licence string) bool {
	return d.exclus[licence] || d.avertissements.aUnCoup(licence) || d.zeros.aUnCoup(licence)
}

// Decision is what a player's coup counts once the disciplinary decisions
// are applied to the bulletin's decision in force (corrige false: none
// yet). It returns false while nothing decides the score, but the result
// always carries the coup's avertissements for §5.9:
//   - §6.1 exclusion: every coup is a zéro, without any avertissement, the
//     scores being annulled;
//   - §5.7 disciplinary zéro: the coup is a zéro whatever the bulletin; the
//     bulletin's own warning or penalty does not cumulate with it (§5.8),
//     its disciplinary avertissements do;
//   - §5.5 disciplinary avertissement: one more avertissement on the coup,
//     cumulating with its sanction (§5.8).
func (d *Discipline) Decision(coup int, licence string, bulletin correction.Decision, corrige bool) (correction.Decision, bool) {
	if d.exclus[licence] {
		return zeroDisciplinaire(correction.Decision{}), true
	}
	if d.zeros.a(coup, licence) {
		bulletin, corrige = zeroDisciplinaire(bulletin), true
	}
	n, _ := d.avertissements.lire(coup, licence)
	bulletin.AddDiscipline(n)
	return bulletin, corrige
}

// zeroDisciplinaire makes a decision a zéro, keeping its disciplinary
// avertissements and reasons.
func zeroDisciplinaire(d correction.Decision) correction.Decision {
	if d.DisciplineOnly() {
		d.DisciplineWarnings++
	}
	zero := 0
	d.Paid, d.Sanction, d.AverageCap, d.ScoreWrittenBack, d.Billet = 0, correction.Zero, 0, &zero, true
	if !slices.Contains(d.Reasons, correction.Discipline) {
		d.Reasons = append(slices.Clone(d.Reasons), correction.Discipline)
	}
	return d
}

// Sanctionner records a disciplinary decision of the director on a coup
// already played or being played (§5.5, §5.7, §6.1). It is refused for an
// unknown, late or eliminated player (UNKNOWN_PLAYER, LATE_PLAYER,
// ELIMINATED), an excluded one (EXCLUDED), an unknown nature, a missing
// reason or a coup not played yet, or whose results do not stand once the
// game is over (INVALID_SANCTION), once the results are closed
// (RESULTS_CLOSED): the end of the game leaves the last coup to judge. A
// refused decision records nothing.
func (p *Partie) Sanctionner(e SanctionDisciplinaire) error {
	if err := p.exigerResultatsOuverts(); err != nil {
		return err
	}
	switch e.Nature {
	case SanctionAvertissement, SanctionZero, SanctionExclusion:
	default:
		return erreur.Refus(CodeInvalidSanction, "sanction %q inconnue : avertissement (§5.5), zero (§5.7) ou exclusion (§6.1)", e.Nature)
	}
	if e.Motif == "" {
		return erreur.Refus(CodeInvalidSanction, "une sanction disciplinaire est motivée (§5.9)")
	}
	if dernier := p.coupsAJuger(); e.Coup < 1 || e.Coup > dernier {
		return erreur.Refus(CodeInvalidSanction, "sanction au coup %d : le dernier coup à juger est le %d", e.Coup, dernier)
	}
	if err := p.exigerJoueur(e.Licence, e.Coup); err != nil {
		return err
	}
	return aggregate.Record(p, e)
}

// onSanction checks that a recorded sanction fits the game.
func (p *Partie) onSanction(e SanctionDisciplinaire) error {
	if !p.joueurs.a(e.Licence) {
		return fmt.Errorf("sanction disciplinaire d'un joueur %s inconnu", e.Licence)
	}
	p.discipline.Appliquer(e)
	return nil
}

// dernierCoup is the last coup played or being played (an interruption
// included), 0 before the first.
func (p *Partie) dernierCoup() int {
	if p.statut == StatutTirage || (p.statut == StatutInterrompue && p.avantPause == StatutTirage) {
		return p.prochainCoup
	}
	return p.prochainCoup - 1
}

// Exclu reports that the player was excluded from the game for cheating
// or proven fraud (§6.1).
func (p *Partie) Exclu(licence string) bool { return p.discipline.Exclu(licence) }

// DecisionSanctionnee is what a player's coup counts: the bulletin's
// decision in force with the director's disciplinary decisions applied
// (Discipline.Decision); false while nothing decides the score.
func (p *Partie) DecisionSanctionnee(coup int, licence string) (correction.Decision, bool) {
	d, ok := p.decisions.lire(coup, licence)
	return p.discipline.Decision(coup, licence, d, ok)
}

// Avertissements is the §5.9 count of a player's avertissements over the
// coups played, disciplinary ones included: index i of the tally is coup
// i+1. From the (free+1)-th avertissement on, each one costs five points.
func (p *Partie) Avertissements(licence string) correction.Tally {
	ds := make([]correction.Decision, p.dernierCoup())
	for i := range ds {
		if j, ok := p.joueurs.lire(licence); ok && i+1 >= j.premierCoup {
			ds[i], _ = p.DecisionSanctionnee(i+1, licence)
		}
	}
	return correction.CountWarnings(ds, p.config.Gratuits())
}
