package main

// End-to-end tests of the HTTP edge (issue 11, items 6, 13, 14 and 15):
// secrets kept out of the logs, malformed requests refused in GraphQL's
// shape, one server per data directory, timeouts, security headers, HEAD,
// private data files and introspection that can be turned off.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/storeflags"
)

// Item 6: secrets sent in a query string or a header never reach the log.
func TestSecurite_JournalSansSecret(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	logs := &e2eJournal{}
	s := startAPIServerWith(t, data, slog.New(slog.NewJSONHandler(logs, nil)))
	defer s.stop()

	const urlSecret, tokenSecret = "arb_secret-de-l-url", "arb_secret-du-parametre"
	for _, path := range []string{
		"/commission/T1-1?coup=2&jeton=" + urlSecret,
		"/graphql?query=%7B__typename%7D&token=" + tokenSecret,
		"/affichage/T1-1?Jeton=" + urlSecret + "&serie=A",
		"/affichage/T1-1?serie=B;access%5Ftoken=" + tokenSecret,
	} {
		resp, err := http.Get(s.url + path)
		require.NoError(t, err)
		resp.Body.Close()
	}
	require.Empty(t, s.gql(director, `{ moi { role } }`, nil).Errors)

	require.Eventually(t, func() bool {
		return strings.Contains(logs.String(), "serie=B") && strings.Count(logs.String(), `"uri":"/graphql"`) == 1
	}, 5*time.Second, 10*time.Millisecond, "every request is logged: %s", logs)
	journal := logs.String()
	for _, secret := range []string{urlSecret, tokenSecret, director, "Bearer"} {
		assert.NotContains(t, journal, secret)
	}
	assert.Contains(t, journal, "/commission/T1-1?coup=2&jeton=REDACTED")
	assert.Contains(t, journal, "/affichage/T1-1?serie=B;access%5Ftoken=REDACTED")
}

// Item 13: a body that is not one GraphQL request is refused with HTTP 400
// and a GraphQL error coded BAD_REQUEST, whose message does not echo it; a
// body over the limit gets a GraphQL-shaped 413.
func TestSecurite_CorpsMalformes(t *testing.T) {
	s := startAPIServer(t, t.TempDir())
	defer s.stop()
	const marque = "contenu-du-corps"
	for _, tc := range []struct {
		name, contentType, body string
	}{
		{"truncated JSON", "application/json", `{"query": "{ moi { role } }", "variables": {"x": "` + marque},
		{"not JSON", "application/json", `query { moi { role } } ` + marque},
		{"empty body", "application/json", ``},
		{"query of the wrong type", "application/json", `{"query": 5, "x": "` + marque + `"}`},
		{"variables of the wrong type", "application/json", `{"query": "{ moi { role } }", "variables": "` + marque + `"}`},
		{"extensions of the wrong type", "application/json", `{"query": "{ moi { role } }", "extensions": ["` + marque + `"]}`},
		{"operation name of the wrong type", "application/json", `{"query": "{ moi { role } }", "operationName": {"n": "` + marque + `"}}`},
		{"batched array", "application/json", `[{"query": "{ moi { role } }"}, {"query": "{ __typename } # ` + marque + `"}]`},
		{"JSON null", "application/json", `null`},
		{"two JSON values", "application/json", `{"query": "{ moi { role } }"} {"query": "` + marque + `"}`},
		{"not JSON at all", "text/plain", `{"query": "{ moi { role } }", "x": "` + marque + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, res := postGraphQLBody(t, s.url, "", tc.contentType, strings.NewReader(tc.body))
			assert.Equal(t, http.StatusBadRequest, status)
			require.Len(t, res.Errors, 1)
			assert.Equal(t, "BAD_REQUEST", res.code())
			assert.NotEmpty(t, res.Errors[0].Message)
			assert.NotContains(t, res.Errors[0].Message, marque, "the message does not echo the body")
			assert.Nil(t, res.Data)
		})
	}

	huge := `{"query": "{ moi { role } }", "variables": {"x": "` + strings.Repeat("A", 2<<20) + `"}}`
	for name, body := range map[string]io.Reader{
		"with its length": bytes.NewReader([]byte(huge)),
		"chunked":         io.MultiReader(strings.NewReader(huge)),
	} {
		t.Run("oversized "+name, func(t *testing.T) {
			status, res := postGraphQLBody(t, s.url, "", "application/json", body)
			assert.Equal(t, http.StatusRequestEntityTooLarge, status)
			assert.Equal(t, "PAYLOAD_TOO_LARGE", res.code())
			require.Len(t, res.Errors, 1)
			assert.Contains(t, res.Errors[0].Message, "volumineuse")
		})
	}

	// The server still answers well-formed requests.
	status, res := postGraphQLBody(t, s.url, "", "application/json", strings.NewReader(`{"query": "{ __typename }"}`))
	assert.Equal(t, http.StatusOK, status)
	assert.Empty(t, res.Errors)
}

// Item 14: a second server on the same data directory refuses to start and
// names the first; once the first stops, the next one starts.
func TestSecurite_UnSeulServeurParRepertoire(t *testing.T) {
	data := t.TempDir()
	first := startAPIServer(t, data)
	err := serveBeside(t, data)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "déjà utilisé")
	assert.Contains(t, err.Error(), fmt.Sprintf("pid %d", os.Getpid()))
	assert.Contains(t, err.Error(), strings.TrimPrefix(first.url, "http://"), "the holder's address")
	first.stop()

	second := startAPIServer(t, data)
	require.Empty(t, second.gql("", `{ __typename }`, nil).Errors)
	second.stop()
}

// serveBeside runs another server on data, where one already runs, and
// returns why it refused to start; the test fails if it serves.
func serveBeside(t *testing.T, data string) error {
	t.Helper()
	addr := portLibre(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &storeflags.Flags{DataDir: data, Backend: storeflags.SQLite}, addr, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	for {
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Millisecond):
		}
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			cancel()
			<-done
			t.Fatal("a second server serves the same data directory")
		}
	}
}

// Item 14: the lock dies with its holder: after kill -9 of a running
// `arbitre serve`, a new server starts on the same directory.
func TestSecurite_VerrouLibereParKill9(t *testing.T) {
	data := t.TempDir()
	holder := serveProcessus(t, data)
	err := serveBeside(t, data)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("pid %d", holder.pid))
	assert.Contains(t, err.Error(), strings.TrimPrefix(holder.url, "http://"), "the holder's address")

	holder.tuer() // SIGKILL
	s := startAPIServer(t, data)
	require.Empty(t, s.gql("", `{ __typename }`, nil).Errors)
	s.stop()
}

// Item 15: every page, GraphiQL and /healthz carry the security headers and
// answer HEAD without a body.
func TestSecurite_EnTetesEtHEAD(t *testing.T) {
	s := startAPIServer(t, t.TempDir())
	defer s.stop()
	for _, path := range []string{"/", "/graphiql/graphiql.min.js", "/static/gql.js", "/affichage/T1-1",
		"/affichage/classique/CL", "/commission/T1-1?coup=3", "/healthz",
		"/commission", "/classement/T1?partie=T1-1&serie=A"} {
		t.Run(path, func(t *testing.T) {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				req, err := http.NewRequest(method, s.url+path, nil)
				require.NoError(t, err)
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, resp.StatusCode, method)
				if method == http.MethodHead {
					assert.Empty(t, body)
				} else {
					assert.NotEmpty(t, body)
				}
				h := resp.Header
				assert.Equal(t, "DENY", h.Get("X-Frame-Options"), method)
				assert.Equal(t, "no-referrer", h.Get("Referrer-Policy"), method)
				assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), method)
				csp := h.Get("Content-Security-Policy")
				assert.Contains(t, csp, "default-src 'none'", method)
				assert.Contains(t, csp, "script-src 'self'", method)
				assert.Contains(t, csp, "frame-ancestors 'none'", method)
				assert.NotContains(t, csp, "unsafe-inline", method)
				assert.NotContains(t, csp, "unsafe-eval", method)
			}
		})
	}
}

// Item 15: the data directory is private to its owner (0700) and so is
// every file in it (0600): the event store with its WAL, the projections,
// the lock file; whether the CLI or the server created them.
func TestSecurite_FichiersPrives(t *testing.T) {
	data := filepath.Join(t.TempDir(), "donnees")
	apiToken(t, data, "--role", "director")
	info, err := os.Stat(data)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "the directory token create made")

	s := startAPIServer(t, data)
	defer s.stop()
	entries, err := os.ReadDir(data)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		info, err := e.Info()
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), e.Name())
		names = append(names, e.Name())
	}
	assert.Subset(t, names, []string{"events.db", "events.db-wal", "events.db-shm", "projections.db",
		"projections.db-wal", "projections.db-shm", "arbitre.lock"})
}

// Item 15: introspection is on by default (GraphiQL needs it) and
// `arbitre serve --no-introspection` refuses it with a code; the rest of the
// API still answers.
func TestSecurite_SansIntrospection(t *testing.T) {
	data := t.TempDir()
	open := startAPIServer(t, data)
	require.Empty(t, open.gql("", `{ __schema { queryType { name } } }`, nil).Errors)
	open.stop()

	serve, _, err := rootCmd.Find([]string{"serve"})
	require.NoError(t, err)
	t.Cleanup(func() { serve.Flags().VisitAll(func(f *pflag.Flag) { _ = f.Value.Set(f.DefValue) }) })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	rootCmd.SetArgs([]string{"serve", "--data", data, "--listen", ecouteLibre, "--no-introspection"})
	go func() { done <- rootCmd.ExecuteContext(ctx) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	var url string
	require.Eventually(t, func() bool {
		a := adresseEcoutee(data, os.Getpid())
		if a == "" {
			return false
		}
		url = "http://" + a
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	}, 10*time.Second, 20*time.Millisecond)

	for _, q := range []string{`{ __schema { queryType { name } } }`, `{ __type(name: "Query") { name } }`,
		`query Q { ...F } fragment F on Query { __schema { types { name } } }`} {
		res := postGraphQL(t, url, "", q, nil)
		assert.Equal(t, "INTROSPECTION_DISABLED", res.code(), q)
		assert.Nil(t, res.Data["__schema"], q)
	}
	res := postGraphQL(t, url, "", `{ __typename moi { role } }`, nil)
	assert.Empty(t, res.Errors)
}

// Item 15: the pages and GraphiQL work under their Content-Security-Policy:
// the browser reports no violation while they load, render and talk to the
// API (over HTTP and the websocket).
func TestSecurite_PagesSousCSP(t *testing.T) {
	salle := ouvrirSalle(t)
	ctx := navigateur(t, 1400, 1000)
	executer(t, ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.violationsCSP = [];
			document.addEventListener("securitypolicyviolation",
				(e) => window.violationsCSP.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber));`).Do(ctx)
		return err
	}))
	sansViolation := func(quoi string) {
		t.Helper()
		var violations []string
		evaluer(t, ctx, `window.violationsCSP`, &violations)
		assert.Empty(t, violations, quoi)
		// The policy is in force: an injected inline script does not run.
		var bloque bool
		evaluer(t, ctx, `(() => { const s = document.createElement("script"); s.textContent = "window.sondeCSP = 1";
			document.head.appendChild(s); window.violationsCSP = []; return window.sondeCSP === undefined; })()`, &bloque)
		assert.True(t, bloque, "%s: an inline script ran", quoi)
	}

	executer(t, ctx, chromedp.Navigate(salle.public.url+"/"))
	attendre(t, ctx, `!!document.querySelector(".graphiql-container .CodeMirror")`, e2eAttente, "GraphiQL")
	attendre(t, ctx, `!!document.querySelector(".graphiql-container") && !document.body.textContent.includes("Chargement")`, e2eAttente, "GraphiQL loaded")
	sansViolation("GraphiQL")

	executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieLive))
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the display, live over the websocket")
	attendre(t, ctx, `document.querySelectorAll("#lignes tr").length > 0 && !!document.querySelector("svg.plateau")`, e2eAttente, "the display's board and standings")
	sansViolation("the display")

	executer(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/commission/%s?coup=2", salle.public.url, e2ePartieSim)))
	attendre(t, ctx, `!document.getElementById("connexion").hidden`, e2eAttente, "the token form")
	entrerJeton(t, ctx, salle.commission)
	attendre(t, ctx, `!document.getElementById("contenu").hidden && !!document.querySelector("svg.plateau") && !document.getElementById("recours").hidden`, e2eAttente, "the viewer and the appeals")
	sansViolation("the commission's viewer")

	// The director's consoles, signed in (sessionStorage is per tab and origin).
	executer(t, ctx, chromedp.Evaluate(`sessionStorage.clear()`, nil), chromedp.Navigate(salle.public.url+"/directeur"))
	entrerJeton(t, ctx, salle.directeur.jeton)
	attendre(t, ctx, `document.querySelectorAll("#liste-tournois button").length > 0`, e2eAttente, "the director's console")
	sansViolation("the director's console")
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/directeur/partie/"+e2ePartieLive))
	attendre(t, ctx, `document.body.dataset.statut === "attente_tirage" && !!document.getElementById("chrono").dataset.etat`, e2eAttente, "the game's console")
	sansViolation("the game's console")
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/arbitre/partie/"+e2ePartieLive)) // signed in: the tab's session
	attendre(t, ctx, `document.body.dataset.pret === "1"`, e2eAttente, "the arbiter's bulletin entry")
	sansViolation("the arbiter's bulletin entry")
	ouvrirClassique(t, salle.directeur)
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/directeur/classique/CL")) // signed in: the tab's session
	attendre(t, ctx, `document.querySelectorAll("#tables-publiees tr").length === 2`, e2eAttente, "the TD console")
	sansViolation("the TD console")
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/impression/classique/CL/feuilles"))
	attendre(t, ctx, `document.body.dataset.pret === "1" && document.querySelectorAll(".feuille").length === 2`, e2eAttente, "the match sheets")
	sansViolation("the printed match sheets")
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/classement/"+e2eTournoi))
	attendre(t, ctx, `document.querySelectorAll("#lignes tr").length > 0`, e2eAttente, "the printable standings")
	sansViolation("the printable standings")
}
