// Package query answers read-only questions about a duplicate game from
// its events alone, re-running the engine where the question needs it:
// the state before a coup for the appeal commission (Reconstituer) and the
// progress of a game for the displays (Avancement).
package query

import (
	"sort"
	"time"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/board"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
)

// Acte is who did what and when: one recorded event with its metadata.
type Acte struct {
	Revision uint64    `json:"revision"`
	Type     string    `json:"type"`
	Acteur   string    `json:"acteur"`
	Role     string    `json:"role"`
	A        time.Time `json:"a"`
	// Evenement is the decoded payload.
	Evenement any `json:"evenement"`
}

// BulletinRejoue is one bulletin of the coup: as written, the decisions
// recorded, and what engine/correction decides now in the context of the
// correction (§5; issue 5: an engine change must never silently change a
// past result).
type BulletinRejoue struct {
	Licence  string              `json:"licence"`
	Table    int                 `json:"table,omitempty"`
	Arbitre  string              `json:"arbitre,omitempty"`
	Bulletin correction.Bulletin `json:"bulletin"`
	// Correction is the latest correction by an arbiter (engine decision,
	// arbiter's decision, reason); nil when not corrected.
	Correction *duplicate.BulletinCorrige `json:"correction,omitempty"`
	// EnVigueur is the decision in force: the latest of corrections, double
	// arbitrage and commission decisions; nil when not corrected.
	EnVigueur *correction.Decision `json:"enVigueur,omitempty"`
	// Maintenant is the engine's decision today on the same bulletin in the
	// same context.
	Maintenant correction.Decision `json:"maintenant"`
	// Differences lists where Maintenant disagrees with the engine decision
	// recorded at correction (with the decision in force for a hand
	// correction); Differe flags any.
	Differences []correction.Difference `json:"differences,omitempty"`
	Differe     bool                    `json:"differe"`
	// Actes are the events of this bulletin in stream order.
	Actes []Acte `json:"actes"`
}

// Etat is a game before coup Coup, reproduced from its events only.
type Etat struct {
	Partie string `json:"partie"`
	// Lexique is the lexicon the game was created under, the one the
	// engine re-ran with.
	Lexique lexicon.Identite `json:"lexique"`
	Coup    int              `json:"coup"`
	Grille  board.Board      `json:"-"`
	// Lignes is the grid, 15 rows as in engine solve.
	Lignes   []string `json:"grille"`
	Reliquat string   `json:"reliquat"`
	Tirees   string   `json:"tirees"`
	Tirage   string   `json:"tirage"`
	Sac      string   `json:"sac"`
	// Rejets are the tirages of the coup rejected before the kept one (§3.2).
	Rejets []duplicate.TirageRejete `json:"rejets"`
	// Solutions are every max-score placement recomputed by the engine,
	// admissible ones first (§3.4).
	Solutions []duplicate.Solution `json:"-"`
	Top       duplicate.TopRetenu  `json:"top"`
	Bulletins []BulletinRejoue     `json:"bulletins"`
	// Actes are every event of the coup in stream order.
	Actes []Acte `json:"actes"`
}

// Reconstituer rebuilds the game before coup N from its stream's events,
// decoded with registre, re-running the engine on the game's own lexicon
// taken from lexiques (LEXICON_NOT_LOADED when it is not there): grid, tirage,
// reliquat, bag, the tops recomputed and the director's top, every bulletin
// of the coup with its recorded decisions and the engine's decision now,
// and the acts of the coup. A coup annulled and played again is shown as
// last played (§3.6).
func Reconstituer(evts []eventstore.Event, registre *eventstore.Registry, lexiques *lexicon.Bibliotheque, coup int) (*Etat, error) {
	var p *duplicate.Partie
	var lex *lexicon.Lexicon
	var etat *Etat
	var rejets []duplicate.TirageRejete
	actes := map[string][]Acte{}
	var actesCoup []Acte
	contextes := map[string]correction.Context{}
	for _, e := range evts {
		payload, err := registre.Decode(e)
		if err != nil {
			return nil, err
		}
		if c, ok := payload.(duplicate.PartieCreee); ok {
			var charge bool
			if lex, charge = lexiques.Trouver(c.Lexique); !charge {
				return nil, erreur.LexiqueAbsent(*c.Lexique)
			}
			p = duplicate.Nouvelle(duplicate.NewMoteur(lex, c.Config.Variant()))
		}
		if p == nil {
			return nil, erreur.Refus(duplicate.CodeCorruptHistory, "%s avant la création de la partie", e.Type)
		}
		acte := Acte{Revision: e.Revision, Type: e.Type, Acteur: e.Metadata.Actor, Role: e.Metadata.Role, A: e.Metadata.RecordedAt, Evenement: payload}
		if c, ok := coupDe(payload); ok && c == coup {
			actesCoup = append(actesCoup, acte)
			if l := licenceDe(payload); l != "" {
				actes[l] = append(actes[l], acte)
			}
		}
		switch ev := payload.(type) {
		case duplicate.TirageRejete:
			if ev.Coup == coup {
				rejets = append(rejets, ev)
			}
		case duplicate.TirageEffectue:
			if ev.Coup == coup {
				etat = nil
			}
		case duplicate.TopRetenu:
			if ev.Coup == coup {
				etat = instantane(p, ev, rejets)
				rejets = nil
			}
		case duplicate.BulletinCorrige:
			if ev.Coup == coup {
				if ctx, ok := p.ContexteCorrection(coup, ev.Licence); ok {
					contextes[ev.Licence] = ctx
				}
			}
		}
		if err := p.Apply(payload); err != nil {
			return nil, err
		}
	}
	if etat == nil {
		return nil, erreur.Refus(duplicate.CodeNotFound, "la partie n'a pas de top au coup %d", coup)
	}
	etat.Partie, etat.Lexique, etat.Actes = p.ID(), lex.Identite(), actesCoup
	bulletins, err := rejouerBulletins(p, lex, coup, actes, contextes)
	if err != nil {
		return nil, err
	}
	etat.Bulletins = bulletins
	return etat, nil
}

// instantane is the game as the top of the coup is announced.
func instantane(p *duplicate.Partie, top duplicate.TopRetenu, rejets []duplicate.TirageRejete) *Etat {
	g, rack, sac := p.Grille(), p.Rack(), p.Sac()
	e := &Etat{Coup: top.Coup, Grille: g, Lignes: g.Rows(), Tirage: rack.String(), Sac: sac.String(),
		Rejets: rejets, Solutions: p.Solutions(), Top: top}
	e.Reliquat, e.Tirees = p.TirageEnCours()
	return e
}

// rejouerBulletins recorrects every bulletin of the coup in the context it
// was corrected in (or the current one, for a bulletin not corrected yet).
func rejouerBulletins(p *duplicate.Partie, lex *lexicon.Lexicon, coup int, actes map[string][]Acte, contextes map[string]correction.Context) ([]BulletinRejoue, error) {
	licences := make([]string, 0, len(actes))
	for l := range actes {
		if _, ok := p.Depose(coup, l); ok {
			licences = append(licences, l)
		}
	}
	sort.Strings(licences)
	x := correction.NewCorrector(lex)
	out := make([]BulletinRejoue, 0, len(licences))
	var cp *correction.Coup
	var cpx correction.Context
	for _, l := range licences {
		b, _ := p.Depose(coup, l)
		r := BulletinRejoue{Licence: l, Table: b.Table, Arbitre: b.Arbitre, Bulletin: b.Bulletin, Actes: actes[l]}
		ctx, ok := contextes[l]
		if !ok {
			if ctx, ok = p.ContexteCorrection(coup, l); !ok {
				return nil, erreur.Refus(duplicate.CodeCorruptHistory, "coup %d sans contexte de correction", coup)
			}
		}
		if cp == nil || !memeCoup(&cpx, &ctx) {
			var err error
			if cp, err = correction.NewCoup(lex, ctx); err != nil {
				return nil, err
			}
			cpx = ctx
		}
		var reference correction.Decision
		if c, ok := p.Correction(coup, l); ok {
			r.Correction = &c
			if c.Moteur != nil {
				reference = *c.Moteur
			}
		}
		if d, ok := p.Decision(coup, l); ok {
			r.EnVigueur = &d
			if r.Correction == nil || r.Correction.Moteur == nil {
				reference = d
			}
		}
		if r.EnVigueur != nil {
			r.Maintenant, r.Differences = x.Recorrect(cp, &r.Bulletin, reference)
		} else {
			r.Maintenant = x.Decide(cp, &r.Bulletin)
		}
		r.Differe = len(r.Differences) > 0
		out = append(out, r)
	}
	return out, nil
}

// memeCoup reports whether two contexts prepare the same correction coup.
func memeCoup(a, b *correction.Context) bool {
	if len(a.Unnotified) != len(b.Unnotified) {
		return false
	}
	for i := range a.Unnotified {
		if a.Unnotified[i] != b.Unnotified[i] {
			return false
		}
	}
	return a.Coup == b.Coup && a.Tirage == b.Tirage && a.FirstWordLength == b.FirstWordLength && a.Variant == b.Variant
}

// coupDe is the coup an event belongs to.
func coupDe(e any) (int, bool) {
	switch e := e.(type) {
	case duplicate.TirageEffectue:
		return e.Coup, true
	case duplicate.TirageRejete:
		return e.Coup, true
	case duplicate.TopRetenu:
		return e.Coup, true
	case duplicate.CoupAnnule:
		return e.Coup, true
	case duplicate.BulletinsRamasses:
		return e.Coup, true
	case duplicate.EliminationsDecidees:
		return e.Coup, true
	case duplicate.BulletinDepose:
		return e.Coup, true
	case duplicate.BulletinCorrige:
		return e.Coup, true
	case duplicate.DoubleArbitrage:
		return e.Coup, true
	case duplicate.BilletEmis:
		return e.Coup, true
	case duplicate.RenvoiCommission:
		return e.Coup, true
	case duplicate.DecisionCommission:
		return e.Coup, true
	case duplicate.ChronoDemarre: // §3.6: the chronométrage may be disputed
		return e.Coup, true
	case duplicate.ChronoSuspendu:
		return e.Coup, true
	case duplicate.ChronoRepris:
		return e.Coup, true
	}
	return 0, false
}

// licenceDe is the player a bulletin event is about, "" for other events.
func licenceDe(e any) string {
	switch e := e.(type) {
	case duplicate.BulletinDepose:
		return e.Licence
	case duplicate.BulletinCorrige:
		return e.Licence
	case duplicate.DoubleArbitrage:
		return e.Licence
	case duplicate.BilletEmis:
		return e.Licence
	case duplicate.RenvoiCommission:
		return e.Licence
	case duplicate.DecisionCommission:
		return e.Licence
	}
	return ""
}
