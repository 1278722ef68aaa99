package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/apiclient"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/classique/matchclassique"
	"arbitre/graphql/server"
)

// apiServer is the real `arbitre serve` on loopback over a fresh data
// directory, driven over HTTP and websocket like any client: run in the
// test process (startAPIServer), or in a process of its own
// (serveProcessus).
type apiServer struct {
	t    *testing.T
	url  string
	data string
	stop func()
	// pid and tuer (kill -9) are those of a server in a process of its
	// own; zero and nil in the test process.
	pid  int
	tuer func()
}

func startAPIServer(t *testing.T, data string) *apiServer {
	t.Helper()
	// The functional tests send requests as fast as the machine goes, from one
	// address: the rate limit has tests of its own (startLimitedAPIServer).
	limits := server.DefaultLimits
	limits.Rate = 0
	return startLimitedAPIServer(t, data, limits)
}

// startLimitedAPIServer is startAPIServer with other limits (e.g. a tiny
// rate limit). The electronic bag draws from e2eGraine: a test draws the
// same letters and takes the same path on every run.
func startLimitedAPIServer(t *testing.T, data string, limits server.Limits) *apiServer {
	t.Helper()
	return startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), func(c *server.Config) {
		c.Limits = limits
		c.Resolver.Hasard = matchclassique.HasardFixe(e2eGraine)
	})
}

// startAPIServerWith is startAPIServer logging to log, with the server's
// configuration adjusted by configure (as serve's flags do).
func startAPIServerWith(t *testing.T, data string, log *slog.Logger, configure ...func(*server.Config)) *apiServer {
	t.Helper()
	return startAPIServerLexicons(t, data, nil, log, configure...)
}

// startAPIServerLexicons is startAPIServerWith holding the lexicons of
// serve's repeated --lexicon (nil: the shipped list only).
func startAPIServerLexicons(t *testing.T, data string, lexicons []string, log *slog.Logger, configure ...func(*server.Config)) *apiServer {
	t.Helper()
	return lancerServeur(t, data, ecouteLibre, lexicons, log, configure...)
}

// lancerServeur is runServe in a goroutine on addr, as `arbitre serve`
// runs it: the one start of the end-to-end tests' servers. On ecouteLibre
// its address is the one its lock announces once it listens (a port the
// kernel gave it, nobody else's); on an address given (a restart where the
// last server was) it is that one. It returns once /healthz answers; stop
// cancels the server's context, as SIGTERM does, and waits for runServe to
// return.
func lancerServeur(t *testing.T, data, addr string, lexicons []string, log *slog.Logger, configure ...func(*server.Config)) *apiServer {
	t.Helper()
	verifierAllerRetourArchive(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &storeflags.Flags{DataDir: data, Backend: storeflags.SQLite}, addr, lexicons, log, configure...)
	}()
	s := &apiServer{t: t, data: data}
	if addr != ecouteLibre {
		s.url = "http://" + addr
	}
	var once sync.Once // a test that restarts a server stops it before its cleanup does
	s.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				assert.NoError(t, err, "runServe after shutdown")
			case <-time.After(2 * shutdownGrace):
				t.Errorf("the server did not stop within %s", 2*shutdownGrace)
			}
		})
	}
	deadline := time.Now().Add(e2eAttente)
	for {
		select {
		case err := <-done:
			require.NoError(t, err, "the server stopped while starting")
			require.Fail(t, "the server stopped while starting")
		default:
		}
		var err error
		if s.url == "" {
			if a := adresseEcoutee(data, os.Getpid()); a != "" {
				s.url = "http://" + a
			}
		}
		if s.url != "" {
			var resp *http.Response
			if resp, err = http.Get(s.url + "/healthz"); err == nil {
				resp.Body.Close()
				return s
			}
		}
		require.True(t, time.Now().Before(deadline), "the server did not answer /healthz within %s: %v", e2eAttente, err)
		time.Sleep(20 * time.Millisecond)
	}
}

// ecouteLibre is serve's --listen for a port the kernel gives.
const ecouteLibre = "127.0.0.1:0"

// adresseEcoutee is the address the server process pid serves data on, as
// its lock announces it once it listens (lock.go), "" before. A server
// started on ecouteLibre binds a port nobody holds, where a port found
// free beforehand (portLibre) can be taken by another process (CI runs
// the packages' tests side by side) before the server binds it, and the
// /healthz of whoever took it answers.
func adresseEcoutee(data string, pid int) string {
	raw, err := os.ReadFile(filepath.Join(data, lockFileName))
	if err != nil {
		return ""
	}
	var h lockHolder
	if json.Unmarshal(raw, &h) != nil || h.PID != pid {
		return ""
	}
	if _, port, err := net.SplitHostPort(h.Address); err != nil || port == "0" {
		return ""
	}
	return h.Address
}

// apiToken issues a token with the CLI command, as a director would.
func apiToken(t *testing.T, data string, args ...string) string {
	t.Helper()
	secret, err := runTokenCreate(t, data, args...)
	require.NoError(t, err)
	return secret
}

// runTokenCreate runs `arbitre token create --data data --init args...` (a
// test issues tokens before its server makes the store) and
// returns the secret it prints, or its error.
func runTokenCreate(t *testing.T, data string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	create, _, err := rootCmd.Find([]string{"token", "create"})
	require.NoError(t, err)
	create.Flags().VisitAll(func(f *pflag.Flag) { _ = f.Value.Set(f.DefValue) }) // flags outlive a run
	rootCmd.SetOut(&out)
	rootCmd.SetErr(io.Discard)
	rootCmd.SetArgs(append([]string{"token", "create", "--data", data, "--init"}, args...))
	err = rootCmd.ExecuteContext(context.Background())
	return strings.TrimSpace(out.String()), err
}

type apiResult struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []apiErreur                `json:"errors"`
}

// apiErreur is one error of an answer.
type apiErreur struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

func (r apiResult) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// into decodes one top-level field of an answer without errors.
func (r apiResult) into(t *testing.T, field string, v any) {
	t.Helper()
	require.NoError(t, r.lire(field, v))
}

// lire decodes one top-level field of an answer without errors, or says
// why not: into for a wait's condition, which runs in a goroutine of its
// own where a require would stop that goroutine alone.
func (r apiResult) lire(field string, v any) error {
	if len(r.Errors) > 0 {
		return fmt.Errorf("errors: %+v", r.Errors)
	}
	return json.Unmarshal(r.Data[field], v)
}

// derniereErreur keeps the last error a wait's condition saw, for the
// wait's failure message: fmt calls String when the wait fails, after
// the last try.
type derniereErreur struct {
	mu  sync.Mutex
	err error
}

// ok notes err and says whether there was none.
func (d *derniereErreur) ok(err error) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.err = err
	return err == nil
}

func (d *derniereErreur) String() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		return "sans erreur au dernier essai"
	}
	return "dernière erreur : " + d.err.Error()
}

func (s *apiServer) gql(token, query string, vars map[string]any) apiResult {
	s.t.Helper()
	return postGraphQL(s.t, s.url, token, query, vars)
}

// codeTransport is the code of the error postGraphQL answers when no
// GraphQL answer came back (the request or its answer cut, an answer not
// GraphQL-shaped): the harness's own, no server sends it.
const codeTransport = "E2E_TRANSPORT"

// postGraphQL sends one query to the server at url, with a bearer token
// when given, through the API's one Go client (apiclient). A request
// without a GraphQL answer comes back as an answer with one error of code
// codeTransport: it fails the test where its errors are checked, and is
// one more try inside a require.Eventually condition, which runs in a
// goroutine of its own where a require would stop that goroutine alone.
func postGraphQL(t *testing.T, url, token, query string, vars map[string]any) apiResult {
	t.Helper()
	var out apiResult
	err := apiclient.New(url, nil).Read(context.Background(), token, query, vars, func(r io.Reader) error {
		return json.NewDecoder(r).Decode(&out)
	})
	if err != nil {
		return erreurTransport(err)
	}
	noterReponse(query, out)
	return out
}

// erreurTransport is the answer of a request that got no GraphQL answer.
func erreurTransport(err error) apiResult {
	return apiResult{Errors: []apiErreur{{Message: "pas de réponse GraphQL : " + err.Error(), Extensions: map[string]any{"code": codeTransport}}}}
}

// postGraphQLAuth sends one query with the Authorization header as given
// (a probe of the header's forms).
func postGraphQLAuth(t *testing.T, url, authorization, query string, vars map[string]any) apiResult {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	_, out := postGraphQLBody(t, url, authorization, "application/json", bytes.NewReader(body))
	return out
}

// bearer is the Authorization value of a token, empty without one.
func bearer(token string) string {
	if token == "" {
		return ""
	}
	return "Bearer " + token
}

// postGraphQLBody sends body as it is to /graphql and returns the HTTP status
// with the GraphQL answer, which every answer must be, refusals included.
// A body that is not a *bytes.Reader is sent chunked, without a length.
func postGraphQLBody(t *testing.T, url, authorization, contentType string, body io.Reader) (int, apiResult) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/graphql", body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out apiResult
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out), "the answer (HTTP %d) is GraphQL-shaped", resp.StatusCode)
	return resp.StatusCode, out
}

// apiSubscription is one graphql-transport-ws subscription.
type apiSubscription struct {
	conn *websocket.Conn
}

func (s *apiServer) subscribe(token, query string, vars map[string]any) *apiSubscription {
	s.t.Helper()
	conn := s.connect(bearer(token))
	var ack map[string]any
	require.NoError(s.t, conn.ReadJSON(&ack))
	require.Equal(s.t, "connection_ack", ack["type"])
	require.NoError(s.t, conn.WriteJSON(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}))
	return &apiSubscription{conn: conn}
}

// connect opens a graphql-transport-ws connection and sends its
// connection_init, with the Authorization value when given.
func (s *apiServer) connect(authorization string) *websocket.Conn {
	s.t.Helper()
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}}
	conn, _, err := dialer.Dial(strings.Replace(s.url, "http", "ws", 1)+"/graphql", nil)
	require.NoError(s.t, err)
	s.t.Cleanup(func() { conn.Close() })
	payload := map[string]any{}
	if authorization != "" {
		payload["Authorization"] = authorization
	}
	require.NoError(s.t, conn.WriteJSON(map[string]any{"type": "connection_init", "payload": payload}))
	return conn
}

// next waits for the next data message of the subscription.
func (sub *apiSubscription) next(t *testing.T, field string, v any) {
	t.Helper()
	require.NoError(t, sub.suivant(field, v))
}

// suivant waits for the next data message of the subscription and decodes
// its field, or says why not: next for a wait's condition (see lire).
func (sub *apiSubscription) suivant(field string, v any) error {
	if err := sub.conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return err
	}
	for {
		var msg struct {
			Type    string    `json:"type"`
			Payload apiResult `json:"payload"`
		}
		if err := sub.conn.ReadJSON(&msg); err != nil {
			return err
		}
		switch msg.Type {
		case "ping":
			if err := sub.conn.WriteJSON(map[string]any{"type": "pong"}); err != nil {
				return err
			}
		case "next":
			if err := msg.Payload.lire(field, v); err != nil {
				return err
			}
			noterIssue("Subscription."+field, issueDonnees)
			return nil
		default:
			return fmt.Errorf("unexpected message %s: %+v", msg.Type, msg.Payload)
		}
	}
}

type apiPartie struct {
	Statut    string   `json:"statut"`
	Version   int      `json:"version"`
	Coup      int      `json:"coup"`
	Tirage    string   `json:"tirage"`
	Grille    []string `json:"grille"`
	Solutions []struct {
		Mot, Reference string
		Score          int
		Admissible     bool
	} `json:"solutions"`
	DernierTop *struct {
		Mot, Reference string
		Score          int
	} `json:"dernierTop"`
}

type apiLigne struct {
	Licence string `json:"licence"`
	Score   int    `json:"score"`
	Rang    int    `json:"rang"`
}

func scoreOf(lignes []apiLigne, licence string) int {
	for _, l := range lignes {
		if l.Licence == licence {
			return l.Score
		}
	}
	return -1
}

const partieFields = `statut version coup tirage grille dernierTop { mot reference score }`

// A whole duplicate coup driven only through the API by the director, two
// arbiters, the commission and the public: forbidden actions are refused and
// change nothing, retries are applied once, stale writers get CONFLICT, the
// standings follow corrections and an appeal live.
func TestE2EAPIDuplicateGameByRoles(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiterA := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	arbiterB := apiToken(t, data, "--role", "arbiter", "--tables", "3-4", "--tournoi", "T1")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()

	// The public and arbiters cannot run the tournament.
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).code())

	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open de Vichy", homologue: false) { id } }`, nil).Errors)
	for i := 1; i <= 4; i++ {
		res := s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": fmt.Sprintf("L%d", i), "nom": fmt.Sprintf("Joueur %d", i), "club": "Vichy", "table": i}})
		require.Empty(t, res.Errors)
	}
	var p apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	assert.Equal(t, "attente_tirage", p.Statut)

	standings := s.subscribe("", `subscription { classementChange(partie:"T1-1") { licence score rang } }`, nil)
	var lignes []apiLigne
	standings.next(t, "classementChange", &lignes)
	assert.Len(t, lignes, 4)

	// A retried draw is applied once; a stale version is a conflict.
	draw := `mutation($v: Int) { tirer(partie:"T1-1", version:$v, clientMutationId:"tirage-1") { ` + partieFields + ` } }`
	s.gql(director, draw, map[string]any{"v": 1}).into(t, "tirer", &p)
	live := p // the state of coup 1, live
	live.Grille = append([]string(nil), p.Grille...)
	var again apiPartie
	s.gql(director, draw, map[string]any{"v": 1}).into(t, "tirer", &again)
	assert.Equal(t, p, again, "the retry answers the same state")
	stale := s.gql(director, `mutation { rejeter(partie:"T1-1", version: 1) { version } }`, nil)
	require.Equal(t, "CONFLICT", stale.code())
	assert.EqualValues(t, p.Version, stale.Errors[0].Extensions["version"])
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, `mutation { retenirTop(partie:"T1-1", reference:"H8", mot:"X") { version } }`, nil).code())

	// The tops are unpublished: the public gets no solutions.
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", `{ partie(id:"T1-1") { solutions { mot } } }`, nil).code())
	var withSolutions apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &withSolutions)
	require.NotEmpty(t, withSolutions.Solutions)
	top := withSolutions.Solutions[0]
	require.True(t, top.Admissible)

	// Arbiters enter bulletins for their own tables only.
	enter := `mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence table } }`
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	wrongScore := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score + 3}}}
	require.Empty(t, s.gql(arbiterA, enter, map[string]any{"l": "L1", "b": exact}).Errors)
	require.Empty(t, s.gql(arbiterA, enter, map[string]any{"l": "L2", "b": wrongScore}).Errors)
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, enter, map[string]any{"l": "L3", "b": exact}).code())
	require.Empty(t, s.gql(arbiterB, enter, map[string]any{"l": "L3", "b": map[string]any{"blank": true}}).Errors)

	// Private until the coup is closed.
	bulletins := `{ bulletins(partie:"T1-1", coup:1) { licence } }`
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", bulletins, nil).code())
	var seen []struct{ Licence string }
	s.gql(arbiterB, bulletins, nil).into(t, "bulletins", &seen)
	assert.Equal(t, []struct{ Licence string }{{"L3"}}, seen, "an arbiter sees his tables only")

	s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { `+partieFields+` } }`,
		map[string]any{"r": top.Reference, "m": top.Mot}).into(t, "retenirTop", &p)
	require.NotNil(t, p.DernierTop)
	assert.Equal(t, top.Score, p.DernierTop.Score)
	s.gql("", bulletins, nil).into(t, "bulletins", &seen)
	assert.Len(t, seen, 3, "public once the top is announced")

	// Corrections: the engine decides, the arbiter confirms.
	correct := `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { decision { paye sanction raisons } } }`
	var corrected struct {
		Decision struct {
			Paye     int
			Sanction string
			Raisons  []string
		}
	}
	s.gql(arbiterA, correct, map[string]any{"l": "L1"}).into(t, "corrigerBulletin", &corrected)
	assert.Equal(t, top.Score, corrected.Decision.Paye)
	s.gql(arbiterA, correct, map[string]any{"l": "L2"}).into(t, "corrigerBulletin", &corrected)
	assert.Equal(t, top.Score, corrected.Decision.Paye, "§5.3.2: the exact score is paid")
	assert.Equal(t, "warning", corrected.Decision.Sanction)
	s.gql(arbiterB, correct, map[string]any{"l": "L3"}).into(t, "corrigerBulletin", &corrected)
	assert.Equal(t, 0, corrected.Decision.Paye, "§5.7: a blank bulletin is a zero")

	var affichage derniereErreur
	require.Eventually(t, func() bool {
		return affichage.ok(standings.suivant("classementChange", &lignes)) &&
			scoreOf(lignes, "L1") == top.Score && scoreOf(lignes, "L2") == top.Score && scoreOf(lignes, "L3") == 0
	}, 10*time.Second, time.Millisecond, "the display's standings follow the corrections (%s)", &affichage)

	// An appeal upheld by the commission changes the standings through a new event.
	appeal := map[string]any{"id": "A1", "tournoi": "T1", "partie": "T1-1", "coup": 1, "licence": "L3", "table": 3,
		"requerant": "Joueur 3", "qualite": "joueur", "motif": "bulletin égaré par le ramasseur",
		"demandee": map[string]any{"paye": top.Score, "sanction": "none"}}
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id } }`, map[string]any{"a": appeal}).code())
	require.Empty(t, s.gql(arbiterB, `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id statut } }`, map[string]any{"a": appeal}).Errors)
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterB, `mutation { voter(tournoi:"T1", appel:"A1", membre:"M1", issue:accueilli) { statut } }`, nil).code())
	require.Empty(t, s.gql(commission, `mutation { composerCommission(tournoi:"T1", appel:"A1", president:"M1", membres:["M1","M2","M3"]) { statut } }`, nil).Errors)
	for _, m := range []string{"M1", "M2", "M3"} {
		require.Empty(t, s.gql(commission, `mutation($m: String!) { voter(tournoi:"T1", appel:"A1", membre:$m, issue:accueilli) { statut } }`, map[string]any{"m": m}).Errors)
	}
	var decided struct {
		Statut            string
		DecisionEnVigueur struct{ Paye int }
		Historique        []struct{ Type, Role string }
	}
	s.gql(commission, `mutation { deciderAppel(tournoi:"T1", appel:"A1", issue:accueilli, motivation:"bulletin retrouvé, écrit dans les temps") { statut decisionEnVigueur { paye } historique { type role } } }`,
		nil).into(t, "deciderAppel", &decided)
	assert.Equal(t, "decide", decided.Statut)
	assert.Equal(t, top.Score, decided.DecisionEnVigueur.Paye)
	s.gql("", `{ classement(partie:"T1-1") { licence score rang } }`, nil).into(t, "classement", &lignes)
	assert.Equal(t, top.Score, scoreOf(lignes, "L3"), "the appeal's decision reaches the standings")

	// The replay, from events only, equals the live state of coup 1.
	replay := `{ replay(partie:"T1-1", coup:1) { coup grille tirage top { mot reference } bulletins { licence enregistree { texte } moteur { texte } ecart } journal { type role } } }`
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", replay, nil).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, replay, nil).code())
	var r apiReplay
	s.gql(commission, replay, nil).into(t, "replay", &r)
	assert.Equal(t, live.Grille, r.Grille)
	assert.Equal(t, live.Tirage, r.Tirage)
	assert.Equal(t, top.Mot, r.Top.Mot)
	require.Len(t, r.Bulletins, 3)
	for _, b := range r.Bulletins {
		assert.False(t, b.Ecart, "the engine still agrees for %s", b.Licence)
		require.NotNil(t, b.Enregistree, b.Licence)
	}
	assert.NotEmpty(t, r.Journal)

	// The archive: tournaments and a player's history, paginated.
	var conn struct {
		Edges []struct {
			Cursor string
			Node   struct{ ID, Type, Nom string }
		}
		PageInfo struct{ HasNextPage bool }
	}
	var vue derniereErreur
	require.Eventually(t, func() bool {
		return vue.ok(s.gql("", `{ tournois(first: 5) { edges { cursor node { id type nom } } pageInfo { hasNextPage } } }`, nil).lire("tournois", &conn)) &&
			len(conn.Edges) == 1
	}, 10*time.Second, 20*time.Millisecond, "the tournament in the archive (%s)", &vue)
	assert.Equal(t, "Open de Vichy", conn.Edges[0].Node.Nom)
	assert.Equal(t, "INVALID_INPUT", s.gql("", `{ tournois(after: "not-a-cursor") { pageInfo { hasNextPage } } }`, nil).code())
	var player struct {
		Nom        string
		Historique struct {
			Edges []struct {
				Node struct {
					Partie           string
					Score, Top, Rang *int
				}
			}
		}
	}
	s.gql("", `{ joueur(id: "L3") { nom historique { edges { node { partie score top rang } } } } }`, nil).into(t, "joueur", &player)
	assert.Equal(t, "Joueur 3", player.Nom)
	require.Len(t, player.Historique.Edges, 1)
	require.NotNil(t, player.Historique.Edges[0].Node.Score)
	assert.Equal(t, top.Score, *player.Historique.Edges[0].Node.Score, "the history shows the score after the appeal")
}

// apiReplay is the commission's replay of a coup.
type apiReplay struct {
	Coup      int
	Grille    []string
	Tirage    string
	Top       struct{ Mot, Reference string }
	Bulletins []struct {
		Licence     string
		Enregistree *struct{ Texte string }
		Moteur      struct{ Texte string }
		Ecart       bool
	}
	Journal []struct{ Type, Role string }
}

// salleT1 starts a server on a fresh data folder with a director's token
// and that of the arbiter of tables 1 to 4 of T1, and opens T1 with n
// players (inscrireJoueursT1); the server stops at the end of the test.
func salleT1(t *testing.T, n int) (s *apiServer, director, arbiter string) {
	t.Helper()
	data := t.TempDir()
	director = apiToken(t, data, "--role", "director")
	arbiter = apiToken(t, data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T1")
	s = startAPIServer(t, data)
	t.Cleanup(s.stop)
	inscrireJoueursT1(t, s, director, n)
	return s, director, arbiter
}

// inscrireJoueursT1 opens tournament T1 and registers n players, L1 to Ln,
// each at the table of his number, as the director does.
func inscrireJoueursT1(t *testing.T, s *apiServer, director string, n int) {
	t.Helper()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open de Vichy", homologue: false) { id } }`, nil).Errors)
	for i := 1; i <= n; i++ {
		require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": fmt.Sprintf("L%d", i), "nom": fmt.Sprintf("Joueur %d", i), "table": i}}).Errors)
	}
}
