package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 12 item 7: subscriptions are named in French like the other fields;
// the English names stay for one release, deprecated, and deliver the same
// state as their French successors.
func TestNoms_AbonnementsEnFrancais(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()

	exiger := func(query string, vars map[string]any) {
		t.Helper()
		res := s.gql(director, query, vars)
		require.Empty(t, res.Errors, "%s: %+v", query, res.Errors)
	}
	exiger(`mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil)
	for _, l := range []string{"L1", "L2"} {
		exiger(`mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": l, "nom": "Joueur " + l, "table": 1}})
	}
	exiger(`mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7, variante: normal}) { id } }`, nil)
	exiger(`mutation { ouvrirTournoiClassique(id:"C1", nom:"Open classique", rondes:1) { version } }`, nil)
	for _, j := range []string{"P1", "P2"} {
		exiger(`mutation($j: ID!) { inscrireClassique(tournoi:"C1", joueur:$j, nom:"Joueur", cote:1500) { version } }`, map[string]any{"j": j})
	}
	exiger(`mutation { etablirTetesDeSerie(tournoi:"C1") { version } }`, nil)
	exiger(`mutation { proposerRonde(tournoi:"C1", methode:initial_by_cote) { version } }`, nil)
	var tr apiTournoiClassique
	s.gql(director, `mutation { publierRonde(tournoi:"C1") { `+tournoiClassiqueFields+` } }`, nil).into(t, "publierRonde", &tr)
	require.Len(t, tr.Publiees, 1)
	require.NotEmpty(t, tr.Publiees[0].Tables)
	match := *tr.Publiees[0].Tables[0].Match
	exiger(`mutation($m: ID!) { creerMatch(tournoi:"C1", match:$m) { id } }`, map[string]any{"m": match})

	for _, tt := range []struct {
		francais, ancien, args, selection string
		vars                              map[string]any
	}{
		{"coupAnnonce", "coupAnnounced", `(partie:"T1-1")`, `{ statut version config { variante } }`, nil},
		{"classementChange", "standingsChanged", `(partie:"T1-1")`, `{ licence rang score }`, nil},
		{"rondeChangee", "rondeChanged", `(tournoi:"C1")`, `{ version publiees { ronde tables { match } } }`, nil},
		{"matchChange", "matchChanged", `(match:$m)`, `{ version phase designation }`, map[string]any{"m": match}},
	} {
		t.Run(tt.francais, func(t *testing.T) {
			decl := ""
			if tt.vars != nil {
				decl = "($m: ID!)"
			}
			var nouveau, ancien json.RawMessage
			s.subscribe("", "subscription"+decl+" { "+tt.francais+tt.args+" "+tt.selection+" }", tt.vars).next(t, tt.francais, &nouveau)
			s.subscribe("", "subscription"+decl+" { "+tt.ancien+tt.args+" "+tt.selection+" }", tt.vars).next(t, tt.ancien, &ancien)
			assert.NotEqual(t, "null", string(nouveau))
			assert.JSONEq(t, string(nouveau), string(ancien), "the deprecated %s delivers what %s does", tt.ancien, tt.francais)
		})
	}
}

// Issue 12 item 1: the game's settings are enums; their values travel
// unchanged where GraphQL allows it (normale, mort_subite...), the variants
// whose names are not GraphQL names get one (7sur8 → sept_sur_huit), and a
// value outside the set is refused before anything is recorded.
func TestTypes_ConfigPartieEnEnums(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	for _, l := range []string{"L1", "L2"} {
		require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": l, "nom": "Joueur " + l}}).Errors)
	}

	type config struct{ Formule, Variante, Source, Mode string }
	var p struct {
		Statut string
		Config config
	}
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{formule: joker, variante: sept_sur_huit, source: directeur, mode: mort_subite}) {
		statut config { formule variante source mode } } }`, nil).into(t, "creerPartie", &p)
	assert.Equal(t, "attente_tirage", p.Statut)
	assert.Equal(t, config{"joker", "sept_sur_huit", "directeur", "mort_subite"}, p.Config)

	for _, tt := range []struct{ name, query string }{
		{"a string where an enum is expected", `mutation { creerPartie(tournoi:"T1", partie:"T1-2", config:{variante: "7sur8"}) { id } }`},
		{"a formula where a variant is expected", `mutation { creerPartie(tournoi:"T1", partie:"T1-2", config:{variante: normale}) { id } }`},
	} {
		assert.Equal(t, codeHorsEnum, s.gql(director, tt.query, nil).code(), tt.name)
	}
	res := s.gql(director, `mutation($c: ConfigPartieInput!) { creerPartie(tournoi:"T1", partie:"T1-2", config:$c) { id } }`,
		map[string]any{"c": map[string]any{"variante": "7sur8"}})
	assert.Equal(t, codeHorsEnum, res.code())
	res = s.gql("", `{ partie(id:"T1-2") { id } }`, nil)
	require.Empty(t, res.Errors)
	assert.JSONEq(t, "null", string(res.Data["partie"]), "a refused creerPartie records nothing")
}
