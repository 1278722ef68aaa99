package main

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/graphql/server"
)

// Issue 32 item 3: the server's clock jumps back one hour and forward one
// hour (and more) during a coup. The clock is the server's one (Config.Now
// for tokens, the resolver's for commands and the chrono), set by the
// test. What each part does:
//   - the chrono measures the time run on the server's monotonic clock:
//     a clock set back or forward does not change it (before, set back it
//     stood still, set forward past the allotted time it was over at once),
//     a paused chrono does not move whatever the clock does, and the time
//     really run past the allotted time ends the coup's time (« écoulé »:
//     no more pause);
//   - a token is valid while the server's clock is before its expiry: a
//     clock gone forward past it refuses the token (UNAUTHENTICATED), the
//     same clock set back accepts it again;
//   - every command is accepted at whatever time the clock reads, each
//     fact recorded once, and after a restart the game replays its events
//     stamped out of order to the same state.
func TestFiabilite_HorlogeQuiSauteEnCoursDeCoup(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1", "--tables", "1-2", "--ttl", "90m")
	debut := time.Now().UTC().Truncate(time.Second)
	h := eventstoretest.NewManualClock(debut)
	demarrer := func() *apiServer {
		return startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), func(c *server.Config) {
			c.Limits = server.DefaultLimits
			c.Limits.Rate = 0
			c.Resolver.Hasard = matchclassique.HasardFixe(e2eGraine)
			c.Resolver.Clock = h
			c.Now = h.Now
		})
	}
	s := demarrer()
	defer func() { s.stop() }()
	attendreJetons(t, s, director, arbiter)
	inscrireJoueursT1(t, s, director, 2)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7, tempsParCoupSecondes: 120}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { demarrerChrono(partie:"T1-1") { version } }`, nil).Errors)

	lire := func() apiChrono {
		t.Helper()
		var p struct{ Chrono apiChrono }
		s.gql("", `{ partie(id:"T1-1") { `+chronoFields+` } }`, nil).into(t, "partie", &p)
		c := p.Chrono
		assert.True(t, c.EcouleMs >= 0 && c.RestantMs >= 0 && c.EcouleMs+c.RestantMs == 120000, "within the time allotted: %+v", c)
		assert.Equal(t, h.Now().Format(time.RFC3339), c.HeureServeur)
		return c
	}
	chrono := func(m string) string {
		return s.gql(director, `mutation { `+m+`(partie:"T1-1") { version } }`, nil).code()
	}

	h.Jump(-time.Hour)
	h.Advance(10 * time.Second)
	c := lire()
	assert.Equal(t, "en_cours", c.Etat, "back one hour")
	assert.Equal(t, 10000, c.EcouleMs, "back one hour: the chrono runs on, never a negative time")
	require.Empty(t, chrono("suspendreChrono"))
	h.Jump(time.Hour)
	c = lire()
	assert.Equal(t, "en_pause", c.Etat)
	assert.Equal(t, 10000, c.EcouleMs, "a paused chrono does not move when the clock comes back")
	require.Empty(t, chrono("reprendreChrono"))
	h.Advance(20 * time.Second)
	assert.Equal(t, 30000, lire().EcouleMs)
	h.Jump(time.Hour)
	c = lire()
	assert.Equal(t, "en_cours", c.Etat, "forward one hour: the chrono runs on")
	assert.Equal(t, 30000, c.EcouleMs, "forward one hour: the time run does not jump")
	h.Advance(90 * time.Second)
	c = lire()
	assert.Equal(t, "ecoule", c.Etat, "the coup's two minutes are over")
	assert.Equal(t, 0, c.RestantMs)
	assert.Equal(t, "WRONG_STATE", chrono("suspendreChrono"), "§3.3: no pause once the time is over")

	var p apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &p)
	require.NotEmpty(t, p.Solutions)
	top := p.Solutions[0]
	deposer := func(licence string) apiResult {
		return s.gql(arbiter, `mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"l": licence, "b": map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}})
	}
	require.Empty(t, deposer("L1").Errors, "the arbiter's token (90 min) is valid one hour and 20 s after it was issued")
	h.Jump(time.Hour)
	assert.Equal(t, "UNAUTHENTICATED", deposer("L2").code(), "forward past its expiry: the token is refused")
	h.Jump(-2 * time.Hour)
	require.Empty(t, deposer("L2").Errors, "back before its expiry: the token is accepted again")
	require.Empty(t, s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { version } }`,
		map[string]any{"r": top.Reference, "m": top.Mot}).Errors)
	h.Jump(-time.Hour)
	for _, l := range []string{"L1", "L2"} {
		require.Empty(t, s.gql(arbiter, `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`,
			map[string]any{"l": l}).Errors, l)
	}

	const etat = `{ partie(id:"T1-1") { version coup statut ` + chronoFields + ` } bulletins(partie:"T1-1", coup:1) { licence ecrit corrigePar } }`
	avant := s.gql(director, etat, nil)
	require.Empty(t, avant.Errors)
	s.stop()
	s = demarrer()
	attendreJetons(t, s, director)
	apres := s.gql(director, etat, nil)
	require.Empty(t, apres.Errors)
	assert.JSONEq(t, string(avant.Data["partie"]), string(apres.Data["partie"]), "the events stamped out of order replay to the same game")
	assert.JSONEq(t, string(avant.Data["bulletins"]), string(apres.Data["bulletins"]))
	var bulletins []struct{ Licence, CorrigePar string }
	apres.into(t, "bulletins", &bulletins)
	require.Len(t, bulletins, 2, "each bulletin recorded once")
	for _, b := range bulletins {
		assert.NotEmpty(t, b.CorrigePar, "%s corrected", b.Licence)
	}
}

// §3.7 (guide §2.13) over HTTP: the server's clock set forward or back one
// hour during an interruption of 5 minutes does not change its length. Set
// forward, the resumption did end the game (annulled under 15 coups); set
// back, it was refused (WRONG_STATE) until the clock passed the start of the
// interruption again. The server measures the length on its monotonic
// clock; the coup's chrono, paused by the interruption, resumes where it
// stood.
func TestFiabilite_HorlogeQuiSautePendantUneInterruption(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	h := eventstoretest.NewManualClock(time.Now().UTC().Truncate(time.Second))
	s := startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), func(c *server.Config) {
		c.Limits = server.DefaultLimits
		c.Limits.Rate = 0
		c.Resolver.Hasard = matchclassique.HasardFixe(e2eGraine)
		c.Resolver.Clock = h
		c.Now = h.Now
	})
	defer s.stop()
	attendreJetons(t, s, director)
	inscrireJoueursT1(t, s, director, 2)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7, tempsParCoupSecondes: 120}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { demarrerChrono(partie:"T1-1") { version } }`, nil).Errors)
	h.Advance(20 * time.Second)

	for _, saut := range []time.Duration{time.Hour, -time.Hour} {
		var p struct {
			Statut string
			Chrono apiChrono
		}
		s.gql(director, `mutation { interrompre(partie:"T1-1") { statut } }`, nil).into(t, "interrompre", &p)
		require.Equal(t, "interrompue", p.Statut)
		h.Advance(5 * time.Minute)
		h.Jump(saut)
		r := s.gql(director, `mutation { reprendre(partie:"T1-1") { statut `+chronoFields+` } }`, nil)
		require.Empty(t, r.Errors, "clock moved by %v", saut)
		r.into(t, "reprendre", &p)
		assert.Equal(t, "tirage", p.Statut, "clock moved by %v: 5 minutes of interruption, the coup goes on", saut)
		assert.Equal(t, "en_cours", p.Chrono.Etat)
		assert.Equal(t, 20000, p.Chrono.EcouleMs, "clock moved by %v: the chrono resumes where the interruption paused it", saut)
	}
}
