package duplicate

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// h0 is the server's time a test's coup starts at.
var h0 = time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)

// TestChrono_Paragraphe1_3_TempsDuCoup: the time of a coup is the game's
// time per coup (§1.3: 3 min, 2 min 30, 2 min, 1 min in blitz) or the
// elimination schedule (§3.8.3); the director starts it after the tirage
// (§3.3), pauses and resumes it; the time elapsed and left are computed from
// the events and the server's time, the same after a replay (a reload, a
// restart); the last warning is at 30 s, 20 s in blitz (§3.3 « trente (ou
// vingt) secondes »; guide §2.17.6).
func TestChrono_Paragraphe1_3_TempsDuCoup(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		duree  time.Duration
		alerte time.Duration
	}{
		{"§1.3 trois minutes", configDirecteur, 3 * time.Minute, 30 * time.Second},
		{"§1.3 deux minutes trente", Config{TempsParCoup: 150 * time.Second, Source: SourceDirecteur}, 150 * time.Second, 30 * time.Second},
		{"§1.3 blitz, guide §2.17.6 : alerte à vingt secondes", Config{TempsParCoup: time.Minute, Source: SourceDirecteur}, time.Minute, 20 * time.Second},
		{"§3.8.3 mort subite : 1 min 20 aux trois premiers coups", Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeMortSubite},
			80 * time.Second, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, tt.cfg, fixe(t))
			require.NoError(t, p.Tirer("ABCDEFG"))
			l := p.Chrono().A(murale(h0))
			assert.Equal(t, LectureChrono{Etat: ChronoArrete, Restant: tt.duree, Alerte: tt.alerte}, l, "stopped until the director starts it (§3.3)")

			require.NoError(t, p.DemarrerChrono(murale(h0)))
			assert.Equal(t, LectureChrono{Etat: ChronoEnCours, Ecoule: 20 * time.Second, Restant: tt.duree - 20*time.Second, Alerte: tt.alerte},
				p.Chrono().A(murale(h0.Add(20*time.Second))))
			require.NoError(t, p.SuspendreChrono(murale(h0.Add(20*time.Second))))
			assert.Equal(t, 20*time.Second, p.Chrono().A(murale(h0.Add(time.Hour))).Ecoule, "a paused chrono does not run")
			require.NoError(t, p.ReprendreChrono(murale(h0.Add(5*time.Minute))))
			l = p.Chrono().A(murale(h0.Add(5*time.Minute + 10*time.Second)))
			assert.Equal(t, ChronoEnCours, l.Etat)
			assert.Equal(t, 30*time.Second, l.Ecoule)

			replay := rejouer(t, []any{PartieCreee{Partie: "p1", Config: p.Config(), Joueurs: []string{"L1"}}}, vider(p))
			assert.Equal(t, p.Chrono(), replay.Chrono(), "the events alone give the same chrono")

			fin := p.Chrono().A(murale(h0.Add(time.Hour)))
			assert.Equal(t, LectureChrono{Etat: ChronoEcoule, Ecoule: tt.duree, Alerte: tt.alerte}, fin, "§3.3 « terminé »")
		})
	}
}

// TestChrono_Paragraphe3_3_Refus: the chrono is started once per coup, after
// the tirage; only a running chrono is paused and only a paused one resumed;
// a refusal records nothing.
func TestChrono_Paragraphe3_3_Refus(t *testing.T) {
	tests := []struct {
		name    string
		avant   func(t *testing.T, p *Partie)
		command func(p *Partie) error
	}{
		{"§3.3 pas de chrono avant le tirage", nil, func(p *Partie) error { return p.DemarrerChrono(murale(h0)) }},
		{"§3.3 un seul lancement par coup", func(t *testing.T, p *Partie) {
			require.NoError(t, p.Tirer("ABCDEFG"))
			require.NoError(t, p.DemarrerChrono(murale(h0)))
		}, func(p *Partie) error { return p.DemarrerChrono(murale(h0.Add(time.Second))) }},
		{"pause d'un chrono arrêté", func(t *testing.T, p *Partie) { require.NoError(t, p.Tirer("ABCDEFG")) },
			func(p *Partie) error { return p.SuspendreChrono(murale(h0)) }},
		{"§3.3 pause d'un temps écoulé", func(t *testing.T, p *Partie) {
			require.NoError(t, p.Tirer("ABCDEFG"))
			require.NoError(t, p.DemarrerChrono(murale(h0)))
		}, func(p *Partie) error { return p.SuspendreChrono(murale(h0.Add(3 * time.Minute))) }},
		{"reprise d'un chrono qui tourne", func(t *testing.T, p *Partie) {
			require.NoError(t, p.Tirer("ABCDEFG"))
			require.NoError(t, p.DemarrerChrono(murale(h0)))
		}, func(p *Partie) error { return p.ReprendreChrono(murale(h0)) }},
		{"§3.7 partie interrompue", func(t *testing.T, p *Partie) {
			require.NoError(t, p.Tirer("ABCDEFG"))
			require.NoError(t, p.Interrompre(murale(h0)))
		}, func(p *Partie) error { return p.DemarrerChrono(murale(h0)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, configDirecteur, fixe(t))
			if tt.avant != nil {
				tt.avant(t, p)
			}
			avant := p.Chrono()
			refuse(t, p, CodeWrongState, func() error { return tt.command(p) })
			assert.Equal(t, avant, p.Chrono())
		})
	}
}

// TestChrono_Paragraphe3_7_AutresCommandes: how the chrono follows the other
// commands. An interruption (§3.7, guide §2.13) pauses a running chrono and
// the resumption restarts it; the ramassage and the top close it (the time
// of the coup is over, §1.3); a rejet (§3.2) and an annulled coup (§3.6) set
// a new stopped chrono for the next tirage.
func TestChrono_Paragraphe3_7_AutresCommandes(t *testing.T) {
	bac := coup(t, "H8", "BAC", 14)
	tests := []struct {
		name  string
		apres func(t *testing.T, p *Partie)
		lu    time.Time
		want  LectureChrono
	}{
		{"§3.7 interruption puis reprise : le temps ne court pas pendant l'interruption", func(t *testing.T, p *Partie) {
			require.NoError(t, p.Interrompre(murale(h0.Add(40*time.Second))))
			assert.Equal(t, ChronoEnPause, p.Chrono().A(murale(h0.Add(5*time.Minute))).Etat)
			require.NoError(t, p.Reprendre(murale(h0.Add(10*time.Minute))))
		}, h0.Add(10*time.Minute + 20*time.Second), LectureChrono{Etat: ChronoEnCours, Ecoule: time.Minute, Restant: 2 * time.Minute, Alerte: 30 * time.Second}},
		{"§1.3 le ramassage ferme le chrono", func(t *testing.T, p *Partie) { require.NoError(t, p.Ramasser()) },
			h0.Add(10 * time.Second), LectureChrono{Etat: ChronoTermine, Ecoule: 3 * time.Minute, Alerte: 30 * time.Second}},
		{"§3.4 le top ferme le chrono", func(t *testing.T, p *Partie) { require.NoError(t, p.RetenirTop("H8", "BAC")) },
			h0.Add(10 * time.Second), LectureChrono{Etat: ChronoTermine, Ecoule: 3 * time.Minute, Alerte: 30 * time.Second}},
		{"§3.6 coup annulé : nouveau chrono arrêté", func(t *testing.T, p *Partie) { require.NoError(t, p.AnnulerCoup(AnnulationErreur)) },
			h0.Add(10 * time.Second), LectureChrono{Etat: ChronoArrete, Restant: 3 * time.Minute, Alerte: 30 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, configDirecteur, fixe(t, bac))
			require.NoError(t, p.Tirer("ABCDEFG"))
			require.NoError(t, p.DemarrerChrono(murale(h0)))
			tt.apres(t, p)
			assert.Equal(t, tt.want, p.Chrono().A(murale(tt.lu)))
			replay := rejouer(t, []any{PartieCreee{Partie: "p1", Config: p.Config(), Joueurs: []string{"L1"}}}, vider(p))
			assert.Equal(t, tt.want, replay.Chrono().A(murale(tt.lu)), "the same after a restart")
		})
	}
}

// TestAtomicite_ChronoIncoherent: a chrono event that does not fit the game
// is a corrupt history and changes nothing.
func TestAtomicite_ChronoIncoherent(t *testing.T) {
	tests := []struct {
		name string
		evts []any
	}{
		{"lancement sans tirage", []any{ChronoDemarre{Coup: 1, A: h0}}},
		{"pause d'un chrono arrêté", []any{TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}, ChronoSuspendu{Coup: 1, A: h0}}},
		{"lancement d'un autre coup", []any{TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}, ChronoDemarre{Coup: 2, A: h0}}},
		{"reprise d'un chrono qui tourne", []any{TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}, ChronoDemarre{Coup: 1, A: h0}, ChronoRepris{Coup: 1, A: h0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, configDirecteur, fixe(t))
			avant := p.Copie()
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(p, tt.evts...)))
			assert.Equal(t, avant, p)
		})
	}
}
