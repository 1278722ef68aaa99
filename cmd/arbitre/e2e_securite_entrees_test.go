package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 11 item 9: a clientMutationId is a key of its token; under it only
// the same request (mutation and arguments) is a retry, answered with the
// state and stored once. Any other request with a used id is refused with
// IDEMPOTENCY_KEY_REUSED and stores nothing; another token's same id is
// another command.
func TestSecurite_IdempotenceClientMutationId(t *testing.T) {
	data := t.TempDir()
	d1 := apiToken(t, data, "--role", "director")
	d2 := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()

	require.Empty(t, s.gql(d1, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	type tournoi struct {
		Version int
		Joueurs []struct{ Licence string }
	}
	inscrire := `mutation($l: ID!, $id: String) { inscrireJoueur(tournoi:"T1", joueur:{licence:$l, nom:"Joueur", table:1}, clientMutationId:$id) { version joueurs { licence } } }`
	var first, again tournoi
	s.gql(d1, inscrire, map[string]any{"l": "L1", "id": "i-1"}).into(t, "inscrireJoueur", &first)
	s.gql(d1, inscrire, map[string]any{"l": "L1", "id": "i-1"}).into(t, "inscrireJoueur", &again)
	assert.Equal(t, first, again, "a retry answers the same state and stores nothing more")
	assert.Len(t, first.Joueurs, 1)

	ouvrir := `mutation($nom: String!) { ouvrirTournoiClassique(id:"C1", nom:$nom, rondes:3, clientMutationId:"o-1") { nom } }`
	require.Empty(t, s.gql(d1, ouvrir, map[string]any{"nom": "Open"}).Errors)
	require.Empty(t, s.gql(d1, ouvrir, map[string]any{"nom": "Open"}).Errors, "a retried creation is done")

	cases := []struct {
		name, token, query string
		vars               map[string]any
		code               string
	}{
		{"another player under a used id", d1, inscrire, map[string]any{"l": "L2", "id": "i-1"}, "IDEMPOTENCY_KEY_REUSED"},
		{"another name for a created tournament", d1, ouvrir, map[string]any{"nom": "Autre"}, "IDEMPOTENCY_KEY_REUSED"},
		{"another mutation under a used id", d1, `mutation { creerPartie(tournoi:"T1", partie:"P1", config:{}, clientMutationId:"i-1") { id } }`, nil, "IDEMPOTENCY_KEY_REUSED"},
		{"another token's key", d2, inscrire, map[string]any{"l": "L3", "id": "i-1"}, ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.code, s.gql(c.token, c.query, c.vars).code(), c.name)
	}
	var now tournoi
	s.gql("", `{ tournoi(id:"T1") { version joueurs { licence } } }`, nil).into(t, "tournoi", &now)
	assert.Equal(t, first.Version+1, now.Version, "only the other token's command was stored")
	assert.Equal(t, []struct{ Licence string }{{"L1"}, {"L3"}}, now.Joueurs)

	// A draw's id reused for a rejection or for other letters is refused:
	// the draw is not answered as their result.
	require.Empty(t, s.gql(d1, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { id } }`, nil).Errors)
	var p, apres apiPartie
	s.gql(d1, `mutation { tirer(partie:"T1-1", clientMutationId:"c-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	for name, query := range map[string]string{
		"rejeter with tirer's id":      `mutation { rejeter(partie:"T1-1", clientMutationId:"c-1") { version } }`,
		"tirer with other letters":     `mutation { tirer(partie:"T1-1", lettres:"EAIRSTU", clientMutationId:"c-1") { version } }`,
		"tirer at an explicit version": `mutation { tirer(partie:"T1-1", version: 1, clientMutationId:"c-1") { version } }`,
	} {
		res := s.gql(d1, query, nil)
		assert.Equal(t, "IDEMPOTENCY_KEY_REUSED", res.code(), name)
		if len(res.Errors) > 0 {
			assert.Equal(t, "clientMutationId déjà utilisé pour une autre requête", res.Errors[0].Message, name)
		}
	}
	// A key is bound to its request in the whole log, not only in the
	// stream the retry writes to: the tournament's key i-1 drives no draw.
	res := s.gql(d1, `mutation { rejeter(partie:"T1-1", clientMutationId:"i-1") { version } }`, nil)
	assert.Equal(t, "IDEMPOTENCY_KEY_REUSED", res.code(), "a key of another stream")
	s.gql(d1, `mutation { tirer(partie:"T1-1", clientMutationId:"c-1") { `+partieFields+` } }`, nil).into(t, "tirer", &apres)
	assert.Equal(t, p, apres, "the true retry still answers the draw, nothing else was stored")
}

// Issue 11 item 11: a duplicate tournament named "classique-X" no longer
// lands in classique tournament X's stream, an id of one kind of
// tournament is refused for the other, and the store verifies clean.
func TestSecurite_TournoiClassiqueEtDuplicateSepares(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)

	ouvrir := `mutation($id: ID!) { ouvrirTournoiClassique(id:$id, nom:"Open classique", rondes:3) { id } }`
	creer := `mutation($id: ID!) { creerTournoi(id:$id, nom:"Open duplicate", homologue: false) { id } }`
	require.Empty(t, s.gql(director, ouvrir, map[string]any{"id": "X"}).Errors)
	require.Empty(t, s.gql(director, creer, map[string]any{"id": "Y"}).Errors)
	cases := []struct {
		name, query, id, code string
	}{
		{"a duplicate tournament in the classique namespace", creer, "classique-X", "INVALID_TOURNAMENT"},
		{"a duplicate tournament in a free classique stream", creer, "classique-Z", "INVALID_TOURNAMENT"},
		{"which the classique tournament keeps", ouvrir, "Z", ""},
		{"a duplicate tournament with a classique tournament's id", creer, "X", "TOURNAMENT_ID_TAKEN"},
		{"a classique tournament with a duplicate tournament's id", ouvrir, "Y", "TOURNAMENT_ID_TAKEN"},
	}
	for _, c := range cases {
		assert.Equal(t, c.code, s.gql(director, c.query, map[string]any{"id": c.id}).code(), c.name)
	}
	var classique struct{ Nom string }
	s.gql("", `{ tournoiClassique(id:"X") { nom } }`, nil).into(t, "tournoiClassique", &classique)
	assert.Equal(t, "Open classique", classique.Nom, "the classique tournament reads as it was")
	s.stop()

	out, err := runArbitre(t, "store", "verify", "--data", data, "--store", "sqlite")
	require.NoError(t, err, out)
	assert.Contains(t, out, "résultat : OK")
}

// Issue 11 item 12: every argument has a bound, checked once for every
// field before any resolver runs: a refusal is INVALID_INPUT naming the
// argument, never repeats the input, and changes nothing; names are stored
// in NFC; a garbage cursor is «curseur invalide».
func TestSecurite_EntreesBornees(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)

	creer := `mutation($id: ID!, $nom: String!) { creerTournoi(id:$id, nom:$nom, homologue: false) { id } }`
	inscrire := `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`
	longNom := strings.Repeat("é", 201)
	cases := []struct {
		name, query string
		vars        map[string]any
		champ       string
	}{
		{"id of 65 characters", creer, map[string]any{"id": strings.Repeat("a", 65), "nom": "Open"}, "creerTournoi.id"},
		{"name of 201 characters", creer, map[string]any{"id": "T2", "nom": longNom}, "creerTournoi.nom"},
		{"control character in a name", creer, map[string]any{"id": "T2", "nom": "Open\u0007"}, "creerTournoi.nom"},
		{"line break in a name", creer, map[string]any{"id": "T2", "nom": "Open\nde Vichy"}, "creerTournoi.nom"},
		{"client id of 65 characters", `mutation($c: String) { creerTournoi(id:"T2", nom:"Open", clientMutationId:$c) { id } }`,
			map[string]any{"c": strings.Repeat("c", 65)}, "creerTournoi.clientMutationId"},
		{"text of 4001 characters", `mutation($m: String!) { renvoyerCommission(partie:"P", coup:1, licence:"L1", motif:$m) { licence } }`,
			map[string]any{"m": strings.Repeat("m", 4001)}, "renvoyerCommission.motif"},
		{"table 0", inscrire, map[string]any{"j": map[string]any{"licence": "L1", "nom": "Ana", "table": 0}}, "inscrireJoueur.joueur.table"},
		{"table 1001", inscrire, map[string]any{"j": map[string]any{"licence": "L1", "nom": "Ana", "table": 1001}}, "inscrireJoueur.joueur.table"},
		{"long licence in an input object", inscrire, map[string]any{"j": map[string]any{"licence": strings.Repeat("1", 65), "nom": "Ana"}}, "inscrireJoueur.joueur.licence"},
		{"negative version", `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L1", nom:"Ana"}, version: -1) { version } }`, nil, "inscrireJoueur.version"},
		{"no round", `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open", rondes: 0) { id } }`, nil, "ouvrirTournoiClassique.rondes"},
		{"a thousand rounds", `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open", rondes: 1000) { id } }`, nil, "ouvrirTournoiClassique.rondes"},
		{"negative cote", `mutation { inscrireClassique(tournoi:"C1", joueur:"J", nom:"Ana", cote: -5) { id } }`, nil, "inscrireClassique.cote"},
		{"thinking time of a day", `mutation { creerPartie(tournoi:"T1", partie:"P1", config:{tempsParCoupSecondes: 86400}) { id } }`, nil, "creerPartie.config.tempsParCoupSecondes"},
		{"a token for a year", `mutation { emettreJeton(demande:{role: ARBITER, heures: 8760}) { id } }`, nil, "emettreJeton.demande.heures"},
		{"coup 0", `{ bulletins(partie:"P1", coup: 0) { licence } }`, nil, "bulletins.coup"},
		{"page of 1000", `{ tournois(first: 1000) { pageInfo { hasNextPage } } }`, nil, "tournois.first"},
	}
	for _, c := range cases {
		res := s.gql(director, c.query, c.vars)
		require.Equal(t, "INVALID_INPUT", res.code(), c.name)
		assert.Equal(t, c.champ, res.Errors[0].Extensions["champ"], c.name)
		assert.NotContains(t, res.Errors[0].Message, strings.Repeat("é", 33), c.name)
	}
	var tournoi struct{ Version int }
	s.gql("", `{ tournoi(id:"T1") { version } }`, nil).into(t, "tournoi", &tournoi)
	assert.Equal(t, 1, tournoi.Version, "no refused command wrote anything")
	assert.JSONEq(t, "null", string(s.gql("", `{ tournoiClassique(id:"C1") { id } }`, nil).Data["tournoiClassique"]), "nor opened a tournament")

	// Names are stored in NFC: "E" + combining acute is "É".
	var cree struct{ Nom string }
	s.gql(director, `mutation($nom: String!) { creerTournoi(id:"T3", nom:$nom, homologue: false) { nom } }`, map[string]any{"nom": "E\u0301te\u0301 de Vichy"}).into(t, "creerTournoi", &cree)
	assert.Equal(t, "\u00c9t\u00e9 de Vichy", cree.Nom)

	// A garbage cursor says so, without Go's internals.
	for _, after := range []string{"%%%", "bm90IGEgbnVtYmVy", strings.Repeat("x", 300)} {
		res := s.gql("", `query($a: String) { tournois(after:$a) { pageInfo { hasNextPage } } }`, map[string]any{"a": after})
		require.Equal(t, "INVALID_INPUT", res.code(), after)
		assert.Equal(t, "curseur invalide", res.Errors[0].Message)
	}

	// An error repeats at most 32 characters of an input.
	long := strings.Repeat("z", 64)
	res := s.gql(director, `mutation($id: ID!) { rejeter(partie:$id) { version } }`, map[string]any{"id": long})
	require.Equal(t, "NOT_FOUND", res.code())
	assert.NotContains(t, res.Errors[0].Message, long[:33])
	assert.Contains(t, res.Errors[0].Message, long[:32]+"…")
	for _, query := range []string{`{ ` + long + ` }`, `{ tournois(first:"` + long + `") { pageInfo { hasNextPage } } }`} {
		res := s.gql("", query, nil)
		require.NotEmpty(t, res.Errors)
		assert.NotContains(t, res.Errors[0].Message, long[:33], "nor does the request's validation")
	}
}

// Issue 26 item 8: `creerPartie(config: {source: "DIRECTEUR"})` in the
// variables created a game drawn by the software, and `deposerAppel(appel:
// {qualite: "ARBITRE"})` answered about the appellant instead of the value:
// gqlparser lets a variable's enum value through whatever its case, and
// the generated code mapped it to the empty value. Every value the schema
// does not list is now refused with INVALID_INPUT, naming the field and the
// values allowed, as a variable or a literal, and nothing is written.
func TestSecurite_EnumInconnuRefuse(t *testing.T) {
	s, director, arbiter := salleT1(t, 2)
	creer := `mutation($c: ConfigPartieInput!) { creerPartie(tournoi:"T1", partie:"T1-1", config:$c) { id } }`
	cases := []struct {
		name, token, query string
		vars               map[string]any
		champ              string
		permises           string
	}{
		{"input field in the variables", director, creer, map[string]any{"c": map[string]any{"source": "DIRECTEUR"}}, "$c.source", "logiciel, directeur, pretiree"},
		{"another input field in the variables", director, creer, map[string]any{"c": map[string]any{"mode": "Normal"}}, "$c.mode", "normal"},
		{"a literal", director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: DIRECTEUR}) { id } }`, nil, "SourceTirage", "logiciel, directeur, pretiree"},
		{"an appeal's qualite in the variables", arbiter, `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id } }`,
			map[string]any{"a": map[string]any{"id": "A1", "tournoi": "T1", "partie": "T1-1", "coup": 1, "licence": "L1", "table": 1,
				"requerant": "Joueur 1", "qualite": "ARBITRE", "motif": "m", "demandee": map[string]any{"paye": 0, "sanction": "none"}}},
			"$a.qualite", "joueur"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := s.gql(tc.token, tc.query, tc.vars)
			require.Len(t, res.Errors, 1, "%+v", res)
			assert.Equal(t, "INVALID_INPUT", res.code())
			assert.Equal(t, tc.champ, res.Errors[0].Extensions["champ"])
			assert.Contains(t, res.Errors[0].Message, "valeurs permises : "+tc.permises)
		})
	}
	var partie *struct{ ID string }
	s.gql(director, `{ partie(id:"T1-1") { id } }`, nil).into(t, "partie", &partie)
	assert.Nil(t, partie, "no game was created")
	var creee struct{ Config struct{ Source string } }
	s.gql(director, `mutation($c: ConfigPartieInput!) { creerPartie(tournoi:"T1", partie:"T1-1", config:$c) { config { source } } }`,
		map[string]any{"c": map[string]any{"source": "directeur"}}).into(t, "creerPartie", &creee)
	assert.Equal(t, "directeur", creee.Config.Source, "the listed value is taken as is")
}
