package query_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/query"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
)

var t0 = time.Date(2026, 5, 1, 14, 0, 0, 0, time.UTC)

// partie plays a simulated game of n players and returns it, its events as
// recorded (encoded through the registry, with metadata) and the lexicon.
func partie(t testing.TB, n int) (*duplicate.Partie, []eventstore.Event, *eventstore.Registry, *lexicon.Lexicon) {
	t.Helper()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	r, err := adapters.Registre()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(3))}
	joueurs := make([]string, n)
	for i := range joueurs {
		joueurs[i] = string(rune('A'+i%26)) + string(rune('0'+i/26))
	}
	var evts []eventstore.Event
	sim := simulation.New(lex, cfg)
	p, err := sim.Jouer(simulation.Partie{ID: "p1", Config: cfg, Joueurs: joueurs, Graine: 3}, func(p *duplicate.Partie) error {
		for _, e := range p.Pending() {
			evts = append(evts, encoder(t, r, e, eventstore.Metadata{Actor: "JA", Role: "directeur"}, len(evts)))
		}
		p.MarkSaved()
		return nil
	})
	require.NoError(t, err)
	return p, evts, r, lex
}

func encoder(t testing.TB, r *eventstore.Registry, e any, md eventstore.Metadata, rev int) eventstore.Event {
	t.Helper()
	d, err := r.NewEventData(uuid.New(), e, md)
	require.NoError(t, err)
	md.RecordedAt = t0.Add(time.Duration(rev) * time.Second)
	return eventstore.Event{ID: d.ID, Stream: "partie-p1", Revision: uint64(rev), Position: uint64(rev + 1), Type: d.Type, Version: d.Version, Data: d.Data, Metadata: md}
}

// Issue 7, appeal commission: the state before a coup reproduced from the
// events equals the live game at that coup; every top is a max-score move
// recomputed by the engine (§3.4); every bulletin has its recorded decision
// and the engine's decision now, equal here.
func TestReconstituer_EgalAuDirect(t *testing.T) {
	p, evts, r, lex := partie(t, 12)
	for _, coup := range []int{1, 5, p.ProchainCoup() - 1} {
		e, err := query.Reconstituer(evts, r, lexicon.NewBibliotheque(lex), coup)
		require.NoError(t, err)
		top, _ := p.Top(coup)
		assert.Equal(t, top, e.Top)
		require.NotEmpty(t, e.Solutions)
		assert.Equal(t, top.Score, int(e.Solutions[0].Move.Score), "§3.4 the top scores the maximum")
		assert.Len(t, e.Bulletins, 12)
		for _, b := range e.Bulletins {
			d, _ := p.Decision(coup, b.Licence)
			require.NotNil(t, b.EnVigueur)
			assert.Equal(t, d, *b.EnVigueur)
			assert.False(t, b.Differe, "%s: %v", b.Licence, b.Differences)
			assert.Equal(t, "JA", b.Actes[0].Acteur)
		}
		assert.Equal(t, len(e.Sac)+len(e.Tirage), sizeRestant(e), "bag and tirage")
	}
	_, err := query.Reconstituer(evts, r, lexicon.NewBibliotheque(lex), 99)
	assert.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err))
}

func sizeRestant(e *query.Etat) int {
	n := 0
	for _, l := range e.Lignes {
		for _, c := range l {
			if c != '.' {
				n++
			}
		}
	}
	return 102 - n
}

// Issue 5: a recorded engine decision that the engine no longer gives (an
// engine change) is flagged with the differing fields, never silently
// replaced; the commission's later decision and its author are shown.
func TestReconstituer_DifferenceSignalee(t *testing.T) {
	p, evts, r, lex := partie(t, 4)
	licence := p.Joueurs()[0]
	d, _ := p.Decision(2, licence)
	ancien := d
	ancien.Paid, ancien.Sanction = d.Paid+1, correction.Warning
	ancien.Engine = "arbitre-correction/0"
	evts = append(evts, encoder(t, r, duplicate.BulletinCorrige{Coup: 2, Licence: licence, Arbitre: "A1", Moteur: &ancien}, eventstore.Metadata{Actor: "A1", Role: "arbitre"}, len(evts)))
	evts = append(evts, encoder(t, r, duplicate.DecisionCommission{Coup: 2, Licence: licence, Appel: "ap1", Issue: duplicate.AppelAmende, Decision: &d, Motif: "retour à la décision du moteur"},
		eventstore.Metadata{Actor: "CRA", Role: "commission"}, len(evts)))
	e, err := query.Reconstituer(evts, r, lexicon.NewBibliotheque(lex), 2)
	require.NoError(t, err)
	var b query.BulletinRejoue
	for _, x := range e.Bulletins {
		if x.Licence == licence {
			b = x
		}
	}
	assert.True(t, b.Differe)
	champs := map[string]bool{}
	for _, df := range b.Differences {
		champs[df.Field] = true
	}
	assert.True(t, champs["paid"] && champs["sanction"] && champs["engine"], "%v", b.Differences)
	assert.Equal(t, d, *b.EnVigueur, "§6.3 the commission's decision is in force")
	last := b.Actes[len(b.Actes)-1]
	assert.Equal(t, []string{duplicate.TypeDecisionCommission, "CRA", "commission"}, []string{last.Type, last.Acteur, last.Role})
	assert.Equal(t, t0.Add(time.Duration(len(evts)-1)*time.Second), last.A)
}

// BenchmarkReconstituer300 replays coup 20 of a 300-player game: decoding
// every event, re-running the engine's tops and recorrecting 300 bulletins.
func BenchmarkReconstituer300(b *testing.B) {
	_, evts, r, lex := partie(b, 300)
	for b.Loop() {
		e, err := query.Reconstituer(evts, r, lexicon.NewBibliotheque(lex), 20)
		require.NoError(b, err)
		require.Len(b, e.Bulletins, 300)
	}
}

// §3.6: an error of chronométrage may annul a coup, so the commission's
// journal of a coup lists its chrono's events with the others.
func TestReconstituer_Paragraphe3_6_JournalDuChrono(t *testing.T) {
	_, evts, r, lex := partie(t, 2)
	var avec []eventstore.Event
	for _, ev := range evts {
		avec = append(avec, ev)
		payload, err := r.Decode(ev)
		require.NoError(t, err)
		if tirage, ok := payload.(duplicate.TirageEffectue); ok && tirage.Coup == 2 {
			avec = append(avec, encoder(t, r, duplicate.ChronoDemarre{Coup: 2, A: t0}, eventstore.Metadata{Actor: "JA", Role: "directeur"}, len(avec)))
		}
	}
	e, err := query.Reconstituer(avec, r, lexicon.NewBibliotheque(lex), 2)
	require.NoError(t, err)
	var types []string
	for _, a := range e.Actes {
		types = append(types, a.Type)
	}
	assert.Contains(t, types, duplicate.TypeChronoDemarre)
}
