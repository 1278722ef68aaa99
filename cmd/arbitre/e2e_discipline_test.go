package main

import (
	"fmt"
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

// The director's disciplinary decisions through the API
// (fisf-reglement-duplicate-2020.txt §5.5, §5.7, §6.1): a disciplinary zéro
// changes the standings, an avertissement is counted (§5.9), an exclusion
// refuses the player's bulletins; an arbiter is refused (FORBIDDEN) and
// nothing changes; bad input is refused with a stable code.
func TestE2EDisciplineDirectorSanctions(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()

	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open de Vichy") { id } }`, nil).Errors)
	for i := 1; i <= 3; i++ {
		res := s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": fmt.Sprintf("L%d", i), "nom": fmt.Sprintf("Joueur %d", i), "table": i}})
		require.Empty(t, res.Errors)
	}
	var p apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{graine: 7}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	var withSolutions apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &withSolutions)
	require.NotEmpty(t, withSolutions.Solutions)
	top := withSolutions.Solutions[0]

	enter := `mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence } }`
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	for _, l := range []string{"L1", "L2", "L3"} {
		require.Empty(t, s.gql(arbiter, enter, map[string]any{"l": l, "b": exact}).Errors)
	}
	s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { `+partieFields+` } }`,
		map[string]any{"r": top.Reference, "m": top.Mot}).into(t, "retenirTop", &p)
	for _, l := range []string{"L1", "L2", "L3"} {
		require.Empty(t, s.gql(arbiter, `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`,
			map[string]any{"l": l}).Errors)
	}
	classement := `{ classement(partie:"T1-1") { licence score avertissements enAttente } }`
	var lignes []apiLigneDiscipline
	attendre := func(cond func() bool, msg string) {
		t.Helper()
		require.Eventually(t, func() bool {
			s.gql("", classement, nil).into(t, "classement", &lignes)
			return cond()
		}, 10*time.Second, 20*time.Millisecond, msg)
	}
	attendre(func() bool { return ligneDiscipline(lignes, "L1").Score == top.Score }, "the standings follow the corrections")

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
	assert.Equal(t, top.Score, ligneDiscipline(lignes, "L1").Score)

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
	assert.Equal(t, top.Score, ligneDiscipline(lignes, "L2").Score)

	// §5.5: an avertissement counts for §5.9 and cumulates (§5.8).
	s.gql(director, sanction, vars("L2", "avertissement", 1)).into(t, "sanctionDisciplinaire", &res)
	attendre(func() bool { return ligneDiscipline(lignes, "L2").Avertissements == 1 }, "§5.9 the avertissement is counted")
	assert.Equal(t, top.Score, ligneDiscipline(lignes, "L2").Score, "free under §5.9")

	// §6.1: exclusion — scores annulled, later bulletins refused.
	s.gql(director, sanction, vars("L3", "exclusion", 1)).into(t, "sanctionDisciplinaire", &res)
	assert.Equal(t, []string{"L1", "L2"}, res.Joueurs, "§6.1 excluded from the game")
	attendre(func() bool { return ligneDiscipline(lignes, "L3").Score == 0 }, "§6.1 scores annulled")
	assert.Equal(t, "EXCLUDED", s.gql(director, sanction, vars("L3", "exclusion", 1)).code(), "no double exclusion")
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	assert.Equal(t, "EXCLUDED", s.gql(arbiter, `mutation($b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:2, licence:"L3", bulletin:$b) { licence } }`,
		map[string]any{"b": map[string]any{"blank": true}}).code())

	// §6.1: excluded from the tournament's other games too.
	var next struct{ Joueurs []string }
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-2", config:{graine: 8}) { joueurs } }`, nil).into(t, "creerPartie", &next)
	assert.NotContains(t, next.Joueurs, "L3", "§6.1 the next game starts without the excluded player")
	assert.Contains(t, next.Joueurs, "L1")
}
