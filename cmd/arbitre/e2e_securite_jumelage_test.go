package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/federation"
	"arbitre/domain/federation/command/liaison"
	"arbitre/projections/centres"
)

// paquetJumele writes the bundle of a site's game for twinning jumelage,
// with `arbitre centre export`.
func paquetJumele(t *testing.T, c *centreE2E, jumelage string) []byte {
	t.Helper()
	fichier := filepath.Join(t.TempDir(), c.nom+".zip")
	out, err := runArbitre(t, "centre", "export", "--data", c.data, "--epreuve", jumelage, "--centre", c.nom, "--partie", c.partie, "-o", fichier)
	require.NoError(t, err, out)
	data, err := os.ReadFile(fichier)
	require.NoError(t, err)
	return data
}

// falsifier rewrites a bundle as a lying site would: f changes the payload
// of the events it wants (it says whether it changed one), and the
// manifest's hash is computed again, so that the bundle passes its
// integrity check.
func falsifier(t *testing.T, paquet []byte, f func(typ string, donnees map[string]any) bool) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(paquet), int64(len(paquet)))
	require.NoError(t, err)
	var m centres.Manifeste
	var lignes []byte
	for _, fichier := range z.File {
		r, err := fichier.Open()
		require.NoError(t, err)
		contenu, err := io.ReadAll(r)
		require.NoError(t, err)
		if fichier.Name == centres.FichierManifeste {
			require.NoError(t, json.Unmarshal(contenu, &m))
		} else {
			lignes = contenu
		}
	}
	var sortie bytes.Buffer
	change := false
	for _, ligne := range bytes.Split(bytes.TrimSuffix(lignes, []byte("\n")), []byte("\n")) {
		var e eventstore.Event
		require.NoError(t, json.Unmarshal(ligne, &e))
		var donnees map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &donnees))
		if f(e.Type, donnees) {
			change = true
			e.Data, err = json.Marshal(donnees)
			require.NoError(t, err)
		}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		sortie.Write(append(b, '\n'))
	}
	require.True(t, change, "the lie changed an event")
	somme := sha256.Sum256(sortie.Bytes())
	m.SHA256 = hex.EncodeToString(somme[:])
	return paquetHostile(t, m, 0, sortie.Bytes())
}

// jouerSesTops plays coups of the centre's own software game: each tirage
// drawn by its bag, the first solution as its top.
func (c *centreE2E) jouerSesTops(t *testing.T, coups int) {
	t.Helper()
	for coup := 1; coup <= coups; coup++ {
		require.Empty(t, c.s.gql(c.directeur, `mutation($p: ID!) { tirer(partie:$p) { version } }`, map[string]any{"p": c.partie}).Errors)
		var sol apiPartie
		c.s.gql(c.directeur, `query($p: ID!) { partie(id:$p) { solutions { mot reference score } } }`, map[string]any{"p": c.partie}).into(t, "partie", &sol)
		require.NotEmpty(t, sol.Solutions)
		l := ligneFeuille{ref: sol.Solutions[0].Reference, mot: sol.Solutions[0].Mot, score: sol.Solutions[0].Score}
		c.deposer(t, coup, l, blancs)
		require.Empty(t, c.s.gql(c.directeur, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
			map[string]any{"p": c.partie, "r": l.ref, "m": l.mot}).Errors)
		c.corriger(t, coup)
	}
}

// TestSecurite_SatelliteMenteurRefuse: a twinned site's bundle is checked
// against the principal's own game before it is ranked (issue 28 item 4,
// guide §2.18): Vichy plays a 3-coup game at the principal, Lyon the same
// game honestly (ranked as it played). Sent with Lyon's centre token, a
// bundle of another game (its own tirages and tops), the honest bundle with
// a top or a bulletin's score changed and its hash computed again, a
// bundle where Lyon registered the principal's player V2, and Nice's
// bundle with Lyon's player L1 are each refused whole
// (INVALID_RESULTS, in French), nothing recorded, and refused as well
// when given to the public ranking classementJumele(paquets:): the twinned
// ranking still places Lyon's two players at their real scores, nobody
// else.
func TestSecurite_SatelliteMenteurRefuse(t *testing.T) {
	const coups = 3
	feuille := feuillePretiree(t, coups)
	vichy := ouvrirCentre(t, "Vichy", "V1", "V2", "V3")
	vichy.jouer(t, feuille, blancs)
	jumelageCLI(t, "creer", "--data", vichy.data, "--jumelage", "J1", "--formule", "1", "--principal", "Vichy", "--tournoi", "SIM",
		"--site", "Lyon", "--site", "Nice")
	jetonLyon := apiToken(t, vichy.data, "--role", "centre", "--tournoi", "J1", "--centre", "Lyon")
	jetonNice := apiToken(t, vichy.data, "--role", "centre", "--tournoi", "J1", "--centre", "Nice")
	envoyer := func(jeton string, paquet []byte) apiResult {
		return vichy.s.gql(jeton, `mutation($p: String!) { envoyerResultatsJumeles(paquet:$p) { centre joueurs } }`,
			map[string]any{"p": base64.StdEncoding.EncodeToString(paquet)})
	}
	classer := func(paquet []byte) apiResult {
		return vichy.s.gql("", `query($p: [String!]!) { classementJumele(jumelage:"J1", paquets:$p) { classement { licence } } }`,
			map[string]any{"p": []string{base64.StdEncoding.EncodeToString(paquet)}})
	}
	stream, err := streamname.JumelageStream("J1")
	require.NoError(t, err)
	recus := func() int {
		return countOf(typesDe(evenements(t, vichy.data, stream)), federation.TypeResultatsSiteRecus)
	}

	lyon := ouvrirCentre(t, "Lyon", "L1", "L2")
	lyon.jouer(t, feuille, blancs)
	honnete := paquetJumele(t, lyon, "J1")
	require.Empty(t, envoyer(jetonLyon, honnete).Errors, "Lyon played the principal's game")
	require.Empty(t, classer(honnete).Errors, "Lyon's bundle given to the ranking")
	require.Equal(t, 1, recus())

	autrePartie := demarrerCentre(t, "Lyon", "SIM", "SIM-1", startAPIServer, "L1", "L2")
	require.Empty(t, autrePartie.s.gql(autrePartie.directeur, `mutation { creerPartie(tournoi:"SIM", partie:"SIM-1", config:{source: logiciel, graine: 7}) { id } }`, nil).Errors)
	autrePartie.jouerSesTops(t, coups)
	avecV2 := ouvrirCentre(t, "Lyon", "L1", "V2")
	avecV2.jouer(t, feuille, blancs)
	avecL1 := ouvrirCentre(t, "Nice", "N1", "L1")
	avecL1.jouer(t, feuille, blancs)

	for _, tt := range []struct {
		nom, jeton string
		paquet     []byte
		message    string
	}{
		{"une autre partie, ses tirages et ses tops", jetonLyon, paquetJumele(t, autrePartie, "J1"), "tirage"},
		{"le top du coup 2 changé", jetonLyon, falsifier(t, honnete, func(typ string, d map[string]any) bool {
			if typ != duplicate.TypeTopRetenu || d["coup"] != 2.0 {
				return false
			}
			d["score"] = 128.0
			return true
		}), "top"},
		{"un bulletin au-dessus du top", jetonLyon, falsifier(t, honnete, func(typ string, d map[string]any) bool {
			if typ != duplicate.TypeBulletinCorrige || d["licence"] != "L1" || d["coup"] != 1.0 {
				return false
			}
			d["moteur"].(map[string]any)["paid"] = float64(feuille[0].score + 50)
			return true
		}), "au-dessus du top"},
		{"la licence d'un joueur du principal", jetonLyon, paquetJumele(t, avecV2, "J1"), "V2"},
		{"la licence d'un joueur d'un autre site", jetonNice, paquetJumele(t, avecL1, "J1"), "L1"},
	} {
		t.Run(tt.nom, func(t *testing.T) {
			r := envoyer(tt.jeton, tt.paquet)
			require.Equal(t, string(federation.CodeResultatsInvalides), r.code(), "%+v", r.Data)
			assert.Contains(t, r.Errors[0].Message, tt.message)
			assert.Equal(t, 1, recus(), "nothing recorded")
			r = classer(tt.paquet)
			require.Equal(t, string(federation.CodeResultatsInvalides), r.code(), "the bundle given to classementJumele: %+v", r.Data)
			assert.Contains(t, r.Errors[0].Message, tt.message)
		})
	}

	c1 := classementJumeleAPI(t, vichy.s, "J1")
	injectes := map[string]int{}
	for _, l := range c1.Classement {
		if l.Injecte {
			injectes[l.Licence] = l.Score
		}
	}
	attendu := map[string]int{}
	for _, licence := range lyon.licences {
		for _, p := range lyon.points[licence] {
			attendu[licence] += p
		}
	}
	assert.Equal(t, attendu, injectes, "Lyon's players at the scores they played, nobody else placed")
}

// fauxPrincipal is a malicious principal: an HTTP server answering the
// link's GraphQL queries (suiviJumelage names the twinning jumelage, the
// site and the games parties; each game's facts are a tirage at position 1)
// and counting what the site asks and sends; it refuses the live
// subscription.
type fauxPrincipal struct {
	*httptest.Server
	mu                     sync.Mutex
	suivis, faits, paquets int
}

func nouveauFauxPrincipal(t *testing.T, jumelage, site string, parties ...string) *fauxPrincipal {
	t.Helper()
	f := &fauxPrincipal{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query     string
			Variables map[string]any
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.NotFound(w, r)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		var data any
		switch {
		case strings.Contains(req.Query, "suiviJumelage"):
			f.suivis++
			data = map[string]any{"suiviJumelage": map[string]any{"jumelage": jumelage, "formule": 1, "principal": "Vichy", "site": site,
				"tournoi": "V", "parties": parties}}
		case strings.Contains(req.Query, "faitsPartie"):
			f.faits++
			faits := []any{}
			if depuis, _ := req.Variables["d"].(float64); depuis <= 1 {
				tirage, err := json.Marshal(duplicate.TirageEffectue{Coup: 1, Tirees: "AEINRST", Source: duplicate.SourceDirecteur})
				require.NoError(t, err)
				faits = append(faits, map[string]any{"position": 1, "type": duplicate.TypeTirageEffectue, "donnees": string(tirage)})
			}
			data = map[string]any{"faitsPartie": faits}
		case strings.Contains(req.Query, "envoyerResultatsJumeles"):
			f.paquets++
			data = map[string]any{"envoyerResultatsJumeles": map[string]any{"empreinte": "x"}}
		}
		require.NoError(t, json.NewEncoder(w).Encode(map[string]any{"data": data}))
	}))
	t.Cleanup(f.Close)
	return f
}

// compte reads what the site asked and sent so far.
func (f *fauxPrincipal) compte() (suivis, faits, paquets int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.suivis, f.faits, f.paquets
}

// TestSecurite_PrincipalMalveillant: a twinned site's link writes and
// reads only the games it created itself in the site's twinned tournament,
// and records the link's cuts only in the copy of the twinning it created
// itself, as the site's stored events tell, whatever the principal says
// (issue 28 item 5). A fake principal lists a game of the site's other,
// local tournament (LOCAL-1), or a game of the twinned tournament that the
// site's director created (LY-1), and sends a tirage for it; or it names
// J9, a twinning the site itself leads, whose site Nice is cut: the link
// refuses, saying why in its log; the game and the twinning hold no event
// of the link, nobody's tournament changes, the principal is never asked
// the game's facts nor sent its bundle.
func TestSecurite_PrincipalMalveillant(t *testing.T) {
	for _, tt := range []struct {
		nom, tournoi, partie, jumelage, site, refus string
	}{
		{"une partie d'un autre tournoi du site", "LOC", "LOCAL-1", "J1", "Lyon", "n'est pas une partie que la liaison a créée"},
		{"une partie du tournoi jumelé créée par son directeur", "LY", "LY-1", "J1", "Lyon", "n'est pas une partie que la liaison a créée"},
		{"un jumelage que le site mène lui-même", "LY", "LY-1", "J9", "Nice", "n'est pas la copie du jumelage que la liaison a créée"},
	} {
		t.Run(tt.nom, func(t *testing.T) {
			data := t.TempDir()
			directeur := apiToken(t, data, "--role", "director")
			s := startAPIServer(t, data)
			for _, id := range []string{"LY", "LOC"} {
				require.Empty(t, s.gql(directeur, `mutation($t: ID!) { creerTournoi(id:$t, nom:"Tournoi", homologue: false) { id } }`, map[string]any{"t": id}).Errors)
				require.Empty(t, s.gql(directeur, `mutation($t: ID!, $j: JoueurInput!) { inscrireJoueur(tournoi:$t, joueur:$j) { version } }`,
					map[string]any{"t": id, "j": map[string]any{"licence": id + "1", "nom": "Joueur " + id, "club": "Lyon", "serie": "3A", "table": 1}}).Errors)
			}
			require.Empty(t, s.gql(directeur, `mutation($t: ID!, $p: ID!) { creerPartie(tournoi:$t, partie:$p, config:{source: directeur}) { id } }`,
				map[string]any{"t": tt.tournoi, "p": tt.partie}).Errors)
			s.stop()
			// The site leads its own twinning J9, its site Nice cut.
			jumelageCLI(t, "creer", "--data", data, "--jumelage", "J9", "--formule", "2", "--principal", "Lyon", "--tournoi", "LY", "--site", "Nice")
			jumelageCLI(t, "coupure", "--data", data, "--jumelage", "J9", "--site", "Nice", "--partie", "LY-1")
			flux := map[string]string{}
			var err error
			for _, id := range []string{"LY", "LOC"} {
				flux[id], err = streamname.TournoiStream(id)
				require.NoError(t, err)
			}
			flux[tt.partie], err = streamname.PartieStream(tt.partie)
			require.NoError(t, err)
			flux["J9"], err = streamname.JumelageStream("J9")
			require.NoError(t, err)
			avant := map[string][]eventstore.Event{}
			for nom, f := range flux {
				avant[nom] = evenements(t, data, f)
			}

			faux := nouveauFauxPrincipal(t, tt.jumelage, tt.site, tt.partie)
			journal := &e2eJournal{}
			log := slog.New(slog.NewTextHandler(journal, &slog.HandlerOptions{Level: slog.LevelWarn}))
			f := satelliteFlags{principal: faux.URL, jeton: "arb_jeton-du-faux-principal", tournoi: "LY"}
			require.NoError(t, f.verifier())
			s = startAPIServerWith(t, data, log, sansLimite, f.configurer(log))
			t.Cleanup(s.stop)
			require.Eventually(t, func() bool { suivis, _, _ := faux.compte(); return suivis >= 2 }, 20*time.Second, 20*time.Millisecond,
				"the link tries again after its first session")

			for nom, f := range flux {
				apres := evenements(t, data, f)
				for _, e := range apres {
					assert.NotEqual(t, liaison.Acteur, e.Metadata.Actor, "%s: an event of the link (%s)", nom, e.Type)
				}
				assert.Equal(t, typesDe(avant[nom]), typesDe(apres), "%s: nothing written", nom)
			}
			_, faits, paquets := faux.compte()
			assert.Zero(t, faits, "the game's facts are not asked")
			assert.Zero(t, paquets, "the game's bundle is not sent")
			assert.Contains(t, journal.String(), tt.refus)
		})
	}
}
