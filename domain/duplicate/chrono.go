package duplicate

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"errors"
	"time"
)

// The chrono of a coup (règlement duplicate 2020 §1.3, §3.3): every player has
// the same time, from the announcement of the tirage to the handing in of the
// bulletin. The director starts it once the letters are repeated (§3.3), and
// may pause and resume it; each of these is an event dated by the server's
// clock, so every screen computes the same time from the events and the
// server's time, across reloads and restarts. The events also hold the
// server's monotonic reading: while the process that started a run reads
// it, the time run is measured on it, and a setting of the wall clock (an
// operator, an NTP step) neither ends the coup's time at once nor stops it;
// after a restart the wall clock measures it, never negative.
//
// How it fits the other commands:
//   - a tirage (and a rejet, an annulled coup) sets a new chrono, stopped, for
//     the coup: the time starts only when the director starts it (§3.3);
//   - an interruption (§3.7) pauses a running chrono at its start, and the
//     resumption restarts it at its end;
//   - the ramassage and the top close it: the time of the coup is over;
//   - the end of the game closes it.
const (
	TypeChronoDemarre  = "partie.chrono_demarre"
	TypeChronoSuspendu = "partie.chrono_suspendu"
	TypeChronoRepris   = "partie.chrono_repris"
)

// ChronoDemarre starts the time of coup Coup at A, server's time (§3.3);
// Monotone is the server's monotonic reading then.
type ChronoDemarre struct {
	Coup     int                          `json:"coup"`
	A        time.Time                    `json:"a"`
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// ChronoSuspendu pauses the time of coup Coup at A.
type ChronoSuspendu struct {
	Coup     int                          `json:"coup"`
	A        time.Time                    `json:"a"`
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// ChronoRepris resumes the time of coup Coup at A.
type ChronoRepris struct {
	Coup     int                          `json:"coup"`
	A        time.Time                    `json:"a"`
	Monotone *eventstore.MonotonicReading `json:"monotone,omitempty"`
}

// EtatChrono is where the chrono of a coup stands.
type EtatChrono string

// The states of the chrono. Ecoule is never stored: it is a running chrono
// whose time is over at the instant it is read.
const (
	ChronoArrete  EtatChrono = "arrete"   // not started (or no coup open)
	ChronoEnCours EtatChrono = "en_cours" // running
	ChronoEnPause EtatChrono = "en_pause" // paused by the director or an interruption
	ChronoEcoule  EtatChrono = "ecoule"   // running, time over (§3.3 « terminé »)
	ChronoTermine EtatChrono = "termine"  // closed by the ramassage, the top or the end
)

// Chrono is the time of the coup being played, as the events leave it.
type Chrono struct {
	Coup  int           `json:"coup"`
	Duree time.Duration `json:"duree"`
	Etat  EtatChrono    `json:"etat"`
	// Ecoule is the time run before Depuis.
	Ecoule time.Duration `json:"ecoule"`
	// Depuis is when the current run started, while running;
	// DepuisMonotone the server's monotonic reading then.
	Depuis         time.Time                    `json:"depuis,omitzero"`
	DepuisMonotone *eventstore.MonotonicReading `json:"depuisMonotone,omitempty"`
	// Interruption says an interruption paused it: the resumption of the
	// game restarts it (§3.7).
	Interruption bool `json:"interruption,omitempty"`
}

// LectureChrono is the chrono read at an instant.
type LectureChrono struct {
	Etat    EtatChrono
	Ecoule  time.Duration
	Restant time.Duration
	// Alerte is the last warning's threshold: trente secondes, or vingt
	// in blitz (§3.3; guide §2.17.6 for blitz).
	Alerte time.Duration
}

// A reads the chrono at instant t of the server's clock.
func (c Chrono) A(t eventstore.Instant) LectureChrono {
	l := LectureChrono{Etat: c.Etat, Ecoule: c.Ecoule, Alerte: 30 * time.Second}
	if l.Etat == "" {
		l.Etat = ChronoArrete
	}
	if c.Duree <= time.Minute {
		l.Alerte = 20 * time.Second
	}
	switch c.Etat {
	case ChronoEnCours:
		l.Ecoule += c.courant(t)
		if l.Ecoule >= c.Duree {
			l.Etat = ChronoEcoule
		}
	case ChronoTermine:
		l.Ecoule = c.Duree
	}
	l.Ecoule = min(l.Ecoule, c.Duree)
	l.Restant = c.Duree - l.Ecoule
	return l
}

// courant is the time of the current run at t: on the monotonic clock when
// t and the run's start are readings of the same one, otherwise on the
// wall clock, never negative.
func (c Chrono) courant(t eventstore.Instant) time.Duration {
	d, _ := t.Since(eventstore.Instant{Wall: c.Depuis, Monotonic: c.DepuisMonotone})
	return d
}

// suspendu is the chrono paused at t.
func (c Chrono) suspendu(t eventstore.Instant) Chrono {
	c.Ecoule, c.Etat, c.Depuis, c.DepuisMonotone = c.A(t).Ecoule, ChronoEnPause, time.Time{}, nil
	return c
}

// repris is the chrono running again from t.
func (c Chrono) repris(t eventstore.Instant) Chrono {
	c.Etat, c.Depuis, c.DepuisMonotone, c.Interruption = ChronoEnCours, t.Wall, t.Monotonic, false
	return c
}

// Chrono is the chrono of the coup being played (§1.3, §3.3).
func (p *Partie) Chrono() Chrono { return p.chrono }

// nouveauChrono is the stopped chrono of coup n: the game's time per coup,
// or the elimination schedule (§1.3, §3.8.3, guide §2.14).
func (p *Partie) nouveauChrono(n int) Chrono {
	return Chrono{Coup: n, Duree: p.config.TempsDuCoup(n), Etat: ChronoArrete}
}

// fermerChrono closes the chrono of coup n, if it is the one open: the
// ramassage and the top end the time of the coup (§1.3).
func (p *Partie) fermerChrono(n int) {
	if p.chrono.Coup == n && p.chrono.Etat != "" {
		p.chrono.Etat, p.chrono.Depuis, p.chrono.DepuisMonotone, p.chrono.Interruption = ChronoTermine, time.Time{}, nil, false
	}
}

// DemarrerChrono starts the time of the coup being played at t, server's
// time: after the tirage is announced and repeated (§3.3). Once per coup;
// the top, the ramassage or an interruption in between refuse it.
func (p *Partie) DemarrerChrono(t eventstore.Instant) error {
	if err := p.exigerStatut(StatutTirage, "le lancement du chrono"); err != nil {
		return err
	}
	if p.chrono.Etat != ChronoArrete {
		return erreur.Refus(CodeWrongState, "le chrono du coup %d est déjà lancé (§3.3)", p.prochainCoup)
	}
	return aggregate.Record(p, ChronoDemarre{Coup: p.prochainCoup, A: t.Wall, Monotone: t.Monotonic})
}

// SuspendreChrono pauses the running chrono at t; a chrono whose time is
// over cannot be paused (§3.3 « terminé »).
func (p *Partie) SuspendreChrono(t eventstore.Instant) error {
	if err := p.exigerStatut(StatutTirage, "la pause du chrono"); err != nil {
		return err
	}
	switch p.chrono.A(t).Etat {
	case ChronoEnCours:
	case ChronoEcoule:
		return erreur.Refus(CodeWrongState, "le temps du coup %d est écoulé : plus de pause (§3.3)", p.prochainCoup)
	default:
		return erreur.Refus(CodeWrongState, "le chrono du coup %d ne tourne pas", p.prochainCoup)
	}
	return aggregate.Record(p, ChronoSuspendu{Coup: p.prochainCoup, A: t.Wall, Monotone: t.Monotonic})
}

// ReprendreChrono restarts the paused chrono at t.
func (p *Partie) ReprendreChrono(t eventstore.Instant) error {
	if err := p.exigerStatut(StatutTirage, "la reprise du chrono"); err != nil {
		return err
	}
	if p.chrono.Etat != ChronoEnPause {
		return erreur.Refus(CodeWrongState, "le chrono du coup %d n'est pas en pause", p.prochainCoup)
	}
	return aggregate.Record(p, ChronoRepris{Coup: p.prochainCoup, A: t.Wall, Monotone: t.Monotonic})
}

// errChronoInattendu is a chrono event that does not fit the game.
var errChronoInattendu = errors.New("événement du chrono inattendu")

// onChrono is the transition of the chrono's own events; it checks
// before changing anything.
func (p *Partie) onChrono(e any) error {
	c := p.chrono
	ok := p.statut == StatutTirage
	switch e := e.(type) {
	case ChronoDemarre:
		ok = ok && e.Coup == c.Coup && c.Etat == ChronoArrete
		c = c.repris(eventstore.Instant{Wall: e.A, Monotonic: e.Monotone})
	case ChronoSuspendu:
		ok = ok && e.Coup == c.Coup && c.Etat == ChronoEnCours
		c = c.suspendu(eventstore.Instant{Wall: e.A, Monotonic: e.Monotone})
	case ChronoRepris:
		ok = ok && e.Coup == c.Coup && c.Etat == ChronoEnPause
		c = c.repris(eventstore.Instant{Wall: e.A, Monotonic: e.Monotone})
	}
	if !ok {
		return errChronoInattendu
	}
	p.chrono = c
	return nil
}
