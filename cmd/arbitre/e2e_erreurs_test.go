package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur/francais"
)

// Issue 12 item 6: each kind of refusal, sent over HTTP to the real server,
// answers with its code, a complete French message without English
// fragments, and the technical detail in extensions only.
func TestErreurs_MessagesEnFrancais(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tables", "1-5", "--tournoi", "C1")
	s := startAPIServer(t, data)
	defer s.stop()

	// A duplicate game, its first tirage drawn.
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L1", nom:"Joueur 1", club:"Vichy", table:1}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1", clientMutationId:"tirage-1") { version } }`, nil).Errors)

	// A classique match, both players' letters drawn: the first to play
	// holds BCDEEIL.
	match, m := premierMatchClassique(t, s, director)
	tirer := `mutation($m: ID!, $j: ID!, $l: String) { tirerLettres(match:$m, joueur:$j, lettres:$l) { ` + matchCouvertureFields + ` } }`
	s.gql(arbiter, tirer, map[string]any{"m": match, "j": m.Joueurs[0], "l": "BCDEEIL"}).into(t, "tirerLettres", &m)
	s.gql(arbiter, tirer, map[string]any{"m": match, "j": m.Joueurs[1], "l": "AEINRST"}).into(t, "tirerLettres", &m)
	require.Equal(t, "en_cours", m.Phase)
	premier, second := m.Joueurs[0], m.Joueurs[1]
	grilleVide := strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n")
	placer := `mutation($m: ID!, $j: ID!, $w: String!) { placerMot(match:$m, joueur:$j, reference:"H8", mot:$w) { version } }`

	tests := []struct {
		name     string
		token    string
		query    string
		vars     map[string]any
		code     string
		contient string
		ext      map[string]any
	}{
		{"parse error of gqlgen", director, `{ partie(`, nil, "GRAPHQL_PARSE_FAILED", "Requête GraphQL illisible", nil},
		{"validation error of gqlgen", director, `{ inconnu }`, nil, "GRAPHQL_VALIDATION_FAILED", "non conforme au schéma", nil},
		{"no token", "", `mutation { creerTournoi(id:"T2", nom:"Open", homologue: false) { id } }`, nil, "UNAUTHENTICATED", "jeton", nil},
		{"wrong role", arbiter, `mutation { creerTournoi(id:"T2", nom:"Open", homologue: false) { id } }`, nil, "FORBIDDEN", "action réservée", nil},
		{"zero rounds", director, `mutation { ouvrirTournoiClassique(id:"C9", nom:"Open", rondes:0) { version } }`, nil,
			"INVALID_INPUT", "entre 1 et 100", map[string]any{"champ": "ouvrirTournoiClassique.rondes"}},
		{"not the player's turn", arbiter, placer, map[string]any{"m": match, "j": second, "w": "ANE"},
			"NOT_YOUR_TURN", "Ce n'est pas le tour de " + second, nil},
		{"placement of letters not in the rack", arbiter, placer, map[string]any{"m": match, "j": premier, "w": "ZOO"},
			"INVALID_PLACEMENT", "Placement invalide : ZOO en H8", map[string]any{"detail": "NOT_IN_RACK"}},
		{"game id in use", director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { id } }`, nil,
			"ALREADY_EXISTS", "existe déjà", nil},
		{"tirage during a coup", director, `mutation { tirer(partie:"T1-1") { version } }`, nil,
			"WRONG_STATE", "Tirage impossible : le coup 1 est en cours", nil},
		{"stale version", director, `mutation { rejeter(partie:"T1-1", version:1) { version } }`, nil,
			"CONFLICT", "recharger", nil},
		{"clientMutationId reused for another request", director, `mutation { rejeter(partie:"T1-1", clientMutationId:"tirage-1") { version } }`, nil,
			"IDEMPOTENCY_KEY_REUSED", "clientMutationId", nil},
		{"reference the engine cannot read", director,
			`query($g: [String!]!) { verifierCoup(position:{grille:$g, tirage:"ZEN"}, mot:"ZEN", reference:"Z99") { probleme } }`,
			map[string]any{"g": grilleVide}, "INVALID_INPUT", "Donnée invalide (« reference »)", map[string]any{"champ": "reference"}},
		{"unknown match", director, `mutation { creerMatch(tournoi:"C1", match:"inconnu") { version } }`, nil,
			"NOT_FOUND", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.gql(tt.token, tt.query, tt.vars)
			require.NotEmpty(t, res.Errors, "a refusal")
			msg := res.Errors[0].Message
			assert.Equal(t, tt.code, res.code(), msg)
			assert.Contains(t, msg, tt.contient)
			assert.Empty(t, francais.Anglais(msg), msg)
			assert.False(t, strings.Contains(msg, tt.code) && tt.code != "", "the code stays in extensions: %s", msg)
			for k, v := range tt.ext {
				assert.Equal(t, v, res.Errors[0].Extensions[k], k)
			}
		})
	}
	stale := s.gql(director, `mutation { rejeter(partie:"T1-1", version:1) { version } }`, nil)
	assert.NotNil(t, stale.Errors[0].Extensions["version"], "CONFLICT carries the current version")

	// verifierCoup names the problem of a word not in the lexicon.
	var v struct {
		Probleme string
		Jouable  bool
	}
	s.gql(director, `query($g: [String!]!) { verifierCoup(position:{grille:$g, tirage:"ZEN"}, mot:"NZE", reference:"H8") { probleme jouable } }`,
		map[string]any{"g": grilleVide}).into(t, "verifierCoup", &v)
	assert.Equal(t, "INVALID_WORD", v.Probleme)
	assert.False(t, v.Jouable)
}
