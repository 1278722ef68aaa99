package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/federation"
)

// piege is what relaisPiege does to the next sending of a site's results.
type piege int32

const (
	sansPiege piege = iota
	// coupeEnPleinPaquet forwards the request up to the bundle's first
	// bytes and cuts the connection: the principal never gets it whole.
	coupeEnPleinPaquet
	// reponsePerdue forwards the whole request and cuts the connection
	// when the principal answers: it recorded the bundle, the site was
	// never told.
	reponsePerdue
)

// relaisPiege is a relay on loopback from a site to its principal that
// springs a trap once on the next sending of the site's results
// (envoyerResultatsJumeles) and counts the cuts it made.
type relaisPiege struct {
	ln     net.Listener
	cible  string
	arme   atomic.Int32
	coupes atomic.Int32
}

func nouveauRelaisPiege(t *testing.T, cible string) *relaisPiege {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r := &relaisPiege{ln: ln, cible: cible}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go r.relayer(c)
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return r
}

func (r *relaisPiege) addr() string { return r.ln.Addr().String() }

// armer sets the trap for the next sending.
func (r *relaisPiege) armer(p piege) { r.arme.Store(int32(p)) }

var marqueEnvoi = []byte("envoyerResultatsJumeles")

func (r *relaisPiege) relayer(c net.Conn) {
	s, err := net.DialTimeout("tcp", r.cible, time.Second)
	if err != nil {
		c.Close()
		return
	}
	fermer := sync.OnceFunc(func() { c.Close(); s.Close() })
	defer fermer()
	var perdre atomic.Bool // the next answer on this connection is lost
	go func() {
		defer fermer()
		buf := make([]byte, 64<<10)
		for {
			n, err := c.Read(buf)
			if n > 0 {
				morceau := buf[:n]
				if i := bytes.Index(morceau, marqueEnvoi); i >= 0 {
					switch piege(r.arme.Swap(int32(sansPiege))) {
					case coupeEnPleinPaquet:
						_, _ = s.Write(morceau[:i+len(marqueEnvoi)])
						r.coupes.Add(1)
						return
					case reponsePerdue:
						perdre.Store(true)
					}
				}
				if _, err := s.Write(morceau); err != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := s.Read(buf)
		if n > 0 {
			if perdre.Load() {
				r.coupes.Add(1)
				return
			}
			if _, err := c.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Issue 32 item 3: a satellite's link cut in the middle of a sending of
// its results (guide §2.18.1.C), two ways: the bundle cut before the
// principal got it whole, and the principal's answer lost after it
// recorded the bundle. Each time the site sends it again (same key, the
// hash of its results) until the principal answers: the principal holds
// the site's latest results, each sending recorded once, none lost.
func TestFiabilite_LiaisonCoupeeEnPleinEnvoiDeResultats(t *testing.T) {
	vichy := demarrerCentre(t, "Vichy", "V", "V-1", func(t *testing.T, data string) *apiServer {
		return startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), sansLimite)
	}, "V1", "V2")
	jumelageCLI(t, "creer", "--data", vichy.data, "--jumelage", "J1", "--formule", "1", "--principal", "Vichy", "--tournoi", "V", "--site", "Lyon")
	relais := nouveauRelaisPiege(t, strings.TrimPrefix(vichy.s.url, "http://"))
	lyon := demarrerCentre(t, "Lyon", "LY", "V-1", satelliteDe(relais, apiToken(t, vichy.data, "--role", "centre", "--tournoi", "J1", "--centre", "Lyon"), "LY"), "L1")
	require.Empty(t, vichy.s.gql(vichy.directeur, `mutation { creerPartie(tournoi:"V", partie:"V-1", config:{source: logiciel, graine: 3}) { id } }`, nil).Errors)
	lyon.attendreCoup(t, 1, "attente_tirage")
	j1, err := streamname.JumelageStream("J1")
	require.NoError(t, err)
	recus := func() []federation.ResultatsSiteRecus {
		var out []federation.ResultatsSiteRecus
		for _, e := range evenements(t, vichy.data, j1) {
			if e.Type == federation.TypeResultatsSiteRecus {
				var r federation.ResultatsSiteRecus
				require.NoError(t, json.Unmarshal(e.Data, &r))
				out = append(out, r)
			}
		}
		return out
	}

	total := 0
	for coup, p := range []piege{coupeEnPleinPaquet, reponsePerdue} {
		coup++
		require.Empty(t, vichy.s.gql(vichy.directeur, `mutation { tirer(partie:"V-1") { version } }`, nil).Errors, "coup %d", coup)
		var sol apiPartie
		vichy.s.gql(vichy.directeur, `{ partie(id:"V-1") { solutions { mot reference score } } }`, nil).into(t, "partie", &sol)
		top := sol.Solutions[0]
		require.Empty(t, vichy.s.gql(vichy.directeur, `mutation($r: String!, $m: String!) { retenirTop(partie:"V-1", reference:$r, mot:$m) { version } }`,
			map[string]any{"r": top.Reference, "m": top.Mot}).Errors)
		lyon.attendreCoup(t, coup, "top")

		relais.armer(p)
		coupes := relais.coupes.Load()
		require.Empty(t, lyon.s.gql(lyon.arbitre, `mutation($c: Int!, $b: BulletinInput!) { deposerBulletin(partie:"V-1", coup:$c, licence:"L1", bulletin:$b) { licence } }`,
			map[string]any{"c": coup, "b": map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}}).Errors)
		lyon.corriger(t, coup)
		total += top.Score
		require.Eventually(t, func() bool {
			r := recus()
			if len(r) == 0 {
				return false
			}
			dernier := r[len(r)-1].Resultats
			return len(dernier.Joueurs) == 1 && dernier.Joueurs[0].Score == total
		}, 30*time.Second, 50*time.Millisecond, "coup %d: the principal gets Lyon's results (%d points)", coup, total)
		// The lost answer is counted when the relay reads it, which may
		// come after the principal recorded the results.
		require.Eventually(t, func() bool { return relais.coupes.Load() > coupes }, 30*time.Second, 10*time.Millisecond, "coup %d: the link is cut in the sending", coup)
		assert.Equal(t, coupes+1, relais.coupes.Load(), "coup %d: the link was cut once in the sending", coup)
	}

	empreintes := map[string]int{}
	t.Logf("%d cuts in a sending, %d sendings recorded by the principal", relais.coupes.Load(), len(recus()))
	for _, r := range recus() {
		empreintes[r.Empreinte]++
	}
	for e, n := range empreintes {
		assert.Equal(t, 1, n, "results %s recorded once", e)
	}
}
