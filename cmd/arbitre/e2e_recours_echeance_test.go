package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore/eventstoretest"
)

// TestArt6_3_RecoursApresLaPartieSuivante: over HTTP, an appeal on a game
// is recevable until the next game of the tournament starts (its first
// tirage, §6.3); after it, DEADLINE_PASSED and nothing is stored.
func TestArt6_3_RecoursApresLaPartieSuivante(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")

	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E1", "L2")}).Errors, "no next game yet")
	suivante := map[string]any{"t": a.tournoi, "p": "A-2"}
	require.Empty(t, s.gql(director, `mutation($t: ID!, $p: ID!) { creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: 7}) { version } }`, suivante).Errors)
	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E2", "L1")}).Errors, "next game created, not started")

	require.Empty(t, s.gql(director, `mutation($p: ID!) { tirer(partie:$p) { version } }`, suivante).Errors)
	res := s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E3", "L20")})
	assert.Equal(t, "DEADLINE_PASSED", res.code())
	require.NotEmpty(t, res.Errors)
	assert.Contains(t, res.Errors[0].Message, "§6.3")
	assert.Equal(t, "null", string(s.gql(director, appelQuery, map[string]any{"t": a.tournoi, "id": "E3"}).Data["appel"]), "late appeal not stored")
}

// TestE2EArt6_3_RecoursPendantLaPause: « avant le début de la partie
// suivante ou, à défaut, 15 minutes après la dernière partie de la
// compétition » (§6.3). The tournament knows it has two games: during the
// break after game 1, more than 15 minutes after its end, an appeal on it
// is accepted — the next game is neither created nor started; once its
// first tirage is drawn, refused. When the director brings the tournament
// down to one game (with his reason), game 1 is the last: 15 minutes after
// its end, refused.
func TestE2EArt6_3_RecoursPendantLaPause(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbitre := apiToken(t, data, "--role", "arbiter")
	h := eventstoretest.NewManualClock(time.Now().UTC().Truncate(time.Second))
	s := startAPIServerHorloge(t, data, h)
	defer s.stop()
	attendreJetons(t, s, director, arbitre)
	exiger := func(q string, vars map[string]any) apiResult {
		t.Helper()
		res := s.gql(director, q, vars)
		require.Empty(t, res.Errors, "%s: %+v", q, res.Errors)
		return res
	}
	const fixer = `mutation($t: ID!, $n: Int!, $m: String) { fixerNombreParties(tournoi:$t, nombre:$n, motif:$m) { nombreParties } }`
	// finir ends a tournament's game 1: an interruption of more than 15
	// minutes (§3.7), its results closed, then the break runs past 15
	// minutes after the closure.
	finir := func(a appelPartie) {
		t.Helper()
		exiger(`mutation($p: ID!) { interrompre(partie:$p) { version } }`, map[string]any{"p": a.partie})
		h.Advance(16 * time.Minute)
		var fin struct{ Statut string }
		exiger(`mutation($p: ID!) { reprendre(partie:$p) { statut } }`, map[string]any{"p": a.partie}).into(t, "reprendre", &fin)
		require.Equal(t, "terminee", fin.Statut)
		exiger(`mutation($p: ID!) { cloreResultats(partie:$p) { version } }`, map[string]any{"p": a.partie})
		h.Advance(20 * time.Minute)
	}

	a := nouvelleAppelPartie(t, s, director, "A")
	var fixe struct{ NombreParties int }
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", fixer, map[string]any{"t": a.tournoi, "n": 2}).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbitre, fixer, map[string]any{"t": a.tournoi, "n": 2}).code(), "the director's alone")
	exiger(fixer, map[string]any{"t": a.tournoi, "n": 2}).into(t, "fixerNombreParties", &fixe)
	require.Equal(t, 2, fixe.NombreParties)
	finir(a)
	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E1", "L2")}).Errors,
		"the break after game 1 of 2: the next game is not created")
	suivante := map[string]any{"t": a.tournoi, "p": "A-2"}
	exiger(`mutation($t: ID!, $p: ID!) { creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: 7}) { version } }`, suivante)
	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E2", "L1")}).Errors,
		"the next game is created, not started")
	exiger(`mutation($p: ID!) { tirer(partie:$p) { version } }`, suivante)
	assert.Equal(t, "DEADLINE_PASSED", s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E3", "L20")}).code(),
		"the next game started")

	b := nouvelleAppelPartie(t, s, director, "B")
	exiger(fixer, map[string]any{"t": b.tournoi, "n": 2})
	res := s.gql(director, fixer, map[string]any{"t": b.tournoi, "n": 1})
	assert.Equal(t, "INVALID_TOURNAMENT", res.code(), "a change of the number of games is motivated")
	exiger(fixer, map[string]any{"t": b.tournoi, "n": 1, "m": "salle rendue plus tôt"})
	finir(b)
	res = s.gql(director, deposerAppelMutation, map[string]any{"a": b.depot("E4", "L2")})
	assert.Equal(t, "DEADLINE_PASSED", res.code(), "game 1 of 1 is the last: 15 minutes after its results were closed")
}

// TestE2EArt6_3_DelaiDepuisLaClotureDesResultats: « 15 minutes après la
// dernière partie de la compétition » (§6.3) run from the closure of the
// last game's results, the last coup's decisions being taken after its
// end (introduction, guide §3.2): 20 minutes after the end of the only
// game, its results not closed, an appeal is accepted; once they are
// closed and 15 minutes have passed, refused. (The store records the
// events at the wall clock's time, the commands read the test's clock: the
// window after the closure is TestArt6_3_DelaiDepuisLaClotureDesResultats's
// in domain/appel/adapters.)
func TestE2EArt6_3_DelaiDepuisLaClotureDesResultats(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	h := eventstoretest.NewManualClock(time.Now().UTC().Truncate(time.Second))
	s := startAPIServerHorloge(t, data, h)
	defer s.stop()
	attendreJetons(t, s, director)
	exiger := func(q string, vars map[string]any) {
		t.Helper()
		res := s.gql(director, q, vars)
		require.Empty(t, res.Errors, "%s: %+v", q, res.Errors)
	}
	a := nouvelleAppelPartie(t, s, director, "A")
	p := map[string]any{"p": a.partie}
	exiger(`mutation($p: ID!) { interrompre(partie:$p) { version } }`, p)
	h.Advance(16 * time.Minute)
	exiger(`mutation($p: ID!) { reprendre(partie:$p) { version } }`, p)
	h.Advance(20 * time.Minute)
	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E1", "L2")}).Errors,
		"20 minutes after the end, the results not closed")
	exiger(`mutation($p: ID!) { cloreResultats(partie:$p) { version } }`, p)
	h.Advance(16 * time.Minute)
	assert.Equal(t, "DEADLINE_PASSED", s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E2", "L1")}).code(),
		"16 minutes after the closure")
}
