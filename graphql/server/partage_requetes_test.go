package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"arbitre/domain/acces"
	"arbitre/graphql"
	"arbitre/graphql/generated"
)

// schemaCompteur is the real schema (validation, complexity, depth) whose
// execution is replaced by one that counts itself and answers with its
// number and the data's state: two callers with the same bytes were
// answered by one execution.
type schemaCompteur struct {
	gql.ExecutableSchema
	executions atomic.Int32
	// etat is the data's state (the log's head); etatInconnu makes it
	// unreadable (a projection behind).
	etat        atomic.Uint64
	etatInconnu atomic.Bool
	lectures    atomic.Int32
	// bloque, when set, holds every execution until it is closed.
	bloque chan struct{}
}

func (s *schemaCompteur) Exec(ctx context.Context) gql.ResponseHandler {
	oc := gql.GetOperationContext(ctx)
	premier := true
	return func(ctx context.Context) *gql.Response {
		if !premier {
			return nil
		}
		premier = false
		n := s.executions.Add(1)
		if s.bloque != nil {
			select {
			case <-s.bloque:
			case <-ctx.Done():
				gql.AddError(ctx, ctx.Err())
				return &gql.Response{Data: []byte(`null`)}
			}
		}
		if p, _ := oc.Variables["p"].(string); p == "inconnue" {
			gql.AddError(ctx, &gqlerror.Error{Message: "la partie inconnue n'existe pas", Extensions: map[string]any{"code": "NOT_FOUND"}})
			return &gql.Response{Data: []byte(`null`)}
		}
		data := fmt.Appendf(nil, `{"execution":%d,"etat":%d`, n, s.etat.Load())
		if taille, _ := oc.Variables["taille"].(int); taille > len(data)+8 {
			// An answer of taille bytes (a caller's variable in the direct
			// tests below, which no validation sees).
			data = fmt.Appendf(data, `,"r":"%s"`, strings.Repeat("a", taille-len(data)-8))
		}
		return &gql.Response{Data: append(data, '}')}
	}
}

func (s *schemaCompteur) lireEtat(context.Context) (uint64, bool) {
	s.lectures.Add(1)
	return s.etat.Load(), !s.etatInconnu.Load()
}

// salle is a real server (middlewares, gqlgen's handler, the rate limit)
// over a schemaCompteur.
type salle struct {
	t      *testing.T
	url    string
	schema *schemaCompteur
}

func nouvelleSalle(t *testing.T, limites Limits) *salle {
	sc := &schemaCompteur{ExecutableSchema: generated.NewExecutableSchema(generated.Config{
		Resolvers: &graphql.Resolver{Version: "test"}, Directives: generated.DirectiveRoot{Acces: graphql.AccesDirective},
		Complexity: graphql.Complexity(),
	})}
	e := nouveau(Config{Resolver: &graphql.Resolver{Version: "test"}, Tokens: acces.NewRegistre(), Now: time.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: limites}, sc, sc.lireEtat)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &salle{t: t, url: srv.URL, schema: sc}
}

// sansLimite are the default limits without the rate limit.
var sansLimite = func() Limits { l := DefaultLimits; l.Rate = 0; return l }()

const (
	docClassement = `query Classement($p: ID) { classement(partie: $p) { rang nom score } }`
	docCumul      = `query Classement($t: ID) { classement(tournoi: $t) { rang nom score } }`
)

// poster sends one query over HTTP POST from client and returns the
// status and body.
func (s *salle) poster(client *http.Client, doc, operation string, vars map[string]any) (int, []byte) {
	s.t.Helper()
	corps, err := json.Marshal(map[string]any{"query": doc, "operationName": operation, "variables": vars})
	require.NoError(s.t, err)
	resp, err := client.Post(s.url+"/graphql", "application/json", bytes.NewReader(corps))
	require.NoError(s.t, err)
	defer resp.Body.Close()
	lu, err := io.ReadAll(resp.Body)
	require.NoError(s.t, err)
	return resp.StatusCode, lu
}

func (s *salle) demander(doc string, vars map[string]any) []byte {
	s.t.Helper()
	statut, corps := s.poster(http.DefaultClient, doc, "", vars)
	require.Equal(s.t, http.StatusOK, statut, string(corps))
	return corps
}

// Issue 17: 200 standings queries a second from a hall are one execution
// while the data stays the same; the callers arriving while it runs wait
// for it, and every one is sent the same bytes.
func TestClassementRequete_UneExecutionPourTousLesAppelants(t *testing.T) {
	s := nouvelleSalle(t, sansLimite)
	s.schema.bloque = make(chan struct{})
	s.schema.etat.Store(41)
	const appelants = 200
	corps := make([][]byte, appelants)
	var wg sync.WaitGroup
	for i := range appelants {
		wg.Go(func() {
			statut, c := s.poster(http.DefaultClient, docClassement, "", map[string]any{"p": "sim-1-1"})
			assert.Equal(t, http.StatusOK, statut)
			corps[i] = c
		})
	}
	// Every caller has read the state: all but one wait for the one
	// execution, which is still running.
	require.Eventually(t, func() bool { return s.schema.lectures.Load() == appelants }, 10*time.Second, time.Millisecond)
	close(s.schema.bloque)
	wg.Wait()
	assert.EqualValues(t, 1, s.schema.executions.Load(), "one execution for every caller")
	for i, c := range corps {
		require.Equal(t, `{"data":{"execution":1,"etat":41}}`, string(c), "caller %d", i)
	}
	// Later callers that see the same state are answered without executing.
	assert.Equal(t, corps[0], s.demander(docClassement, map[string]any{"p": "sim-1-1"}))
	assert.EqualValues(t, 1, s.schema.executions.Load())
}

// An answer is never stale: a new event (the head moves) means a new
// execution, and the next callers get its fresh answer.
func TestClassementRequete_NouvelEvenementNouvelleExecution(t *testing.T) {
	s := nouvelleSalle(t, sansLimite)
	vars := map[string]any{"p": "sim-1-1"}
	s.schema.etat.Store(7)
	assert.Equal(t, `{"data":{"execution":1,"etat":7}}`, string(s.demander(docClassement, vars)))
	assert.Equal(t, `{"data":{"execution":1,"etat":7}}`, string(s.demander(docClassement, vars)))
	s.schema.etat.Store(8) // a bulletin was stored
	assert.Equal(t, `{"data":{"execution":2,"etat":8}}`, string(s.demander(docClassement, vars)))
	assert.Equal(t, `{"data":{"execution":2,"etat":8}}`, string(s.demander(docClassement, vars)))
	// A projection that cannot vouch for the head shares nothing: each
	// caller executes (and its resolver waits for the head on its own).
	s.schema.etatInconnu.Store(true)
	assert.Equal(t, `{"data":{"execution":3,"etat":8}}`, string(s.demander(docClassement, vars)))
	assert.Equal(t, `{"data":{"execution":4,"etat":8}}`, string(s.demander(docClassement, vars)))
	s.schema.etatInconnu.Store(false)
	assert.Equal(t, `{"data":{"execution":2,"etat":8}}`, string(s.demander(docClassement, vars)), "the answer for 8 still stands")
}

// Only the same document, operation and variables share an answer, and
// only a query whose every top-level field is public standings: any other
// field (a token's moi, __typename), a mutation or introspection runs for
// each caller.
func TestClassementRequete_PartageSelonLaRequete(t *testing.T) {
	cas := []struct {
		nom         string
		doc, autre  string
		op, op2     string
		vars, vars2 map[string]any
		executions  int32
	}{
		{nom: "même requête", doc: docClassement, autre: docClassement,
			vars: map[string]any{"p": "sim-1-1"}, vars2: map[string]any{"p": "sim-1-1"}, executions: 1},
		{nom: "deux champs publics", doc: `query($p: ID, $e: ID!) { classement(partie: $p) { rang } classementNational(epreuve: $e) { nom } }`,
			vars: map[string]any{"p": "sim-1-1", "e": "n"}, vars2: map[string]any{"e": "n", "p": "sim-1-1"}, executions: 1},
		{nom: "autres variables", doc: docClassement, autre: docClassement,
			vars: map[string]any{"p": "sim-1-1"}, vars2: map[string]any{"p": "sim-1-2"}, executions: 2},
		{nom: "autre document", doc: docClassement, autre: docCumul,
			vars: map[string]any{"p": "sim-1"}, vars2: map[string]any{"t": "sim-1"}, executions: 2},
		{nom: "autre opération", doc: `query A($p: ID) { classement(partie: $p) { rang } } query B($p: ID) { classement(partie: $p) { nom } }`,
			op: "A", op2: "B", vars: map[string]any{"p": "sim-1-1"}, executions: 2},
		{nom: "champ privé mêlé", doc: `query($p: ID) { classement(partie: $p) { rang } moi { role } }`,
			vars: map[string]any{"p": "sim-1-1"}, executions: 2},
		{nom: "__typename mêlé", doc: `query($p: ID) { __typename classement(partie: $p) { rang } }`,
			vars: map[string]any{"p": "sim-1-1"}, executions: 2},
		{nom: "fragment à la racine", doc: `query($p: ID) { ... on Query { classement(partie: $p) { rang } } }`,
			vars: map[string]any{"p": "sim-1-1"}, executions: 2},
		{nom: "autre requête publique non partagée", doc: `{ serveur { version } }`, executions: 2},
		{nom: "introspection", doc: `{ __schema { queryType { name } } }`, executions: 2},
		{nom: "mutation", doc: `mutation { revoquerJeton(id: "x") }`, executions: 2},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			s := nouvelleSalle(t, sansLimite)
			autre, vars2 := c.autre, c.vars2
			if autre == "" {
				autre, vars2 = c.doc, c.vars
			}
			statut, un := s.poster(http.DefaultClient, c.doc, c.op, c.vars)
			require.Equal(t, http.StatusOK, statut, string(un))
			statut, deux := s.poster(http.DefaultClient, autre, c.op2, vars2)
			require.Equal(t, http.StatusOK, statut, string(deux))
			assert.Equal(t, c.executions, s.schema.executions.Load())
			if c.executions == 2 {
				assert.NotEqual(t, un, deux)
			}
		})
	}
}

// An error is its caller's own: never kept, never sent to another; the
// next caller executes again.
func TestClassementRequete_ErreurJamaisPartagee(t *testing.T) {
	s := nouvelleSalle(t, sansLimite)
	s.schema.bloque = make(chan struct{})
	const appelants = 5
	var wg sync.WaitGroup
	for range appelants {
		wg.Go(func() {
			statut, c := s.poster(http.DefaultClient, docClassement, "", map[string]any{"p": "inconnue"})
			assert.Equal(t, http.StatusOK, statut)
			var r struct {
				Data   any
				Errors []struct {
					Message    string
					Extensions map[string]any
				}
			}
			require.NoError(t, json.Unmarshal(c, &r), string(c))
			assert.Nil(t, r.Data)
			require.Len(t, r.Errors, 1, string(c))
			assert.Equal(t, "la partie inconnue n'existe pas", r.Errors[0].Message)
			assert.Equal(t, "NOT_FOUND", r.Errors[0].Extensions["code"])
		})
	}
	require.Eventually(t, func() bool { return s.schema.lectures.Load() == appelants }, 10*time.Second, time.Millisecond)
	close(s.schema.bloque)
	wg.Wait()
	assert.EqualValues(t, appelants, s.schema.executions.Load(), "each caller's error comes from its own execution")
	s.demander(docClassement, map[string]any{"p": "inconnue"})
	assert.EqualValues(t, appelants+1, s.schema.executions.Load(), "nothing kept")
}

// The rate limit stays each caller's own: one over its allowance is
// refused alone, the others still get the shared answer.
func TestClassementRequete_DebitRefuseAChacun(t *testing.T) {
	limites := DefaultLimits
	limites.Rate, limites.Burst = 0.001, 2
	s := nouvelleSalle(t, limites)
	// Two callers: two loopback addresses.
	depuis := func(ip string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	bavard, sage := depuis("127.0.0.1"), depuis("127.0.0.2")
	vars := map[string]any{"p": "sim-1-1"}
	for range 2 {
		statut, c := s.poster(bavard, docClassement, "", vars)
		require.Equal(t, http.StatusOK, statut, string(c))
	}
	statut, c := s.poster(bavard, docClassement, "", vars)
	assert.Equal(t, http.StatusTooManyRequests, statut)
	assert.Contains(t, string(c), codeRateLimited)
	statut, c = s.poster(sage, docClassement, "", vars)
	assert.Equal(t, http.StatusOK, statut)
	assert.Equal(t, `{"data":{"execution":1,"etat":0}}`, string(c))
	assert.EqualValues(t, 1, s.schema.executions.Load())
}

// A caller that leaves while it executes for the others (its connection
// closed) shares its failure with nobody: one of those waiting executes
// again for all.
func TestClassementRequete_MeneurParti(t *testing.T) {
	sc := &schemaCompteur{bloque: make(chan struct{})}
	s := newSchemaPartage(sc, gql.DefaultErrorPresenter, gql.DefaultRecover)
	s.etat = sc.lireEtat
	demander := func(ctx context.Context) *gql.Response {
		return executerPartage(ctx, t, s, map[string]any{"p": "sim-1-1"})
	}
	ctx, partir := context.WithCancel(context.Background())
	meneur := make(chan *gql.Response)
	go func() { meneur <- demander(ctx) }()
	require.Eventually(t, func() bool { return sc.executions.Load() == 1 }, 5*time.Second, time.Millisecond)
	reponses := make(chan *gql.Response, 3)
	for range 3 {
		go func() { reponses <- demander(context.Background()) }()
	}
	require.Eventually(t, func() bool { return sc.lectures.Load() == 4 }, 5*time.Second, time.Millisecond)
	// The leader's execution fails with its caller gone; the next one,
	// by one of those waiting, answers them all.
	partir()
	r := <-meneur
	require.NotNil(t, r)
	assert.NotEmpty(t, r.Errors)
	require.Eventually(t, func() bool { return sc.executions.Load() == 2 }, 5*time.Second, time.Millisecond)
	close(sc.bloque)
	for range 3 {
		r := <-reponses
		require.NotNil(t, r)
		assert.Empty(t, r.Errors)
		assert.Equal(t, `{"execution":2,"etat":0}`, string(r.Data))
	}
	assert.EqualValues(t, 2, sc.executions.Load())
}

// executerPartage runs docClassement with vars through s, as gqlgen's
// executor does once the operation is validated, and returns its first
// response with the errors of its response context.
func executerPartage(ctx context.Context, t *testing.T, s *schemaPartage, vars map[string]any) *gql.Response {
	oc := &gql.OperationContext{RawQuery: docClassement, Variables: vars, Operation: operation(t, docClassement)}
	ctx = gql.WithResponseContext(gql.WithOperationContext(ctx, oc), gql.DefaultErrorPresenter, gql.DefaultRecover)
	r := s.Exec(ctx)(ctx)
	if r != nil {
		r.Errors = append(r.Errors, gql.GetErrors(ctx)...)
	}
	return r
}

// TestSecurite_ReponsesPartageesBorneesEnOctets: what anonymous callers
// make the server keep of the public queries' answers is bounded in
// entries and in bytes, whatever they ask — many distinct variables,
// huge variables, huge answers (100 aliases of a 2,000-player cumul are
// 36 MB) — and the hall's standings are still shared after the flood.
func TestSecurite_ReponsesPartageesBorneesEnOctets(t *testing.T) {
	sc := &schemaCompteur{}
	s := newSchemaPartage(sc, gql.DefaultErrorPresenter, gql.DefaultRecover)
	s.etat = sc.lireEtat
	ctx := context.Background()
	demander := func(vars map[string]any) []byte {
		r := executerPartage(ctx, t, s, vars)
		require.NotNil(t, r)
		require.Empty(t, r.Errors)
		return r.Data
	}
	garde := func() (entrees, octets int) {
		s.requetes.mu.Lock()
		defer s.requetes.mu.Unlock()
		for cle, p := range s.requetes.parCle {
			octets += len(cle) + len(p.data)
		}
		return len(s.requetes.parCle), octets
	}
	executions := func(vars map[string]any) int32 {
		avant := sc.executions.Load()
		demander(vars)
		demander(vars)
		return sc.executions.Load() - avant
	}

	// Many distinct variables.
	for i := range 1000 {
		demander(map[string]any{"p": fmt.Sprint("v-", i)})
	}
	entrees, _ := garde()
	assert.LessOrEqual(t, entrees, maxRequetesGardees)

	// Large answers under as many keys as may be kept.
	const mo = 1 << 20
	for i := range maxRequetesGardees {
		require.Len(t, demander(map[string]any{"p": fmt.Sprint("grand-", i), "taille": mo}), mo)
	}
	entrees, octets := garde()
	assert.LessOrEqual(t, entrees, maxRequetesGardees)
	assert.LessOrEqual(t, octets, maxOctetsGardes, "bytes kept")

	// One answer over the bound per answer: sent whole, never kept.
	enorme := map[string]any{"p": "enorme", "taille": maxOctetsReponse + 1}
	assert.Len(t, demander(enorme), maxOctetsReponse+1)
	assert.EqualValues(t, 2, executions(enorme), "an answer over the bound is executed for each caller")

	// Huge variables: a key over maxCleRequete runs for its caller alone.
	assert.EqualValues(t, 2, executions(map[string]any{"p": strings.Repeat("x", maxCleRequete)}))

	// The hall's standings are still shared.
	assert.EqualValues(t, 1, executions(map[string]any{"p": "sim-1-1"}))
	_, octets = garde()
	assert.LessOrEqual(t, octets, maxOctetsGardes, "bytes kept")
}

// operation parses doc's one operation.
func operation(t *testing.T, doc string) *ast.OperationDefinition {
	t.Helper()
	d, err := parser.ParseQuery(&ast.Source{Input: doc})
	require.NoError(t, err)
	require.Len(t, d.Operations, 1)
	return d.Operations[0]
}

// The answers written without json.Marshal are its very bytes; those it
// would change (HTML escaping) or that carry more go through it.
func TestClassementRequete_ReponseDirecteIdentiqueAJSONMarshal(t *testing.T) {
	vrai := true
	cas := []struct {
		nom    string
		r      *gql.Response
		direct bool
	}{
		{"données", &gql.Response{Data: []byte(`{"classement":[{"rang":1,"nom":"Élodie \"la\" Ouvrard","score":-3.5e2,"club":null}]}`)}, true},
		{"données nulles", &gql.Response{}, true},
		{"données vides", &gql.Response{Data: []byte{}}, false},
		{"erreurs", &gql.Response{Data: []byte(`null`), Errors: gqlerror.List{{Message: "la partie <x> & \u2028 n'existe pas",
			Path: ast.Path{ast.PathName("classement"), ast.PathIndex(0)}, Extensions: map[string]any{"code": "NOT_FOUND", "z": 1, "a": []int{2}}}}}, true},
		{"extensions", &gql.Response{Data: []byte(`{"a":1}`), Extensions: map[string]any{"complexite": 12, "b": "<"}}, true},
		{"HTML dans les données", &gql.Response{Data: []byte(`{"club":"Paris & Co <1>"}`)}, false},
		{"U+2028 dans les données", &gql.Response{Data: []byte("{\"nom\":\"a\u2028b\u2029\"}")}, false},
		{"@defer", &gql.Response{Data: []byte(`{"a":1}`), HasNext: &vrai, Label: "l"}, false},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			b, ok := ajouterDirect(nil, c.r)
			require.Equal(t, c.direct, ok)
			if ok {
				attendu, err := json.Marshal(c.r)
				require.NoError(t, err)
				assert.Equal(t, string(attendu), string(b))
			}
		})
	}
}

// A large answer shared by every caller is read once for the characters
// json.Marshal would escape (issue 34 item 2: 690 KB 500 times a second);
// another answer of the same size is read again.
func TestClassementRequete_ReponsePartageeLueUneFois(t *testing.T) {
	propre := []byte(`{"l":"` + strings.Repeat("a", 70<<10) + `"}`)
	for range 2 {
		b, ok := ajouterDirect(nil, &gql.Response{Data: propre})
		require.True(t, ok)
		assert.Equal(t, `{"data":`+string(propre)+`}`, string(b))
	}
	html := bytes.Clone(propre)
	html[len(html)-3] = '<'
	_, ok := ajouterDirect(nil, &gql.Response{Data: html})
	assert.False(t, ok, "the same size, other bytes: read again")
}

// TestIssue34_ClassementEtCumulLusUneFoisChacun: a hall asks for a game's
// standings and the tournament's cumul in turn; each shared answer is
// read once for the characters json.Marshal would escape, not once per
// request because the other came in between.
func TestIssue34_ClassementEtCumulLusUneFoisChacun(t *testing.T) {
	partie := []byte(`{"l":"` + strings.Repeat("a", 70<<10) + `"}`)
	cumul := []byte(`{"l":"` + strings.Repeat("b", 80<<10) + `"}`)
	for range 2 {
		for _, d := range [][]byte{partie, cumul} {
			b, ok := ajouterDirect(nil, &gql.Response{Data: d})
			require.True(t, ok)
			assert.Equal(t, `{"data":`+string(d)+`}`, string(b))
		}
	}
	// A byte changed behind the memo's back (which the shared answers,
	// read only, never are) shows whether an answer was read again.
	partie[10], cumul[10] = '<', '<'
	for nom, d := range map[string][]byte{"partie": partie, "cumul": cumul} {
		_, ok := ajouterDirect(nil, &gql.Response{Data: d})
		assert.True(t, ok, "%s read again", nom)
	}
}

// BenchmarkIssue34_ClassementParRequeteEcrit: what the server spends on
// writing one of a hall's standings queries once the answer is shared:
// a game's standings and the tournament's cumul of 2,000 lines in turn.
func BenchmarkIssue34_ClassementParRequeteEcrit(b *testing.B) {
	ligne := `{"rang":%d,"licence":"L%05d","nom":"Joueur %05d","club":"Club %d","serie":null,"score":%d,"top":1500,"negatif":-100,"pourcentage":93.33,"solos":0,"avertissements":0,"penalites":0,"enAttente":0}`
	var reponses [2]*gql.Response
	for k := range reponses {
		lignes := make([]string, 2000)
		for i := range lignes {
			lignes[i] = fmt.Sprintf(ligne, i+1, i, i, i%97, 300*k+1400-i/3)
		}
		reponses[k] = &gql.Response{Data: []byte(`{"classement":[` + strings.Join(lignes, ",") + `]}`)}
	}
	b.SetBytes(int64(len(reponses[0].Data)))
	b.ReportAllocs()
	tampon := make([]byte, 0, 1<<20)
	i := 0
	for b.Loop() {
		var ok bool
		if tampon, ok = ajouterDirect(tampon[:0], reponses[i%2]); !ok {
			b.Fatal("not direct")
		}
		i++
	}
}
