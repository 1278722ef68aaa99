package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
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
// (RESULTATS_INVALIDES, in French), nothing recorded: the twinned ranking
// still places Lyon's two players at their real scores, nobody else.
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
	stream, err := eventstore.JumelageStream("J1")
	require.NoError(t, err)
	recus := func() int {
		return countOf(typesDe(evenements(t, vichy.data, stream)), federation.TypeResultatsSiteRecus)
	}

	lyon := ouvrirCentre(t, "Lyon", "L1", "L2")
	lyon.jouer(t, feuille, blancs)
	honnete := paquetJumele(t, lyon, "J1")
	require.Empty(t, envoyer(jetonLyon, honnete).Errors, "Lyon played the principal's game")
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
