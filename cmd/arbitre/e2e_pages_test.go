package main

// End-to-end tests of the hall pages in a real browser: Debian's Chromium,
// headless, driven with chromedp against the real `arbitre serve` wiring
// (runServe) on a SQLite data directory filled by the duplicate simulation
// and by the GraphQL API. They skip only when no Chromium binary exists
// (.ci/run installs it). `go test -run E2E ./cmd/arbitre/` runs them;
// ARBITRE_SCREENSHOTS=1 also refreshes docs/screenshots/ (see docs/pages.md).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/storeflags"
)

// The simulated tournament every e2e test starts from: 24 players, one
// finished game (sim-7-1), and a live game created through the API.
const (
	e2eGraine     = 7
	e2eJoueurs    = 24
	e2eTournoi    = "sim-7"
	e2ePartieSim  = "sim-7-1"
	e2ePartieLive = "direct"
	// e2eAttente bounds every wait for the page: "within a few seconds".
	e2eAttente = 10 * time.Second
)

// --- the server -----------------------------------------------------------

// e2eJournal keeps the server's warnings and errors, shown if a test fails.
type e2eJournal struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (j *e2eJournal) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.buf.Write(p)
}

func (j *e2eJournal) String() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.buf.String()
}

// demarrerServeur starts the server on addr (ecouteLibre: a port the
// kernel gives) over the data directory dir, logging its warnings and
// errors to logs, and waits until /healthz says it is healthy; it is
// stopped when the test ends.
func demarrerServeur(t *testing.T, dir, addr string, logs *e2eJournal) *apiServer {
	t.Helper()
	s := lancerServeur(t, dir, addr, nil, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	t.Cleanup(s.stop)
	require.Eventually(t, func() bool {
		resp, err := http.Get(s.url + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, e2eAttente, 50*time.Millisecond, "the server is not healthy within %s", e2eAttente)
	return s
}

// portLibre returns a local address nobody listens on.
func portLibre(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// e2eRelais forwards the browser's TCP connections to the server. Stopping
// runServe inside the test process does not close the websockets it has
// hijacked (the process exit does that in production), so a restart cuts
// them here, as the kernel would when `arbitre serve` exits.
type e2eRelais struct {
	ln    net.Listener
	cible string
	// composer dials the server (a test of the relay holds it to cut the
	// network while a connection is being relayed).
	composer func() (net.Conn, error)
	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	coupe    bool // a network cut: new connections are closed at once
}

func nouveauRelais(t *testing.T, cible string) *e2eRelais {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r := &e2eRelais{ln: ln, cible: cible, conns: map[net.Conn]struct{}{}}
	r.composer = func() (net.Conn, error) { return net.DialTimeout("tcp", r.cible, time.Second) }
	go r.accepter()
	t.Cleanup(func() {
		ln.Close()
		r.interrompre()
	})
	return r
}

func (r *e2eRelais) addr() string { return r.ln.Addr().String() }

func (r *e2eRelais) accepter() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		go r.relayer(c)
	}
}

// relayer forwards c to a new connection to the server. Each end is kept
// among the relay's connections under the lock that tells whether the
// network is cut: a cut while the server is being dialled closes both.
func (r *e2eRelais) relayer(c net.Conn) {
	if !r.garder(c) {
		return
	}
	defer r.lacher(c)
	s, err := r.composer()
	if err != nil || !r.garder(s) {
		return
	}
	defer r.lacher(s)
	go func() {
		_, _ = io.Copy(s, c)
		s.Close()
		c.Close()
	}()
	_, _ = io.Copy(c, s)
}

// garder keeps conn among the relay's connections, or closes it when the
// network is cut.
func (r *e2eRelais) garder(conn net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.coupe {
		conn.Close()
		return false
	}
	r.conns[conn] = struct{}{}
	return true
}

// lacher closes conn and forgets it.
func (r *e2eRelais) lacher(conn net.Conn) {
	r.mu.Lock()
	delete(r.conns, conn)
	r.mu.Unlock()
	conn.Close()
}

// interrompre cuts the network (every connection closed, new ones
// refused) until retablir.
func (r *e2eRelais) interrompre() {
	r.mu.Lock()
	r.coupe = true
	r.mu.Unlock()
	r.couper()
}

func (r *e2eRelais) retablir() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.coupe = false
}

// couper closes every connection going through the relay.
func (r *e2eRelais) couper() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for c := range r.conns {
		c.Close()
	}
}

// --- data -------------------------------------------------------------------

// simulerTournoi plays the simulated tournament into dir (before the server
// starts, as `arbitre simulate duplicate` would).
func simulerTournoi(t *testing.T, dir string) {
	t.Helper()
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	cmd.SetOut(io.Discard)
	require.NoError(t, runSimulateDuplicate(cmd, &storeflags.Flags{DataDir: dir, Backend: storeflags.SQLite}, "", e2eJoueurs, 1, e2eGraine))
}

// --- the GraphQL API --------------------------------------------------------

type e2eAPI struct {
	url, jeton string
}

func (a e2eAPI) requete(t *testing.T, query string, vars map[string]any) apiResult {
	t.Helper()
	return postGraphQL(t, a.url, a.jeton, query, vars)
}

// exiger runs query, requires no error and decodes data into out.
func (a e2eAPI) exiger(t *testing.T, query string, vars map[string]any, out any) {
	t.Helper()
	require.NoError(t, a.obtenir(t, query, vars, out), query)
}

// obtenir runs query and decodes data into out, or says why not: exiger
// for a wait's condition (see apiResult.lire).
func (a e2eAPI) obtenir(t *testing.T, query string, vars map[string]any, out any) error {
	t.Helper()
	r := a.requete(t, query, vars)
	if len(r.Errors) > 0 {
		return fmt.Errorf("GraphQL errors: %+v", r.Errors)
	}
	if out == nil {
		return nil
	}
	data, err := json.Marshal(r.Data)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// attendreJetonReconnu waits until the server knows the token (it reads
// tokens from the store as it starts).
func (a e2eAPI) attendreJetonReconnu(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(e2eAttente)
	for {
		var d struct {
			Moi *struct{ Role string } `json:"moi"`
		}
		r := a.requete(t, `{ moi { role } }`, nil)
		if len(r.Errors) == 0 && json.Unmarshal(r.Data["moi"], &d.Moi) == nil && d.Moi != nil {
			return
		}
		require.True(t, time.Now().Before(deadline), "the server did not recognise the token within %s: %+v", e2eAttente, r.Errors)
		time.Sleep(50 * time.Millisecond)
	}
}

// aLeChamp tells whether the Query type has the field (introspection).
func (a e2eAPI) aLeChamp(t *testing.T, champ string) bool {
	t.Helper()
	var d struct {
		Type struct {
			Fields []struct{ Name string } `json:"fields"`
		} `json:"__type"`
	}
	a.exiger(t, `{ __type(name: "Query") { fields { name } } }`, nil, &d)
	for _, f := range d.Type.Fields {
		if f.Name == champ {
			return true
		}
	}
	return false
}

type e2eTop struct {
	Coup      int      `json:"coup"`
	Mot       string   `json:"mot"`
	Reference string   `json:"reference"`
	Score     int      `json:"score"`
	Cases     []string `json:"cases"`
}

type e2eLigne struct {
	Rang  int    `json:"rang"`
	Nom   string `json:"nom"`
	Club  string `json:"club"`
	Score int    `json:"score"`
}

func (a e2eAPI) creerPartieLive(t *testing.T) {
	t.Helper()
	a.exiger(t, `mutation($t: ID!, $p: ID!) { creerPartie(tournoi: $t, partie: $p, config:{source: logiciel, graine: 5 }) { id } }`,
		map[string]any{"t": e2eTournoi, "p": e2ePartieLive}, nil)
}

// jouerCoup draws a tirage and announces the first admissible top the
// engine gives (the director's token is needed for the solutions).
func (a e2eAPI) jouerCoup(t *testing.T, partie string) e2eTop {
	t.Helper()
	a.exiger(t, `mutation($p: ID!) { tirer(partie: $p) { statut } }`, map[string]any{"p": partie}, nil)
	mot, ref := a.premierTopAdmissible(t, partie)
	var r struct {
		RetenirTop struct {
			DernierTop e2eTop `json:"dernierTop"`
		} `json:"retenirTop"`
	}
	a.exiger(t, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie: $p, reference: $r, mot: $m) {
		dernierTop { coup mot reference score cases } } }`,
		map[string]any{"p": partie, "r": ref, "m": mot}, &r)
	return r.RetenirTop.DernierTop
}

// premierTopAdmissible is the engine's first admissible top of the tirage
// on the stand (the director's token is needed for the solutions).
func (a e2eAPI) premierTopAdmissible(t *testing.T, partie string) (mot, ref string) {
	t.Helper()
	var s struct {
		Partie struct {
			Solutions []struct {
				Mot, Reference string
				Admissible     bool
			} `json:"solutions"`
		} `json:"partie"`
	}
	a.exiger(t, `query($p: ID!) { partie(id: $p) { solutions { mot reference admissible } } }`, map[string]any{"p": partie}, &s)
	for _, sol := range s.Partie.Solutions {
		if sol.Admissible {
			return sol.Mot, sol.Reference
		}
	}
	require.Fail(t, "no admissible top", "solutions: %+v", s.Partie.Solutions)
	return "", ""
}

// --- the browser ------------------------------------------------------------

// chromium finds the browser, or skips the test: only when none exists.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ARBITRE_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium binary (/usr/bin/chromium, or chromium on PATH, or ARBITRE_CHROMIUM): .ci/run installs Debian's chromium")
	return ""
}

// navigateur starts headless Chromium with a fresh profile and returns a tab
// context; the browser is closed when the test ends. The flags keep it off
// the network (the machine has none): no QUIC, no background, component
// update or sync traffic.
func navigateur(t *testing.T, largeur, hauteur int) context.Context {
	t.Helper()
	bin := chromium(t)
	// Not t.TempDir: Chromium's helper processes may still write into the
	// profile for a moment after the browser exits, so removal retries.
	profil, err := os.MkdirTemp("", "arbitre-e2e-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		for i := 0; ; i++ {
			if err := os.RemoveAll(profil); err == nil || i == 50 {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profil),
		chromedp.WindowSize(largeur, hauteur),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Run starts the browser; it must not carry a timeout, which
	// would kill the browser when it expires, so the bound is kept here.
	started := make(chan error, 1)
	go func() { started <- chromedp.Run(ctx, chromedp.EmulateViewport(int64(largeur), int64(hauteur))) }()
	select {
	case err := <-started:
		require.NoError(t, err, "starting %s", bin)
	case <-time.After(3 * e2eAttente):
		cancel()
		require.Failf(t, "Chromium did not start", "%s within %s", bin, 3*e2eAttente)
	}
	return ctx
}

// executer runs actions with a bound.
func executer(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, e2eAttente)
	defer cancel()
	require.NoError(t, chromedp.Run(c, actions...))
}

// attendre polls the JavaScript condition until it holds, for at most d; on
// failure the page's text is in the message.
func attendre(t *testing.T, ctx context.Context, condition string, d time.Duration, quoi string) {
	t.Helper()
	var ok bool
	c, cancel := context.WithTimeout(ctx, d+2*time.Second)
	defer cancel()
	fin := time.Now().Add(d)
	var err error
	for {
		err = chromedp.Run(c, chromedp.Poll(condition, &ok, chromedp.WithPollingTimeout(time.Until(fin)), chromedp.WithPollingInterval(50*time.Millisecond)))
		// A page that navigates (a form sent, a reload, a sort chosen)
		// takes its JavaScript context with it: the poll then starts
		// again in the new page's, until the same deadline. Chromium
		// says so in one of two ways, as the navigation falls during
		// the poll's evaluation (CI, 0af7e07: the sheet sorted by
		// table, "Inspected target navigated or closed").
		if err == nil || !pageNaviguee(err) || time.Until(fin) <= 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil || !ok {
		require.Failf(t, "the page did not show "+quoi, "within %s (%v); the page says:\n%s", d, err, textePage(ctx))
	}
}

// pageNaviguee tells whether a poll failed because its page navigated
// away meanwhile.
func pageNaviguee(err error) bool {
	return strings.Contains(err.Error(), "Cannot find context with specified id") ||
		strings.Contains(err.Error(), "Inspected target navigated or closed")
}

func textePage(ctx context.Context) string {
	var s string
	c, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := chromedp.Run(c, chromedp.Evaluate(`document.body ? document.body.innerText : ""`, &s)); err != nil {
		return err.Error()
	}
	return s
}

func evaluer(t *testing.T, ctx context.Context, js string, out any) {
	t.Helper()
	executer(t, ctx, chromedp.Evaluate(js, out))
}

// jsTexte is a JavaScript condition: the element's text contains want.
func jsTexte(sel, want string) string {
	s, _ := json.Marshal(sel)
	w, _ := json.Marshal(want)
	return fmt.Sprintf(`(document.querySelector(%s) || {textContent: ""}).textContent.includes(%s)`, s, w)
}

// topAffiche is the display's line for a top.
func topAffiche(top e2eTop) string {
	return fmt.Sprintf("Top du coup %d : %s en %s — %d pts", top.Coup, top.Mot, top.Reference, top.Score)
}

// --- the fixture --------------------------------------------------------------

// e2eSalle is a tournament hall: the data, the server, the director's API.
type e2eSalle struct {
	dir, addr  string
	serveur    *apiServer
	directeur  e2eAPI
	public     e2eAPI
	commission string
	logs       *e2eJournal
}

// ouvrirSalle simulates the tournament, issues the director's and the
// commission's tokens, starts the server and creates the live game.
func ouvrirSalle(t *testing.T) *e2eSalle {
	t.Helper()
	chromium(t)
	s := &e2eSalle{dir: t.TempDir(), logs: &e2eJournal{}}
	simulerTournoi(t, s.dir)
	jeton := apiToken(t, s.dir, "--role", "director", "--label", "e2e")
	s.commission = apiToken(t, s.dir, "--role", "commission", "--label", "e2e")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", s.logs)
		}
	})
	s.serveur = demarrerServeur(t, s.dir, ecouteLibre, s.logs)
	s.addr = strings.TrimPrefix(s.serveur.url, "http://") // where a restart serves again
	s.directeur = e2eAPI{url: "http://" + s.addr, jeton: jeton}
	s.public = e2eAPI{url: "http://" + s.addr}
	s.directeur.attendreJetonReconnu(t)
	s.directeur.creerPartieLive(t)
	return s
}

func (s *e2eSalle) redemarrer(t *testing.T) {
	t.Helper()
	s.serveur.stop()
	s.serveur = demarrerServeur(t, s.dir, s.addr, s.logs)
	s.directeur.attendreJetonReconnu(t)
}

// confirmerDialogue answers the consoles' confirmation dialog (actions.js):
// reponse "oui" confirms, "non" gives up.
func confirmerDialogue(t *testing.T, ctx context.Context, reponse string) {
	t.Helper()
	attendre(t, ctx, `(document.getElementById("confirmation") || {}).open === true`, e2eAttente, "the confirmation dialog")
	executer(t, ctx, chromedp.Click("#confirmer-"+reponse, chromedp.ByID))
	attendre(t, ctx, `!document.getElementById("confirmation").open`, e2eAttente, "the dialog closed")
}

// entrerJeton types the token into the commission's form and sends it.
func entrerJeton(t *testing.T, ctx context.Context, jeton string) {
	t.Helper()
	executer(t, ctx, chromedp.SendKeys("#jeton", jeton, chromedp.ByID), chromedp.Click("#connexion button", chromedp.ByQuery))
}

// --- the tests --------------------------------------------------------------

func TestE2EDisplayShowsTheStandingsOfASimulatedGame(t *testing.T) {
	salle := ouvrirSalle(t)
	var d struct {
		Classement []e2eLigne `json:"classement"`
		Partie     struct {
			DernierTop e2eTop `json:"dernierTop"`
		} `json:"partie"`
	}
	salle.public.exiger(t, `query($p: ID!) { classement(partie: $p) { rang nom club score }
		partie(id: $p) { dernierTop { coup mot reference score cases } } }`, map[string]any{"p": e2ePartieSim}, &d)
	require.Len(t, d.Classement, e2eJoueurs)

	ctx := navigateur(t, 1600, 900)
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieSim+"?lignes=10&secondes=2"))
	attendre(t, ctx, `document.querySelectorAll("#lignes tr").length === 10`, e2eAttente, "the first page of standings")
	var lignes [][]string
	evaluer(t, ctx, `[...document.querySelectorAll("#lignes tr")].map(tr => [...tr.cells].map(td => td.textContent))`, &lignes)
	for i, l := range lignes {
		want := d.Classement[i]
		assert.Equal(t, []string{fmt.Sprint(want.Rang), want.Nom, want.Club, fmt.Sprint(want.Score)}, l[:4], "row %d", i+1)
	}
	attendre(t, ctx, jsTexte("#coup", "Partie terminée"), e2eAttente, "the end of the game")
	attendre(t, ctx, jsTexte("#top", topAffiche(d.Partie.DernierTop)), e2eAttente, "the last top")
	var nouveaux []string
	evaluer(t, ctx, `[...document.querySelectorAll("svg.plateau .jeton.nouveau")].map(r => r.parentNode.dataset.square)`, &nouveaux)
	require.NotEmpty(t, d.Partie.DernierTop.Cases, "the last top puts tiles down")
	assert.ElementsMatch(t, d.Partie.DernierTop.Cases, nouveaux, "the last top's squares are highlighted on the board")

	// Long lists page by themselves.
	attendre(t, ctx, jsTexte("#page", "page 2/3"), e2eAttente, "the second page of standings")
	var premier string
	evaluer(t, ctx, `document.querySelector("#lignes tr td:nth-child(2)").textContent`, &premier)
	assert.Equal(t, d.Classement[10].Nom, premier)

	// One série.
	var serie struct {
		Classement []e2eLigne `json:"classement"`
	}
	salle.public.exiger(t, `query($p: ID!) { classement(partie: $p, serie: "1") { rang nom club score } }`, map[string]any{"p": e2ePartieSim}, &serie)
	require.NotEmpty(t, serie.Classement)
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieSim+"?serie=1"))
	attendre(t, ctx, fmt.Sprintf(`document.querySelectorAll("#lignes tr").length === %d`, min(15, len(serie.Classement))), e2eAttente, "the série's standings")
	attendre(t, ctx, jsTexte("#titre", "série 1"), e2eAttente, "the série in the title")
}

func TestE2EDisplayUpdatesWhenACoupIsAnnounced(t *testing.T) {
	salle := ouvrirSalle(t)
	ctx := navigateur(t, 1600, 900)
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieLive))
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the live state")
	attendre(t, ctx, jsTexte("#top", "En attente du premier top"), e2eAttente, "the wait for the first top")
	attendre(t, ctx, fmt.Sprintf(`document.querySelectorAll("#lignes tr").length === %d`, 15), e2eAttente, "the game's players")
	executer(t, ctx, chromedp.Evaluate(`window.pasRecharge = true`, nil))

	for coup := 1; coup <= 2; coup++ {
		top := salle.directeur.jouerCoup(t, e2ePartieLive)
		require.Equal(t, coup, top.Coup)
		attendre(t, ctx, jsTexte("#top", topAffiche(top)), e2eAttente, fmt.Sprintf("coup %d's top", coup))
		attendre(t, ctx, jsTexte("#coup", fmt.Sprintf("Coup %d", coup+1)), e2eAttente, "the next coup's number")
		attendre(t, ctx, fmt.Sprintf(`document.querySelectorAll("svg.plateau .jeton.nouveau").length === %d`, len(top.Cases)),
			e2eAttente, "the new word highlighted")
	}
	var pasRecharge bool
	evaluer(t, ctx, `window.pasRecharge === true`, &pasRecharge)
	assert.True(t, pasRecharge, "the page updated without a reload")
}

func TestE2EDisplayRecoversAfterTheServerRestarts(t *testing.T) {
	salle := ouvrirSalle(t)
	relais := nouveauRelais(t, salle.addr)
	ctx := navigateur(t, 1600, 900)
	executer(t, ctx, chromedp.Navigate("http://"+relais.addr()+"/affichage/"+e2ePartieLive))
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the live state")
	premier := salle.directeur.jouerCoup(t, e2ePartieLive)
	attendre(t, ctx, jsTexte("#top", topAffiche(premier)), e2eAttente, "the first top")
	executer(t, ctx, chromedp.Evaluate(`window.pasRecharge = true`, nil))

	salle.serveur.stop()
	relais.couper()
	attendre(t, ctx, jsTexte("#etat", "reconnexion"), e2eAttente, "that the connection is lost")
	salle.redemarrer(t)

	second := salle.directeur.jouerCoup(t, e2ePartieLive)
	attendre(t, ctx, jsTexte("#top", topAffiche(second)), e2eAttente, "the top announced after the restart")
	attendre(t, ctx, jsTexte("#coup", "Coup 3"), e2eAttente, "the coup after the restart")
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the live state again")
	var pasRecharge bool
	evaluer(t, ctx, `window.pasRecharge === true`, &pasRecharge)
	assert.True(t, pasRecharge, "the page recovered without a reload")
}

// replayField is the query commission.js reads; the API adds it.
const replayField = "replay"

func TestE2ECommissionViewerRendersAReplayedCoup(t *testing.T) {
	salle := ouvrirSalle(t)
	require.True(t, salle.public.aLeChamp(t, replayField), "the API has no Query.replay(partie, coup) (introspection): the viewer has nothing to render")
	const coup = 5
	var d struct {
		Replay struct {
			Coup        int    `json:"coup"`
			DernierCoup int    `json:"dernierCoup"`
			Lexique     string `json:"lexique"`
			Tirage      string `json:"tirage"`
			Top         *e2eTop
			Solutions   []struct{ Mot string }
			Bulletins   []struct{ Licence string }
		} `json:"replay"`
	}
	commission := e2eAPI{url: salle.public.url, jeton: salle.commission}
	commission.exiger(t, `query($p: ID!, $c: Int!) { replay(partie: $p, coup: $c) { coup dernierCoup lexique tirage
		top { mot reference score cases } solutions { mot } bulletins { licence } } }`,
		map[string]any{"p": e2ePartieSim, "c": coup}, &d)
	require.NotNil(t, d.Replay.Top)

	ctx := navigateur(t, 1400, 1000)
	// Without a token the viewer asks for one and shows nothing.
	executer(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/commission/%s?coup=%d", salle.public.url, e2ePartieSim, coup)))
	attendre(t, ctx, `!document.getElementById("connexion").hidden && document.getElementById("contenu").hidden`, e2eAttente, "the token form")

	// A token in the address is ignored; the form takes it.
	executer(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/commission/%s?coup=%d&jeton=%s", salle.public.url, e2ePartieSim, coup, salle.commission)))
	attendre(t, ctx, `!document.getElementById("connexion").hidden && !location.search.includes("jeton")`, e2eAttente, "the token form, the address cleaned")
	entrerJeton(t, ctx, salle.commission)
	attendre(t, ctx, `!document.getElementById("contenu").hidden`, e2eAttente, "the replayed coup")
	attendre(t, ctx, jsTexte("#coup", fmt.Sprintf("coup %d / %d", coup, d.Replay.DernierCoup)), e2eAttente, "the coup number")
	attendre(t, ctx, jsTexte("#lexique", d.Replay.Lexique), e2eAttente, "the game's lexicon")
	attendre(t, ctx, jsTexte("#tirage", d.Replay.Tirage), e2eAttente, "the tirage")
	attendre(t, ctx, jsTexte("#top", d.Replay.Top.Mot), e2eAttente, "the retained top")
	attendre(t, ctx, fmt.Sprintf(`document.querySelectorAll("#solutions tr").length === %d`, len(d.Replay.Solutions)), e2eAttente, "the engine's solutions")
	attendre(t, ctx, fmt.Sprintf(`document.querySelectorAll("#bulletins tr").length === %d`, len(d.Replay.Bulletins)), e2eAttente, "the bulletins")
	attendre(t, ctx, `document.querySelectorAll("svg.plateau rect.case.tw").length > 0`, e2eAttente, "the board")
	var url string
	evaluer(t, ctx, `location.href`, &url)
	assert.NotContains(t, url, "jeton", "the token stays out of the address bar")
	var stockage []string
	evaluer(t, ctx, `[sessionStorage.getItem("arbitre.jeton"), localStorage.getItem("arbitre.jeton")]`, &stockage)
	assert.Equal(t, []string{salle.commission, ""}, stockage, "the token lives in this tab's sessionStorage only")

	// A reload of the tab keeps the session.
	executer(t, ctx, chromedp.Reload())
	attendre(t, ctx, jsTexte("#coup", fmt.Sprintf("coup %d / %d", coup, d.Replay.DernierCoup)), e2eAttente, "the coup after a reload")

	// Step to the next coup.
	executer(t, ctx, chromedp.Click("#suivant", chromedp.ByID))
	attendre(t, ctx, jsTexte("#coup", fmt.Sprintf("coup %d / %d", coup+1, d.Replay.DernierCoup)), e2eAttente, "the next coup")
}

func TestE2ENothingUnpublishedIsReachableFromTheDisplay(t *testing.T) {
	salle := ouvrirSalle(t)
	salle.directeur.exiger(t, `mutation($p: ID!) { tirer(partie: $p) { statut } }`, map[string]any{"p": e2ePartieLive}, nil)

	// The open tirage's solutions are unpublished until the top: refused
	// without a token, over HTTP and over the websocket.
	r := salle.public.requete(t, `query($p: ID!) { partie(id: $p) { coup solutions { mot } } }`, map[string]any{"p": e2ePartieLive})
	require.NotEmpty(t, r.Errors)
	assert.Equal(t, "UNAUTHENTICATED", r.code())
	assert.NotContains(t, string(r.Data["partie"]), `"mot"`)
	messages := abonnementSansJeton(t, "ws://"+salle.addr+"/graphql",
		`subscription($p: ID!) { coupAnnonce(partie: $p) { coup solutions { mot } } }`, map[string]any{"p": e2ePartieLive})
	assert.NotContains(t, messages, `"mot"`)
	assert.Contains(t, messages, "UNAUTHENTICATED")

	// The display sends no token and asks for no unpublished field.
	ctx := navigateur(t, 1600, 900)
	var mu sync.Mutex
	var requetes []map[string]any
	var trames []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requetes = append(requetes, ev.Request.Headers)
		case *network.EventWebSocketWillSendHandshakeRequest:
			requetes = append(requetes, ev.Request.Headers)
		case *network.EventWebSocketFrameSent:
			trames = append(trames, ev.Response.PayloadData)
		}
	})
	executer(t, ctx, network.Enable(), chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieLive))
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the live state")
	attendre(t, ctx, `document.querySelectorAll("#lignes tr").length > 0`, e2eAttente, "the standings")
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, f := range trames {
			if strings.Contains(f, `"subscribe"`) {
				n++
			}
		}
		return n >= 2
	}, e2eAttente, 50*time.Millisecond, "the browser reports the display's two subscriptions")
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, requetes)
	for _, h := range requetes {
		for k := range h {
			assert.NotEqual(t, "authorization", strings.ToLower(k), "the display sent a token")
		}
	}
	require.NotEmpty(t, trames, "the display subscribes over the websocket")
	for _, f := range trames {
		assert.NotContains(t, f, "Authorization")
		assert.NotContains(t, f, "Bearer")
		assert.NotContains(t, f, "solutions")
		assert.NotContains(t, f, "bulletins")
	}
	assert.NotContains(t, textePage(ctx), "Bearer")
}

// abonnementSansJeton subscribes over graphql-transport-ws without a token
// and returns what the server sent until the subscription ends or errs.
func abonnementSansJeton(t *testing.T, url, query string, vars map[string]any) string {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
	c, _, err := d.Dial(url, nil)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	require.NoError(t, c.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{}}))
	var ack struct{ Type string }
	require.NoError(t, c.ReadJSON(&ack))
	require.Equal(t, "connection_ack", ack.Type)
	require.NoError(t, c.WriteJSON(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}))
	var recu strings.Builder
	for {
		_, msg, err := c.ReadMessage()
		if err != nil {
			var ne net.Error
			require.True(t, errors.As(err, &ne) && ne.Timeout(), "websocket: %v", err)
			return recu.String()
		}
		recu.Write(msg)
		var m struct{ Type string }
		require.NoError(t, json.Unmarshal(msg, &m))
		if m.Type == "error" || m.Type == "complete" || strings.Contains(string(msg), "errors") {
			return recu.String()
		}
	}
}

// TestE2EScreenshots refreshes docs/screenshots/ when ARBITRE_SCREENSHOTS=1.
func TestE2EScreenshots(t *testing.T) {
	if os.Getenv("ARBITRE_SCREENSHOTS") != "1" {
		t.Skip("set ARBITRE_SCREENSHOTS=1 to refresh docs/screenshots/")
	}
	salle := ouvrirSalle(t)
	dir := filepath.Join("..", "..", "docs", "screenshots")
	require.NoError(t, os.MkdirAll(dir, 0o755))

	// The hall display at 1920×1080 and on a 1280×720 projector, a tirage
	// on the stand after a top.
	salle.directeur.jouerCoup(t, e2ePartieLive)
	salle.directeur.exiger(t, `mutation($p: ID!) { tirer(partie: $p) { version } }`, map[string]any{"p": e2ePartieLive}, nil)
	var png []byte
	for _, ecran := range []struct {
		largeur, hauteur int
		fichier          string
	}{{1920, 1080, "affichage.png"}, {1280, 720, "affichage-1280x720.png"}} {
		ctx := navigateur(t, ecran.largeur, ecran.hauteur)
		executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/"+e2ePartieLive))
		attendre(t, ctx, `document.querySelectorAll("#lignes tr").length > 0 && document.querySelectorAll("#tirage .tuile").length > 0`, e2eAttente, "the display")
		executer(t, ctx, chromedp.CaptureScreenshot(&png))
		require.NoError(t, os.WriteFile(filepath.Join(dir, ecran.fichier), png, 0o644))
	}

	ouvrirClassique(t, salle.directeur)
	consolesAuxTaillesDeLaSalle(t, salle, dir)
	ctx := navigateur(t, 1600, 900)
	executer(t, ctx, chromedp.Navigate(salle.public.url+"/affichage/classique/CL"))
	attendre(t, ctx, `document.querySelectorAll("#lignes tr").length === 4`, e2eAttente, "the classique display")
	executer(t, ctx, chromedp.CaptureScreenshot(&png))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "classique.png"), png, 0o644))

	require.True(t, salle.public.aLeChamp(t, replayField), "the API has no Query.replay: docs/screenshots/commission.png cannot be refreshed")
	ctx = navigateur(t, 1400, 1100)
	executer(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/commission/%s?coup=8", salle.public.url, e2ePartieSim)))
	attendre(t, ctx, `!document.getElementById("connexion").hidden`, e2eAttente, "the token form")
	entrerJeton(t, ctx, salle.commission)
	attendre(t, ctx, `!document.getElementById("contenu").hidden && !!document.querySelector("svg.plateau")`, e2eAttente, "the viewer")
	executer(t, ctx, chromedp.FullScreenshot(&png, 100))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "commission.png"), png, 0o644))
}

// consolesAuxTaillesDeLaSalle takes the consoles as their users see them on
// a 1920×1080 screen and on a 1280×720 one, the window only (what fits
// without scrolling): the director's tournament and game consoles, the
// arbiters' page, the per-coup score sheet, the commission's viewer and the
// classique TD console, each signed in with its token; <page>-<size>.png.
func consolesAuxTaillesDeLaSalle(t *testing.T, salle *e2eSalle, dir string) {
	t.Helper()
	arbitre := jetonArbitre(t, salle, "1-4")
	pages := []struct {
		nom, adresse, jeton, pret string
		action                    chromedp.Action
	}{
		{"directeur", "/directeur", salle.directeur.jeton, `!!document.querySelector('#tournois button[data-tournoi="` + e2eTournoi + `"]')`,
			chromedp.Click(`#tournois button[data-tournoi="`+e2eTournoi+`"]`, chromedp.ByQuery)},
		{"directeur-partie", "/directeur/partie/" + e2ePartieLive, salle.directeur.jeton, `document.querySelectorAll("#solutions tr").length > 0`, nil},
		{"saisie", "/arbitre/partie/" + e2ePartieSim, arbitre, `document.body.dataset.pret === "1" && document.querySelectorAll("#bulletins tr").length > 0`, nil},
		{"scores", "/scores/" + e2ePartieSim, arbitre, `document.body.dataset.pret === "1"`, nil},
		{"commission", "/commission/" + e2ePartieSim + "?coup=8", salle.commission, `!document.getElementById("contenu").hidden && !!document.querySelector("svg.plateau")`, nil},
		{"td", "/directeur/classique/CL", salle.directeur.jeton, `document.querySelectorAll("#tables-publiees tr").length > 0`, nil},
	}
	for _, ecran := range []struct{ largeur, hauteur int }{{1920, 1080}, {1280, 720}} {
		for _, p := range pages {
			ctx := navigateur(t, ecran.largeur, ecran.hauteur)
			executer(t, ctx, chromedp.Navigate(salle.public.url+p.adresse))
			entrerJeton(t, ctx, p.jeton)
			attendre(t, ctx, p.pret, e2eAttente, p.nom)
			if p.action != nil {
				executer(t, ctx, p.action)
				attendre(t, ctx, `!!document.getElementById("tournoi-titre").textContent`, e2eAttente, p.nom+": the tournament")
			}
			var png []byte
			executer(t, ctx, chromedp.CaptureScreenshot(&png))
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%dx%d.png", p.nom, ecran.largeur, ecran.hauteur)), png, 0o644))
		}
	}
}

// e2eTableClassique is a published table.
type e2eTableClassique struct {
	Numero                 int
	Premier, Second, Match string
}

// ouvrirClassique opens a 4-player classique tournament through the API and
// publishes its first round; it returns the round's tables.
func ouvrirClassique(t *testing.T, d e2eAPI) []e2eTableClassique {
	t.Helper()
	d.exiger(t, `mutation { ouvrirTournoiClassique(id:"CL", nom:"Classique de Vichy", rondes: 3) { nom } }`, nil, nil)
	for i, nom := range []string{"Ana", "Bea", "Cyr", "Dan"} {
		d.exiger(t, `mutation($j: ID!, $n: String!, $c: Int) { inscrireClassique(tournoi:"CL", joueur:$j, nom:$n, cote:$c) { nom } }`,
			map[string]any{"j": fmt.Sprintf("J%d", i+1), "n": nom, "c": 1500 - 100*i}, nil)
	}
	d.exiger(t, `mutation { etablirTetesDeSerie(tournoi:"CL") { nom } }`, nil, nil)
	d.exiger(t, `mutation { proposerRonde(tournoi:"CL", methode:initial_by_cote) { nom } }`, nil, nil)
	var tr struct {
		PublierRonde struct {
			Publiees []struct{ Tables []e2eTableClassique }
		}
	}
	d.exiger(t, `mutation { publierRonde(tournoi:"CL") { publiees { tables { numero premier second match } } } }`, nil, &tr)
	require.Len(t, tr.PublierRonde.Publiees, 1)
	require.Len(t, tr.PublierRonde.Publiees[0].Tables, 2)
	return tr.PublierRonde.Publiees[0].Tables
}

// The classique display shows the round's tables and the standings, and a
// result recorded through the API appears live.
func TestE2EClassiqueDisplayShowsTheRoundAndResults(t *testing.T) {
	salle := ouvrirSalle(t)
	d := salle.directeur
	tables := ouvrirClassique(t, d)

	ctx := navigateur(t, 1600, 900)
	executer(t, ctx, chromedp.Navigate(d.url+"/affichage/classique/CL"))
	attendre(t, ctx, `document.querySelectorAll("#tables tr").length === 2 && document.querySelectorAll("#lignes tr").length === 4`,
		e2eAttente, "the round's tables and the standings")
	attendre(t, ctx, jsTexte("#ronde", "Ronde 1 / 3"), e2eAttente, "the round number")
	attendre(t, ctx, jsTexte("#tables", "Ana"), e2eAttente, "the players' names")

	// A forfeit recorded through the API appears without a reload.
	table := tables[0]
	d.exiger(t, `mutation($t: ID!, $m: ID!) { creerMatch(tournoi:$t, match:$m) { phase } }`, map[string]any{"t": "CL", "m": table.Match}, nil)
	d.exiger(t, `mutation($m: ID!, $j: ID!) { declarerForfait(match:$m, joueur:$j) { phase } }`, map[string]any{"m": table.Match, "j": table.Second}, nil)
	d.exiger(t, `mutation($m: ID!) { enregistrerResultat(tournoi:"CL", match:$m) { nom } }`, map[string]any{"m": table.Match}, nil)
	attendre(t, ctx, jsTexte("#tables", "forfait"), e2eAttente, "the recorded result")
}
