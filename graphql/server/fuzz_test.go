package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/catalogue"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon"
	"arbitre/graphql"
	"arbitre/graphql/live"
	"arbitre/graphql/server"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// fuzzServer is the whole API (every resolver over a SQLite store, the
// read models kept by their pipeline) behind server.New, called in
// process, with a token per role.
type fuzzServer struct {
	handler http.Handler
	jetons  []string // anonymous, director, arbiter of T1 tables 1-4, commission of T1
}

func newFuzzServer(tb testing.TB) *fuzzServer {
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	dir := tb.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(tb, err)
	tb.Cleanup(func() { store.Close() })
	registry, err := catalogue.Registre()
	require.NoError(tb, err)
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\nNEZ\nZENS\nES\nSE\nNES\n"), "fuzz")
	require.NoError(tb, err)
	path := filepath.Join(dir, projection.FileName)
	db, err := projection.OpenDB(path)
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	readDB, err := projection.OpenReadDB(path)
	require.NoError(tb, err)
	tb.Cleanup(func() { readDB.Close() })
	runners, err := readmodels.Runners(ctx, db, registry, store)
	require.NoError(tb, err)
	projection.LireDans(runners, readDB)
	tokens := acces.NewRegistre()
	hub := live.NewHub()
	clock := eventstore.SystemClock
	resolver, err := graphql.NewResolver(graphql.Composants{Version: "fuzz", Lexicon: lex, Store: store, Registry: registry,
		Clock: clock, Head: store.LastPosition, Jetons: tokens, Hub: hub,
		Lectures: runners, Hasard: matchclassique.HasardFixe(1)})
	require.NoError(tb, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = pipeline.Run(ctx, store, append(runners, resolver.EnMemoire()...), pipeline.Config{}, nil)
	}()
	tb.Cleanup(func() { cancel(); <-done })
	// The fuzzer sends from one address as fast as it can: the rate limit
	// has tests of its own.
	limits := server.DefaultLimits
	limits.Rate = 0
	s := &fuzzServer{handler: server.New(server.Config{Resolver: resolver, Tokens: tokens, Now: clock.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: limits})}

	s.jetons = []string{""}
	for _, d := range []acces.Demande{
		{Role: acces.Directeur, Duree: time.Hour},
		{Role: acces.Arbitre, Tournoi: "T1", Tables: acces.Tables{Min: 1, Max: 4}, Duree: time.Hour},
		{Role: acces.Commission, Tournoi: "T1", Duree: time.Hour},
	} {
		secret, ev, err := resolver.Acces.Emettre(ctx, d, eventstore.Metadata{Actor: "fuzz"})
		require.NoError(tb, err)
		require.Eventually(tb, func() bool { return tokens.Existe(ev.ID) }, 5*time.Second, 5*time.Millisecond)
		s.jetons = append(s.jetons, secret)
	}
	// Something to read and act on: a duplicate game with a tirage open and
	// a classique tournament with its players.
	for _, q := range []string{
		`mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`,
		`mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L1", nom:"Un", table:1}) { version } }`,
		`mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L2", nom:"Deux", table:2}) { version } }`,
		`mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`,
		`mutation { tirer(partie:"T1-1") { version } }`,
		`mutation { ouvrirTournoiClassique(id:"C1", nom:"Classique", rondes:1) { version } }`,
		`mutation { inscrireClassique(tournoi:"C1", joueur:"P1", nom:"Un", cote:1500) { version } }`,
		`mutation { inscrireClassique(tournoi:"C1", joueur:"P2", nom:"Deux", cote:1400) { version } }`,
	} {
		body, err := json.Marshal(map[string]any{"query": q})
		require.NoError(tb, err)
		status, out := s.post(body, 1)
		require.Equal(tb, http.StatusOK, status, "%s", out)
		require.NotContains(tb, string(out), `"errors"`, q)
	}
	return s
}

// post sends one body as the role's token (taken modulo the roles).
func (s *fuzzServer) post(body []byte, role uint8) (int, []byte) {
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if jeton := s.jetons[int(role)%len(s.jetons)]; jeton != "" {
		req.Header.Set("Authorization", "Bearer "+jeton)
	}
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// requeteGraphQL is the shape of a GraphQL request over POST.
type requeteGraphQL struct {
	Query         string              `json:"query"`
	OperationName string              `json:"operationName"`
	Variables     map[string]any      `json:"variables"`
	Extensions    map[string]any      `json:"extensions"`
	Headers       map[string][]string `json:"headers"`
}

// bienFormee reports that a body starts with one JSON object of a GraphQL
// request's shape, read as the POST transport reads it (numbers kept as
// written, what follows the object ignored). The rest is malformed:
// truncated JSON, wrong types, batches, another JSON value.
func bienFormee(body []byte) bool {
	var first json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&first); err != nil || !bytes.HasPrefix(bytes.TrimSpace(first), []byte("{")) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.UseNumber()
	var r requeteGraphQL
	return dec.Decode(&r) == nil
}

// fuzzSeeds are real requests: every input type of the schema in
// variables (DemandeJeton, DepotAppelInput, DecisionInput, BulletinInput,
// SolutionEcriteInput, RaccordInput, JoueurInput, ConfigPartieInput,
// TableAmendeeInput, PositionInput) and the queries, each as a role that
// gets past @acces (0 anonymous, 1 director, 2 arbiter, 3 commission).
var fuzzSeeds = []struct {
	role  uint8
	query string
	vars  map[string]any
}{
	{1, `mutation($d: DemandeJeton!) { emettreJeton(demande:$d) { id role tournoi tables expire } }`,
		map[string]any{"d": map[string]any{"role": "ARBITER", "tournoi": "T1", "tables": "1-40", "heures": 4, "libelle": "table 1"}}},
	{1, `mutation($id: ID!) { revoquerJeton(id:$id, tournoi:"T1") }`, map[string]any{"id": "j-inconnu"}},
	{3, `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a, clientMutationId:"a1") { id statut historique { type } } }`,
		map[string]any{"a": map[string]any{"id": "A1", "tournoi": "T1", "partie": "T1-1", "coup": 1, "licence": "L1", "table": 1,
			"requerant": "Un", "qualite": "joueur", "motif": "bulletin égaré",
			"contestee": map[string]any{"paye": 0, "sanction": "zero", "raisons": []string{"absent"}},
			"demandee":  map[string]any{"paye": 24, "sanction": "none", "commission": true, "place": "H8", "scoreRenvoye": 24}}}},
	{3, `mutation { composerCommission(tournoi:"T1", appel:"A1", president:"M1", membres:["M1","M2","M3"]) { statut } }`, nil},
	{3, `mutation($d: DecisionInput) { deciderAppel(tournoi:"T1", appel:"A1", issue:amende, decision:$d, motivation:"vu", revision:2) { statut } }`,
		map[string]any{"d": map[string]any{"paye": 12, "sanction": "warning", "raisons": []string{"score"}}}},
	{3, `mutation { voter(tournoi:"T1", appel:"A1", membre:"M1", issue:accueilli) { statut } }`, nil},
	{2, `mutation($b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:"L1", bulletin:$b, version:5) { licence ecrit } }`,
		map[string]any{"b": map[string]any{"late": false, "discipline": 1, "solutions": []any{map[string]any{
			"word": "ZE(N)", "written": "v", "ref": "8H", "score": 24, "crossed": false,
			"raccord": []any{map[string]any{"letter": "E", "dr": 1, "dc": 0}}}}}}},
	{2, `mutation($d: DecisionInput, $m: String) { corrigerBulletin(partie:"T1-1", coup:1, licence:"L1", decision:$d, motif:$m) { decision { paye } } }`,
		map[string]any{"d": map[string]any{"paye": 24, "sanction": "none"}, "m": "lisible"}},
	{2, `mutation($d: DecisionInput) { contreArbitrer(partie:"T1-1", coup:1, licence:"L1", confirme:false, decision:$d, motif:"non") { licence } }`,
		map[string]any{"d": map[string]any{"paye": 0, "sanction": "zero"}}},
	{2, `mutation { renvoyerCommission(partie:"T1-1", coup:1, licence:"L2", motif:"illisible") { licence } }`, nil},
	{1, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j, clientMutationId:"i3") { joueurs { licence serie table } } }`,
		map[string]any{"j": map[string]any{"licence": "L3", "nom": "Trois", "club": "Vichy", "federation": "FRA", "serie": "A", "table": 3}}},
	{1, `mutation($c: ConfigPartieInput!) { creerPartie(tournoi:"T1", partie:"T1-2", config:$c) { config { formule variante mode } } }`,
		map[string]any{"c": map[string]any{"tempsParCoupSecondes": 120, "formule": "joker", "variante": "sept_sur_huit", "source": "directeur", "mode": "mort_subite"}}},
	{1, `mutation { tirer(partie:"T1-2", lettres:"ZENESAI") { tirage } rejeter(partie:"T1-1") { statut } }`, nil},
	{1, `mutation { retenirTop(partie:"T1-1", reference:"H8", mot:"ZEN") { statut } annulerCoup(partie:"T1-1", motif:erreur) { statut } }`, nil},
	{1, `mutation { ramasser(partie:"T1-1") { statut } interrompre(partie:"T1-1") { statut } reprendre(partie:"T1-1") { statut } eliminer(partie:"T1-1") { statut } arriveeEnRetard(partie:"T1-1", licence:"L9") { joueurs } }`, nil},
	{1, `mutation { sanctionDisciplinaire(partie:"T1-1", coup:1, licence:"L1", nature:avertissement, motif:"bavardage") { version } }`, nil},
	{1, `mutation { etablirTetesDeSerie(tournoi:"C1") { tetesDeSerie } proposerRonde(tournoi:"C1", methode:swiss, roiEviteRevanches:true) { proposition { methode } } }`, nil},
	{1, `mutation($t: [TableAmendeeInput!]!) { amenderRonde(tournoi:"C1", tables:$t, motif:"club") { version } publierRonde(tournoi:"C1") { publiees { tables { match } } } }`,
		map[string]any{"t": []any{map[string]any{"premier": "P2", "second": "P1"}}}},
	{1, `mutation { creerMatch(tournoi:"C1", match:"C1-R1-T1") { phase } enregistrerResultat(tournoi:"C1", match:"C1-R1-T1") { version } retirerJoueurClassique(tournoi:"C1", joueur:"P2", motif:"malade") { version } cloreTournoiClassique(tournoi:"C1") { clos } }`, nil},
	{2, `mutation($m: ID!) { tirerLettres(match:$m, joueur:"P1", lettres:"ZENESAI") { chevalets } placerMot(match:$m, joueur:"P1", reference:"H8", mot:"ZEN") { scores } passer(match:$m, joueur:"P2") { trait } echanger(match:$m, joueur:"P1", rejetees:"A", tirees:"E") { sac } contester(match:$m, joueur:"P2", mots:["ZEN"]) { scores } }`,
		map[string]any{"m": "C1-R1-T1"}},
	{2, `mutation($m: ID!) { cloturerMatch(match:$m, joueur:"P2") { phase } constaterBlocage(match:$m) { phase } declarerTempsEpuise(match:$m, joueur:"P1") { tempsEpuise } penaliser(match:$m, joueur:"P1", motif:lettres_en_trop, lettres:2) { scores } }`,
		map[string]any{"m": "C1-R1-T1"}},
	{2, `mutation($m: ID!, $s: [Int!]!) { demanderAbandon(match:$m, joueur:"P1") { phase } repondreAbandon(match:$m, joueur:"P2", accepte:false) { phase } constaterAbandon(match:$m, joueur:"P1") { phase } declarerDefaite(match:$m, joueur:"P1", huitLettres:true) { phase } declarerForfait(match:$m, joueur:"P2") { phase } signerFeuille(match:$m, joueur:"P1", scores:$s) { phase } trancherDesaccord(match:$m, scores:$s) { phase } }`,
		map[string]any{"m": "C1-R1-T1", "s": []int{450, 350}}},
	{0, `query($p: PositionInput!) { resoudre(position:$p, tous:3) { scoreTop coups tops { mot reference } tous { mot } } verifierCoup(position:$p, mot:"ZEN", reference:"H8") { probleme jouable score mots { mot valide } } }`,
		map[string]any{"p": map[string]any{"grille": strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n"), "tirage": "ZEN?", "formule": "normal"}}},
	{0, `{ serveur { version lexique { label mots } } moi { role } tournoi(id:"T1") { nom joueurs { licence } parties } partie(id:"T1-1") { statut grille tirage sac tops { mot } fin { motif } } }`, nil},
	{1, `{ partie(id:"T1-1") { solutions { mot score admissible } } bulletins(partie:"T1-1", coup:1) { licence decision { paye } decisionMoteur { paye } } }`, nil},
	{3, `{ appel(tournoi:"T1", id:"A1") { statut niveaux { votes { membre } } } replay(partie:"T1-1", coup:1) { grille bulletins { licence } journal { type } } }`, nil},
	{0, `query($a: String) { tournois(first: 2, after:$a) { edges { cursor node { id parties(first:1) { edges { node { id } } } } } pageInfo { endCursor hasNextPage } } }`,
		map[string]any{"a": "pas-un-curseur"}},
	{0, `{ joueur(id:"L1") { nom historique(first:1, after:"x") { edges { node { partie } } } cotes { avant } faceAFace(adversaire:"L2") { parties } } cotes { joueur } }`, nil},
	{0, `{ classement(partie:"T1-1") { rang licence score } c2: classement(tournoi:"T1", serie:"A") { rang } tournoiClassique(id:"C1") { inscrits { joueur } classement { rang } } matchClassique(id:"C1-R1-T1") { phase } gcg(match:"C1-R1-T1") }`, nil},
	{0, `subscription { coupAnnonce(partie:"T1-1") { statut } }`, nil},
	{0, `query Q($x: Int = 1) { __typename ...F } fragment F on Query { serveur { version } }`, nil},
}

// Malformed bodies: what item 13 of issue 11 answers with 400 and
// BAD_REQUEST.
var fuzzMalformes = []string{
	`{"query": "{ serveur { version } }"`,
	`[{"query": "{ serveur { version } }"}]`,
	`{"query": 5}`,
	`{"query": "{ serveur { version } }", "variables": "x"}`,
	`{"query": "{ serveur { version } }", "extensions": 3}`,
	`null`,
	``,
}

// FuzzGraphQLRequest sends arbitrary bodies to /graphql as each role: the
// server never panics nor answers 500; a well-formed request gets JSON
// with data or errors, every error with a code that is never INTERNAL; a
// malformed body gets 400 with a GraphQL error coded BAD_REQUEST.
func FuzzGraphQLRequest(f *testing.F) {
	for _, s := range fuzzSeeds {
		body, err := json.Marshal(map[string]any{"query": s.query, "variables": s.vars})
		require.NoError(f, err)
		f.Add(body, s.role)
	}
	for _, m := range fuzzMalformes {
		f.Add([]byte(m), uint8(1))
	}
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte, role uint8) {
		status, out := s.post(body, role)
		require.NotEqual(t, http.StatusInternalServerError, status, "%s", out)
		var res struct {
			Data   *json.RawMessage `json:"data"`
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		require.NoError(t, json.Unmarshal(out, &res), "a JSON answer (status %d): %s", status, out)
		require.True(t, res.Data != nil || len(res.Errors) > 0, "data or errors: %s", out)
		if !bienFormee(body) {
			require.Equal(t, http.StatusBadRequest, status, "a malformed body is a bad request: %s", out)
			require.NotEmpty(t, res.Errors, "%s", out)
			require.Equal(t, "BAD_REQUEST", res.Errors[0].Extensions["code"], "%s", out)
		}
		for _, e := range res.Errors {
			code, _ := e.Extensions["code"].(string)
			require.NotEmpty(t, code, "every error has a code: %s", out)
			require.NotEqual(t, "INTERNAL", code, "%s", out)
		}
	})
}
