package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 11 item 3: during an open coup the public sees the position (grille
// and tirage) but never its top: partie{solutions} is hidden, and so are
// the engine's queries that would compute it, resoudre and verifierCoup,
// which need a director or commission token. An arbiter is refused too.
func TestSecurite_MoteurReserveAuDirecteurEtALaCommission(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()

	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	for i := 1; i <= 2; i++ {
		require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": fmt.Sprintf("L%d", i), "nom": fmt.Sprintf("Joueur %d", i), "club": "Vichy", "table": i}}).Errors)
	}
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	var open apiPartie
	s.gql("", `{ partie(id:"T1-1") { statut tirage grille } }`, nil).into(t, "partie", &open)
	require.Equal(t, "tirage", open.Statut, "the coup is open")
	require.NotEmpty(t, open.Tirage)
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", `{ partie(id:"T1-1") { solutions { mot } } }`, nil).code())
	var hidden apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score } } }`, nil).into(t, "partie", &hidden)
	require.NotEmpty(t, hidden.Solutions)
	top := hidden.Solutions[0]

	vars := map[string]any{"p": map[string]any{"grille": open.Grille, "tirage": open.Tirage}, "m": top.Mot, "r": top.Reference}
	const resoudre = `query($p: PositionInput!) { resoudre(position:$p) { scoreTop tops { mot reference } } }`
	const verifier = `query($p: PositionInput!, $m: String!, $r: String!) { verifierCoup(position:$p, mot:$m, reference:$r) { jouable score } }`
	refused := []struct {
		who, token, code string
	}{
		{"the public", "", "UNAUTHENTICATED"},
		{"an arbiter", arbiter, "FORBIDDEN"},
		{"an invented token", "arb_invente", "UNAUTHENTICATED"},
	}
	for _, r := range refused {
		for field, q := range map[string]string{"resoudre": resoudre, "verifierCoup": verifier} {
			out := s.gql(r.token, q, vars)
			assert.Equal(t, r.code, out.code(), "%s asks %s", r.who, field)
			assert.Nil(t, out.Data, "%s gets nothing from %s", r.who, field)
		}
	}

	for who, token := range map[string]string{"the director": director, "the commission": commission} {
		var sol struct {
			ScoreTop int
			Tops     []struct{ Mot, Reference string }
		}
		s.gql(token, resoudre, vars).into(t, "resoudre", &sol)
		assert.Equal(t, top.Score, sol.ScoreTop, who)
		assert.Contains(t, sol.Tops, struct{ Mot, Reference string }{top.Mot, top.Reference}, who)
		var v struct {
			Jouable bool
			Score   int
		}
		s.gql(token, verifier, vars).into(t, "verifierCoup", &v)
		assert.True(t, v.Jouable, who)
		assert.Equal(t, top.Score, v.Score, who)
	}
}
