package command_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore/eventstoretest"
)

// §3.7 (guide §2.13): the game ends when it is « interrompue durant plus de
// 15 minutes d'affilée » — a real length, which a setting of the server's
// clock during the interruption (an operator, an NTP step) does not change.
// The server measures it on its monotonic clock while it runs; after a
// restart (no monotonic reading survives) on the wall clock, never negative.
func TestInterruption_Paragraphe3_7_HorlogeQuiSaute(t *testing.T) {
	debut := time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// pendant is what happens to the clock during the interruption;
		// redemarrage resumes on a new clock (a restarted server) reading
		// the old one's wall time.
		pendant     func(h *eventstoretest.ManualClock)
		redemarrage bool
		duree       duplicate.DureeInterruption
		fin         *duplicate.PartieTerminee
	}{
		{"5 minutes, l'horloge avance d'une heure : la partie reprend", func(h *eventstoretest.ManualClock) {
			h.Advance(5 * time.Minute)
			h.Jump(time.Hour)
		}, false, duplicate.DureeInterruption{Duree: 5 * time.Minute}, nil},
		{"5 minutes, l'horloge recule d'une heure : la partie reprend", func(h *eventstoretest.ManualClock) {
			h.Advance(5 * time.Minute)
			h.Jump(-time.Hour)
		}, false, duplicate.DureeInterruption{Duree: 5 * time.Minute}, nil},
		{"16 minutes, l'horloge recule d'une heure : la partie est terminée, annulée sous 15 coups", func(h *eventstoretest.ManualClock) {
			h.Advance(16 * time.Minute)
			h.Jump(-time.Hour)
		}, false, duplicate.DureeInterruption{Duree: 16 * time.Minute}, &duplicate.PartieTerminee{Motif: duplicate.FinInterruption, Annulee: true}},
		{"redémarrage, 5 minutes à l'horloge murale : la partie reprend", func(h *eventstoretest.ManualClock) {
			h.Advance(5 * time.Minute)
		}, true, duplicate.DureeInterruption{Duree: 5 * time.Minute, Murale: true}, nil},
		{"redémarrage, l'horloge murale a reculé d'une heure : la reprise est acceptée (durée nulle)", func(h *eventstoretest.ManualClock) {
			h.Jump(-time.Hour)
		}, true, duplicate.DureeInterruption{Murale: true}, nil},
		{"redémarrage, 16 minutes à l'horloge murale : la partie est terminée", func(h *eventstoretest.ManualClock) {
			h.Advance(16 * time.Minute)
		}, true, duplicate.DureeInterruption{Duree: 16 * time.Minute, Murale: true}, &duplicate.PartieTerminee{Motif: duplicate.FinInterruption, Annulee: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := nouveauBanc(t)
			h := eventstoretest.NewManualClock(debut)
			app := command.New(b.depot, b.moteur, h, directeur)
			require.NoError(t, app.Interrompre(b.ctx, command.Interrompre{Partie: "p1"}))
			tt.pendant(h)
			if tt.redemarrage {
				h = eventstoretest.NewManualClock(h.Now())
				app = command.New(b.depot, b.moteur, h, directeur)
			}
			require.NoError(t, app.Reprendre(b.ctx, command.Reprendre{Partie: "p1"}))
			p := b.partie(t)
			recue := b.dernierEvenement(t)
			if tt.fin == nil {
				assert.Equal(t, duplicate.StatutAttenteTirage, p.Statut())
				assert.Equal(t, duplicate.PartieReprise{Fin: h.Now(), Monotone: new(h.Monotonic()), Interruption: &tt.duree}, recue, "the length recorded")
				return
			}
			assert.Equal(t, duplicate.StatutTerminee, p.Statut())
			tt.fin.Interruption = &tt.duree
			assert.Equal(t, tt.fin, p.Fin())
			assert.Equal(t, *tt.fin, recue, "the length recorded")
		})
	}
}

// dernierEvenement is the game's last event, decoded.
func (b *banc) dernierEvenement(t *testing.T) any {
	t.Helper()
	evts, err := b.store.ReadStream(b.ctx, "partie-p1", 0, 1000)
	require.NoError(t, err)
	r, err := adapters.Registre()
	require.NoError(t, err)
	e, err := r.Decode(evts[len(evts)-1])
	require.NoError(t, err)
	return e
}

// §3.3: every player has the time of the coup, a real length; the server's
// clock set forward or back one hour while the chrono runs does not change
// the time run. Set forward, the chrono was over at once (« écoulé »: no
// more pause); set back, it stood still for an hour.
func TestChrono_Paragraphe3_3_HorlogeQuiSaute(t *testing.T) {
	for _, saut := range []time.Duration{time.Hour, -time.Hour} {
		t.Run(saut.String(), func(t *testing.T) {
			b := nouveauBanc(t)
			h := eventstoretest.NewManualClock(time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC))
			app := command.New(b.depot, b.moteur, h, directeur)
			require.NoError(t, app.Tirer(b.ctx, command.Tirer{Partie: "p1"}))
			require.NoError(t, app.DemarrerChrono(b.ctx, command.DemarrerChrono{Partie: "p1"}))
			h.Advance(20 * time.Second)
			h.Jump(saut)
			h.Advance(10 * time.Second)
			require.NoError(t, app.SuspendreChrono(b.ctx, command.SuspendreChrono{Partie: "p1"}), "30 s run of 3 minutes: the chrono can be paused")
			assert.Equal(t, 30*time.Second, b.partie(t).Chrono().Ecoule, "the time run")
			h.Jump(-saut)
			require.NoError(t, app.ReprendreChrono(b.ctx, command.ReprendreChrono{Partie: "p1"}))
			h.Advance(15 * time.Second)
			require.NoError(t, app.Interrompre(b.ctx, command.Interrompre{Partie: "p1"}))
			assert.Equal(t, 45*time.Second, b.partie(t).Chrono().Ecoule, "the time run, paused by the interruption")
		})
	}
}
