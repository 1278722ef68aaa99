package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type apiLigneDiscipline struct {
	Licence        string `json:"licence"`
	Score          int    `json:"score"`
	Avertissements int    `json:"avertissements"`
	EnAttente      int    `json:"enAttente"`
}

func ligneDiscipline(lignes []apiLigneDiscipline, licence string) apiLigneDiscipline {
	for _, l := range lignes {
		if l.Licence == licence {
			return l
		}
	}
	return apiLigneDiscipline{Licence: licence, Score: -1}
}

// jouerCoupExact draws coup 1 of game partie, enters for every player the
// top's exact bulletin, retains the top and corrects the bulletins; it
// returns the top's score.
func jouerCoupExact(t *testing.T, s *apiServer, director, arbiter, partie string, licences ...string) int {
	t.Helper()
	require.Empty(t, s.gql(director, `mutation($p: ID!) { tirer(partie:$p) { version } }`, map[string]any{"p": partie}).Errors)
	var withSolutions apiPartie
	s.gql(director, `query($p: ID!) { partie(id:$p) { solutions { mot reference score admissible } } }`, map[string]any{"p": partie}).
		into(t, "partie", &withSolutions)
	require.NotEmpty(t, withSolutions.Solutions)
	top := withSolutions.Solutions[0]
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	for _, l := range licences {
		require.Empty(t, s.gql(arbiter, `mutation($p: ID!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:1, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"p": partie, "l": l, "b": exact}).Errors)
	}
	require.Empty(t, s.gql(director, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
		map[string]any{"p": partie, "r": top.Reference, "m": top.Mot}).Errors)
	for _, l := range licences {
		require.Empty(t, s.gql(arbiter, `mutation($p: ID!, $l: ID!) { corrigerBulletin(partie:$p, coup:1, licence:$l) { licence } }`,
			map[string]any{"p": partie, "l": l}).Errors)
	}
	return top.Score
}

// The director's disciplinary decisions through the API
// (fisf-reglement-duplicate-2020.txt §5.5, §5.7, §6.1): a disciplinary zéro
// changes the standings, an avertissement is counted (§5.9), an exclusion
// refuses the player's bulletins; an arbiter is refused (FORBIDDEN) and
// nothing changes; bad input is refused with a stable code.
func TestE2EDisciplineDirectorSanctions(t *testing.T) {
	s, director, arbiter := salleT1(t, 3)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	top := jouerCoupExact(t, s, director, arbiter, "T1-1", "L1", "L2", "L3")
	classement := `{ classement(partie:"T1-1") { licence score avertissements enAttente } }`
	var lignes []apiLigneDiscipline
	attendre := func(cond func() bool, msg string) {
		t.Helper()
		var vue derniereErreur
		require.Eventually(t, func() bool {
			return vue.ok(s.gql("", classement, nil).lire("classement", &lignes)) && cond()
		}, 10*time.Second, 20*time.Millisecond, "%s (%s)", msg, &vue)
	}
	attendre(func() bool { return ligneDiscipline(lignes, "L1").Score == top }, "the standings follow the corrections")

	sanction := `mutation($l: ID!, $n: NatureSanction!, $c: Int!, $v: Int, $id: String) {
		sanctionDisciplinaire(partie:"T1-1", coup:$c, licence:$l, nature:$n, motif:"bavardage", version:$v, clientMutationId:$id) { version joueurs } }`
	vars := func(licence, nature string, coup int) map[string]any {
		return map[string]any{"l": licence, "n": nature, "c": coup}
	}

	// An arbiter cannot apply the director's decisions: refused, nothing done.
	var avant apiPartie
	s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &avant)
	assert.Equal(t, "FORBIDDEN", s.gql(arbiter, sanction, vars("L1", "zero", 1)).code())
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", sanction, vars("L1", "zero", 1)).code())
	var apres apiPartie
	s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &apres)
	assert.Equal(t, avant.Version, apres.Version, "a refused sanction records nothing")
	s.gql("", classement, nil).into(t, "classement", &lignes)
	assert.Equal(t, top, ligneDiscipline(lignes, "L1").Score)

	// Bad input: stable codes, nothing done.
	for _, tt := range []struct {
		name string
		vars map[string]any
		code string
	}{
		{"§5.5 §5.7 §6.1 nature inconnue", vars("L1", "blame", 1), codeHorsEnum},
		{"coup pas encore joué", vars("L1", "zero", 2), "INVALID_SANCTION"},
		{"joueur inconnu", vars("X9", "zero", 1), "UNKNOWN_PLAYER"},
	} {
		assert.Equal(t, tt.code, s.gql(director, sanction, tt.vars).code(), tt.name)
	}
	stale := vars("L1", "zero", 1)
	stale["v"] = 1
	assert.Equal(t, "CONFLICT", s.gql(director, sanction, stale).code())

	// §5.7: a disciplinary zéro, retried with the same client mutation id,
	// is applied once and the standings change.
	zero := vars("L1", "zero", 1)
	zero["id"] = "zero-L1"
	var res struct {
		Version int
		Joueurs []string
	}
	s.gql(director, sanction, zero).into(t, "sanctionDisciplinaire", &res)
	assert.Equal(t, avant.Version+1, res.Version)
	s.gql(director, sanction, zero).into(t, "sanctionDisciplinaire", &res)
	assert.Equal(t, avant.Version+1, res.Version, "a retry is applied once")
	attendre(func() bool { return ligneDiscipline(lignes, "L1").Score == 0 }, "§5.7 the coup counts 0 in the standings")
	assert.Zero(t, ligneDiscipline(lignes, "L1").EnAttente)
	assert.Equal(t, top, ligneDiscipline(lignes, "L2").Score)

	// §5.5: an avertissement counts for §5.9 and cumulates (§5.8).
	s.gql(director, sanction, vars("L2", "avertissement", 1)).into(t, "sanctionDisciplinaire", &res)
	attendre(func() bool { return ligneDiscipline(lignes, "L2").Avertissements == 1 }, "§5.9 the avertissement is counted")
	assert.Equal(t, top, ligneDiscipline(lignes, "L2").Score, "free under §5.9")

	// §6.1: exclusion — scores annulled, later bulletins refused.
	s.gql(director, sanction, vars("L3", "exclusion", 1)).into(t, "sanctionDisciplinaire", &res)
	assert.Equal(t, []string{"L1", "L2"}, res.Joueurs, "§6.1 excluded from the game")
	attendre(func() bool { return ligneDiscipline(lignes, "L3").Score == 0 }, "§6.1 scores annulled")
	assert.Equal(t, "EXCLUDED", s.gql(director, sanction, vars("L3", "exclusion", 1)).code(), "no double exclusion")
	var p apiPartie
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	assert.Equal(t, "EXCLUDED", s.gql(arbiter, `mutation($b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:2, licence:"L3", bulletin:$b) { licence } }`,
		map[string]any{"b": map[string]any{"blank": true}}).code())

	// §6.1: excluded from the tournament's other games too.
	var next struct{ Joueurs []string }
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-2", config:{source: logiciel, graine: 8}) { joueurs } }`, nil).into(t, "creerPartie", &next)
	assert.NotContains(t, next.Joueurs, "L3", "§6.1 the next game starts without the excluded player")
	assert.Contains(t, next.Joueurs, "L1")
}

// TestE2EArt6_1_ExclusionAnnuleLesPartiesAnterieures: when the director so
// decides, an exclusion for cheating (2020 §6.1) annuls the player's earlier
// games of the competition: he scores zero in them and in the cumul, is
// shown as excluded and ranked after everyone. The choice on another
// sanction is refused and changes nothing.
func TestE2EArt6_1_ExclusionAnnuleLesPartiesAnterieures(t *testing.T) {
	s, director, arbiter := salleT1(t, 3)
	var top int
	for _, partie := range []string{"T1-1", "T1-2"} {
		require.Empty(t, s.gql(director, `mutation($p: ID!) { creerPartie(tournoi:"T1", partie:$p, config:{source: logiciel, graine: 7}) { version } }`,
			map[string]any{"p": partie}).Errors)
		top += jouerCoupExact(t, s, director, arbiter, partie, "L1", "L2", "L3")
	}

	sanction := `mutation($n: NatureSanction!) { sanctionDisciplinaire(partie:"T1-2", coup:1, licence:"L1", nature:$n,
		motif:"fraude avérée", annulerParties:true) { version } }`
	var avant, apres apiPartie
	s.gql(director, `{ partie(id:"T1-2") { version } }`, nil).into(t, "partie", &avant)
	assert.Equal(t, "INVALID_SANCTION", s.gql(director, sanction, map[string]any{"n": "zero"}).code(), "only an exclusion annuls games")
	s.gql(director, `{ partie(id:"T1-2") { version } }`, nil).into(t, "partie", &apres)
	assert.Equal(t, avant.Version, apres.Version, "a refused sanction records nothing")

	require.Empty(t, s.gql(director, sanction, map[string]any{"n": "exclusion"}).Errors)
	type ligne struct {
		Licence string
		Score   int
		Rang    int
		Exclu   bool
	}
	var cumul, premiere []ligne
	var vue derniereErreur
	require.Eventually(t, func() bool {
		return vue.ok(s.gql("", `{ classement(tournoi:"T1") { licence score rang exclu } }`, nil).lire("classement", &cumul)) && len(cumul) == 3 && cumul[2].Exclu
	}, 10*time.Second, 20*time.Millisecond, "§6.1 the exclusion reaches the cumul (%s)", &vue)
	assert.Equal(t, []ligne{{"L2", top, 1, false}, {"L3", top, 1, false}, {"L1", 0, 3, true}}, cumul,
		"§6.1 his games annulled, ranked after everyone")
	s.gql("", `{ classement(partie:"T1-1") { licence score rang exclu } }`, nil).into(t, "classement", &premiere)
	assert.Equal(t, ligne{"L1", 0, 3, true}, premiere[2], "§6.1 the earlier game counts zero for him")
}
