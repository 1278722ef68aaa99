package federation

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
)

// DelaiCoupure is the longest interruption a twinned game survives
// (§2.18.1.B, §2.18.2.B).
const DelaiCoupure = 15 * time.Minute

// Jumelage twins tournaments over the Internet (guide §2.18): the games are
// drawn live at the principal and sent to every site. It decides what a
// link cut costs: in formula 1 the principal goes on and a satellite cut
// for at most 15 minutes resumes in slight delay, beyond which its game is
// annulled for that centre (§2.18.1.B); in formula 2 every site stops while
// a link is cut, and beyond 15 minutes of interruption in a game the cut
// site leaves the twinning with its own ranking (§2.18.2.B).
type Jumelage struct {
	aggregate.Base
	id        string
	formule   Formule
	principal string
	// tournoi is the principal's tournament whose games are twinned.
	tournoi string
	sites   []string
	// coupures are the open cuts per site.
	coupures map[string]LiaisonCoupee
	// cumul is, per site and game, the interruption already over
	// (§2.18.2.B counts the total of a game).
	cumul    map[[2]string]time.Duration
	annulees map[[2]string]bool
	detaches map[string]bool
	// resultats are, per site and game, the latest results the site sent
	// (§2.18.1.C, §2.18.2.C), in the order first received.
	resultats []ResultatsSiteRecus
}

// NouveauJumelage returns an empty twinning, ready for a replay.
func NouveauJumelage() *Jumelage {
	return &Jumelage{coupures: map[string]LiaisonCoupee{}, cumul: map[[2]string]time.Duration{},
		annulees: map[[2]string]bool{}, detaches: map[string]bool{}}
}

// ID is the twinning's identifier.
func (j *Jumelage) ID() string { return j.id }

// Principal is the principal site, where the games are drawn live.
func (j *Jumelage) Principal() string { return j.principal }

// Formule is the twinning's formula.
func (j *Jumelage) Formule() Formule { return j.formule }

// Tournoi is the principal's tournament whose games are twinned.
func (j *Jumelage) Tournoi() string { return j.tournoi }

// Creer twins the principal with its sites under a formula; the games
// drawn live are those of the principal's tournament (§2.18.1.A,
// §2.18.2.A).
func (j *Jumelage) Creer(id string, f Formule, principal, tournoi string, sites []string) error {
	switch {
	case j.Version() > 0:
		return erreur.Refus(CodeAlreadyExists, "le jumelage %s existe déjà", j.id)
	case f != FormuleSatellites && f != FormuleEgaux:
		return erreur.Refus(CodeJumelageInvalide, "formule %d inconnue : 1 (satellites, §2.18.1) ou 2 (tournois comparables, §2.18.2)", f)
	case id == "" || principal == "" || len(sites) == 0 || slices.Contains(sites, principal):
		return erreur.Refus(CodeJumelageInvalide, "un jumelage demande un identifiant, un site principal et au moins un autre site")
	}
	return aggregate.Record(j, JumelageCree{Jumelage: id, Formule: f, Principal: principal, Tournoi: tournoi, Sites: slices.Clone(sites)})
}

// Couper records that the link to a site was lost during a game. In
// formula 2 every site stops (§2.18.2.B): Arrete tells it.
func (j *Jumelage) Couper(site, partie string, a eventstore.Instant) error {
	if err := j.exigerSite(site); err != nil {
		return err
	}
	if _, ok := j.coupures[site]; ok {
		return nil
	}
	if j.annulees[[2]string{site, partie}] {
		return erreur.Refus(CodeJumelageInvalide, "la partie %s est déjà annulée au centre %s", partie, site)
	}
	return aggregate.Record(j, LiaisonCoupee{Site: site, Partie: partie, A: a.Wall, Monotone: a.Monotonic})
}

// Retablir records that the link is back at a. A cut within the limit
// resumes (§2.18.1.B: in slight delay, catching up from where it stopped;
// §2.18.2.B: every site goes on); beyond it, Echeance's decision is taken
// first.
func (j *Jumelage) Retablir(site string, a eventstore.Instant) error {
	if err := j.exigerSite(site); err != nil {
		return err
	}
	c, ok := j.coupures[site]
	if !ok {
		return nil
	}
	return aggregate.Decide(j, func(k *Jumelage) error {
		if err := k.decider(c, a); err != nil {
			return err
		}
		return aggregate.Record(k, LiaisonRetablie{Site: site, Partie: c.Partie, A: a.Wall, Interruption: c.duree(a)})
	})
}

// Echeance takes, at a, the decision every cut past the limit forces,
// without waiting for the link to come back: the game annulled for that
// centre (§2.18.1.B), the site detached from the twinning (§2.18.2.B).
func (j *Jumelage) Echeance(a eventstore.Instant) error {
	return aggregate.Decide(j, func(k *Jumelage) error {
		for _, site := range k.sites {
			if c, ok := k.coupures[site]; ok {
				if err := k.decider(c, a); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// decider records the decision a cut forces at a, once.
func (j *Jumelage) decider(c LiaisonCoupee, a eventstore.Instant) error {
	cle := [2]string{c.Site, c.Partie}
	if j.cumul[cle]+c.duree(a) <= DelaiCoupure || j.annulees[cle] || j.detaches[c.Site] {
		return nil
	}
	motif := fmt.Sprintf("liaison coupée plus de %d minutes", int(DelaiCoupure.Minutes()))
	if j.formule == FormuleSatellites {
		return aggregate.Record(j, PartieAnnuleeAuSite{Site: c.Site, Partie: c.Partie, A: a.Wall, Motif: motif + " (§2.18.1.B)"})
	}
	restants := 0
	for _, s := range append([]string{j.principal}, j.sites...) {
		if !j.detaches[s] && s != c.Site {
			restants++
		}
	}
	return aggregate.Record(j, SiteDetache{Site: c.Site, Partie: c.Partie, A: a.Wall, Motif: motif + " (§2.18.2.B)", Fin: restants < 2})
}

// Suit tells whether site follows the games of tournoi live: a site of
// the twinning, and the principal's tournament twinned (§2.18.1.A,
// §2.18.2.A). A centre's token is bound to one twinning and one site.
func (j *Jumelage) Suit(site, tournoi string) bool {
	return j.Version() > 0 && j.tournoi != "" && j.tournoi == tournoi && slices.Contains(j.sites, site)
}

// RecevoirResultats records a site's results of one game as they stand,
// read from its bundle (§2.18.1.C, §2.18.2.C): they replace what the site
// sent before for that game; the same bundle, or the same results, again
// record nothing. Results that c, what the principal knows of the game,
// does not allow are refused (VerifierSite), even the same results again: a
// bundle that lies is refused whatever it ranks.
func (j *Jumelage) RecevoirResultats(r ResultatsCentre, empreinte string, c Controle) error {
	if err := j.exigerSite(r.Centre); err != nil {
		return err
	}
	if err := r.borner(); err != nil {
		return err
	}
	if err := j.VerifierSite(r, c); err != nil {
		return err
	}
	for _, deja := range j.resultats {
		if deja.Resultats.Centre == r.Centre && deja.Resultats.Partie == r.Partie && (deja.Empreinte == empreinte || reflect.DeepEqual(deja.Resultats, r)) {
			return nil
		}
	}
	return aggregate.Record(j, ResultatsSiteRecus{Resultats: r, Empreinte: empreinte})
}

// Scores are the players' scores of every game the sites sent.
func (j *Jumelage) Scores() []ScorePartie {
	var out []ScorePartie
	for _, r := range j.resultats {
		for _, p := range r.Resultats.Joueurs {
			out = append(out, ScorePartie{Site: r.Resultats.Centre, Partie: r.Resultats.Partie, Licence: p.Licence, Nom: p.Nom, Serie: p.Serie, Score: p.Score})
		}
	}
	return out
}

// Arrete tells whether the twinned sites must stop playing: in formula 2,
// while a link to a site still twinned is cut (§2.18.2.B).
func (j *Jumelage) Arrete() bool {
	if j.formule != FormuleEgaux {
		return false
	}
	for s := range j.coupures {
		if !j.detaches[s] {
			return true
		}
	}
	return false
}

// ExigerLiaisons refuses to go on playing while, in formula 2, the link to
// a site still twinned is cut: every site stops (§2.18.2.B).
func (j *Jumelage) ExigerLiaisons() error {
	if !j.Arrete() {
		return nil
	}
	var coupes []string
	for _, s := range j.sites {
		if j.EnCoupure(s) && !j.detaches[s] {
			coupes = append(coupes, s)
		}
	}
	return erreur.Refus(CodeLiaisonCoupee, "tirage suspendu : la liaison avec %s est coupée ; en 2e formule tous les sites arrêtent de jouer jusqu'à son retour (§2.18.2.B)",
		strings.Join(coupes, ", "))
}

// Annulee tells whether the game was annulled at a satellite (§2.18.1.B).
func (j *Jumelage) Annulee(site, partie string) bool { return j.annulees[[2]string{site, partie}] }

// Detache tells whether a site left the twinning (§2.18.2.B).
func (j *Jumelage) Detache(site string) bool { return j.detaches[site] }

// EnCoupure tells whether the link to a site is cut.
func (j *Jumelage) EnCoupure(site string) bool {
	_, ok := j.coupures[site]
	return ok
}

// Centre tells whether centre is the twinning's principal or one of its
// sites: whose bundle the twinning ranks.
func (j *Jumelage) Centre(centre string) bool {
	return j.Version() > 0 && (centre == j.principal || slices.Contains(j.sites, centre))
}

func (j *Jumelage) exigerSite(site string) error {
	if j.Version() == 0 {
		return erreur.Refus(CodeNotFound, "le jumelage n'existe pas")
	}
	if !slices.Contains(j.sites, site) {
		return erreur.Refus(CodeJumelageInvalide, "%s n'est pas un site du jumelage %s", site, j.id)
	}
	return nil
}

// Apply is the one transition, shared by commands and replay.
func (j *Jumelage) Apply(e any) error {
	if err := aggregate.Apply(&j.Base, j.appliquer, e); err != nil {
		return &erreur.Erreur{Code: CodeCorruptHistory, Message: fmt.Sprintf("événement %T incohérent avec le jumelage %s", e, j.id), Err: err}
	}
	return nil
}

func (j *Jumelage) appliquer(e any) error {
	if _, ok := e.(JumelageCree); !ok && j.Version() == 0 {
		return errors.New("jumelage non créé")
	}
	switch e := e.(type) {
	case JumelageCree:
		if j.Version() > 0 {
			return errors.New("jumelage déjà créé")
		}
		j.id, j.formule, j.principal, j.tournoi, j.sites = e.Jumelage, e.Formule, e.Principal, e.Tournoi, slices.Clone(e.Sites)
	case LiaisonCoupee:
		if _, ok := j.coupures[e.Site]; ok || !slices.Contains(j.sites, e.Site) {
			return fmt.Errorf("coupure du site %s", e.Site)
		}
		j.coupures[e.Site] = e
	case LiaisonRetablie:
		c, ok := j.coupures[e.Site]
		if !ok {
			return fmt.Errorf("site %s non coupé", e.Site)
		}
		delete(j.coupures, e.Site)
		j.cumul[[2]string{e.Site, c.Partie}] += e.Interruption
	case PartieAnnuleeAuSite:
		j.annulees[[2]string{e.Site, e.Partie}] = true
	case SiteDetache:
		j.detaches[e.Site] = true
	case ResultatsSiteRecus:
		i := slices.IndexFunc(j.resultats, func(r ResultatsSiteRecus) bool {
			return r.Resultats.Centre == e.Resultats.Centre && r.Resultats.Partie == e.Resultats.Partie
		})
		if i < 0 {
			j.resultats = append(j.resultats, e)
		} else {
			j.resultats = slices.Replace(slices.Clone(j.resultats), i, i+1, e)
		}
	default:
		return fmt.Errorf("événement %T inconnu", e)
	}
	return nil
}

// Copie is a copy of the twinning sharing nothing a transition changes.
func (j *Jumelage) Copie() *Jumelage {
	c := *j
	c.sites = slices.Clone(j.sites)
	c.resultats = slices.Clone(j.resultats)
	c.coupures = maps.Clone(j.coupures)
	c.cumul = maps.Clone(j.cumul)
	c.annulees = maps.Clone(j.annulees)
	c.detaches = maps.Clone(j.detaches)
	return &c
}
