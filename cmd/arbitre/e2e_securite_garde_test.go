package main

// End-to-end tests of issue 27: hostile GraphQL documents sent to a real
// `arbitre serve` in a process of its own, whose memory (VmRSS) and
// /healthz are watched while each attack runs.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// delaiHostile is the longest a hostile request waits for its refusal.
const delaiHostile = 5 * time.Second

// surveillance watches a server in a process of its own during an attack:
// its resident memory, read in /proc every 10 ms, and /healthz, asked every
// 100 ms with a second to answer.
type surveillance struct {
	s          *apiServer
	rssMax     atomic.Int64
	tue        atomic.Bool
	santeRatee atomic.Int64
	fin        chan struct{}
	finis      sync.WaitGroup
}

func surveiller(t *testing.T, s *apiServer) *surveillance {
	t.Helper()
	require.NotZero(t, s.pid, "a server in a process of its own")
	v := &surveillance{s: s, fin: make(chan struct{})}
	v.finis.Add(2)
	go func() {
		defer v.finis.Done()
		for {
			if rss := vmRSS(s.pid); rss > v.rssMax.Load() {
				v.rssMax.Store(rss)
				if rss > memoireMaxAdmise && !v.tue.Swap(true) { // killed at once: the machine is shared
					s.tuer()
					return
				}
			}
			select {
			case <-v.fin:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	go func() {
		defer v.finis.Done()
		client := &http.Client{Timeout: time.Second}
		for {
			resp, err := client.Get(s.url + "/healthz")
			if err == nil {
				resp.Body.Close()
			}
			if (err != nil || resp.StatusCode != http.StatusOK) && !v.tue.Load() {
				v.santeRatee.Add(1)
			}
			select {
			case <-v.fin:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return v
}

// verifier stops the watch and fails the test if the server went over
// memoireMaxAdmise or /healthz did not answer; it logs the memory it reached.
func (v *surveillance) verifier(t *testing.T, attaque string) {
	t.Helper()
	close(v.fin)
	v.finis.Wait()
	t.Logf("%s : VmRSS max %d Mo", attaque, v.rssMax.Load()>>20)
	assert.False(t, v.tue.Load(), "%s: the server went over %d MB and was killed", attaque, memoireMaxAdmise>>20)
	assert.Less(t, v.rssMax.Load(), int64(memoireMaxAdmise), attaque)
	assert.Zero(t, v.santeRatee.Load(), "%s: /healthz did not answer within a second", attaque)
}

// vmRSS is the resident memory of process pid, in bytes (0 once it ended).
func vmRSS(pid int) int64 { return statutProcessus(pid, "VmRSS:") }

// hostile sends query to the server, by POST or by GET as a page of any
// origin can, and returns its answer or the error of a request that got
// none within delaiHostile.
func hostile(s *apiServer, methode, query string) (apiResult, time.Duration, error) {
	client := &http.Client{Timeout: delaiHostile}
	var req *http.Request
	var err error
	if methode == http.MethodGet {
		req, err = http.NewRequest(http.MethodGet, s.url+"/graphql?query="+url.QueryEscape(query), nil)
	} else {
		var body []byte
		body, err = json.Marshal(map[string]any{"query": query})
		if err == nil {
			req, err = http.NewRequest(http.MethodPost, s.url+"/graphql", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
		}
	}
	if err != nil {
		return apiResult{}, 0, err
	}
	debut := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return apiResult{}, time.Since(debut), err
	}
	defer resp.Body.Close()
	var out apiResult
	err = json.NewDecoder(resp.Body).Decode(&out)
	return out, time.Since(debut), err
}

// fragmentsEnChaine is `query{...F0}` and fragments F0…F(n-1), each
// spreading the next largeur times, the last selecting serveur{version}.
func fragmentsEnChaine(n, largeur int) string {
	var b strings.Builder
	b.WriteString("query{...F0}")
	for i := range n {
		fmt.Fprintf(&b, " fragment F%d on Query{", i)
		if i == n-1 {
			b.WriteString("serveur{version}")
		} else {
			b.WriteString(strings.TrimSpace(strings.Repeat(fmt.Sprintf("...F%d ", i+1), largeur)))
		}
		b.WriteString("}")
	}
	return b.String()
}

// champsRepetes is one selection of n fields sharing one response key.
func champsRepetes(n int, champ func(i int) string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		b.WriteString(champ(i))
		b.WriteString(" ")
	}
	b.WriteString("}")
	return b.String()
}

// Issue 27 items 1, 2 and 5: documents of a few kilobytes whose expansion
// (fragments spreading fragments, one response key repeated) exhausted the
// server's memory or burned its CPU for hours are refused, with their
// code, before gqlgen parses and validates them; the server stays under
// memoireMaxAdmise and answers /healthz meanwhile.
func TestSecurite_DocumentsHostiles(t *testing.T) {
	for _, tc := range []struct {
		nom, methode, query, code string
	}{
		{"item 1: 30 fragments nested, each spreading the next", http.MethodPost, fragmentsEnChaine(31, 1), "QUERY_TOO_DEEP"},
		{"item 1: the same by GET, as any page can", http.MethodGet, fragmentsEnChaine(31, 1), "QUERY_TOO_DEEP"},
		{"item 2: 40 fragments, each spreading the next twice", http.MethodPost, fragmentsEnChaine(40, 2), "QUERY_TOO_LARGE"},
		{"item 2: 7 fragments, each spreading the next 16 times", http.MethodPost, fragmentsEnChaine(7, 16), "QUERY_TOO_LARGE"},
		{"item 5: 2,000 aliases of one key", http.MethodPost,
			champsRepetes(2000, func(i int) string { return fmt.Sprintf(`a: partie(id:"%d"){id}`, i) }), "QUERY_TOO_LARGE"},
		{"item 5: 2,000 fields of one name", http.MethodPost,
			champsRepetes(2000, func(i int) string { return fmt.Sprintf(`partie(id:"%d"){id}`, i) }), "QUERY_TOO_LARGE"},
	} {
		t.Run(tc.nom, func(t *testing.T) {
			s := serveProcessus(t, t.TempDir(), "--rate", "0")
			v := surveiller(t, s)
			res, duree, err := hostile(s, tc.methode, tc.query)
			v.verifier(t, fmt.Sprintf("%s (%d octets, %s)", tc.nom, len(tc.query), duree.Round(time.Millisecond)))
			require.NoError(t, err, "answered within %s", delaiHostile)
			assert.Equal(t, tc.code, res.code(), "%+v", res.Errors)
			assert.Len(t, res.Errors, 1)
			assert.Nil(t, res.Data)
			assert.Empty(t, s.gql("", `{ serveur { version } }`, nil).Errors, "the server still answers")
		})
	}
}

// Issue 27 items 1 and 3, from a browser: a page of another origin, as a
// phone in the hall may open, sends item 1's query by GET (a simple
// request, sent without preflight) and opens a websocket to the server.
// The query is refused before it costs anything (the server's memory is
// watched) and the websocket never opens.
func TestSecurite_PageDUneAutreOrigine(t *testing.T) {
	s := serveProcessus(t, t.TempDir(), "--rate", "0")
	cible, _ := json.Marshal(map[string]string{
		"get": s.url + "/graphql?query=" + url.QueryEscape(fragmentsEnChaine(31, 1)),
		"ws":  strings.Replace(s.url, "http", "ws", 1) + "/graphql",
	})
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>page hostile</title><script>
const cible = %s;
window.resultat = {};
fetch(cible.get, {mode: "no-cors"}).then(() => { window.resultat.get = "envoyée"; }, () => { window.resultat.get = "échouée"; });
const ws = new WebSocket(cible.ws, "graphql-transport-ws");
ws.onopen = () => { window.resultat.ws = "ouvert"; };
ws.onclose = () => { window.resultat.ws = window.resultat.ws || "refusé"; };
</script>`, cible)
	}))
	defer page.Close()
	nav := navigateur(t, 800, 600)
	v := surveiller(t, s)
	executer(t, nav, chromedp.Navigate(strings.Replace(page.URL, "127.0.0.1", "localhost", 1)))
	attendre(t, nav, `window.resultat && window.resultat.get !== undefined && window.resultat.ws !== undefined`, delaiHostile, "the GET answered and the websocket settled")
	v.verifier(t, "GET et websocket depuis une page d'une autre origine")
	var resultat map[string]string
	evaluer(t, nav, `window.resultat`, &resultat)
	assert.Equal(t, "envoyée", resultat["get"], "the server answered the GET")
	assert.Equal(t, "refusé", resultat["ws"], "the websocket of another origin is refused")
	assert.Empty(t, s.gql("", `{ serveur { version } }`, nil).Errors, "the server still answers")
}
