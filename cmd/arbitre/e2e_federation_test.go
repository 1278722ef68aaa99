package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/domain/federation"
)

// ligneFeuille is a line of a pre-drawn sheet (guide §2.17): the new
// letters of the coup (those of a tirage the rules reject first, separated
// by a space) and its top.
type ligneFeuille struct {
	reliquat, tirees, ref, mot string
	score                      int
}

// feuillePretiree draws a sheet of n coups as the federation does before
// the event: a game on the seeded bag, whose new letters per coup (the
// tirage less the reliquat left on the stand) and tops are written down.
func feuillePretiree(t *testing.T, n int) []ligneFeuille {
	t.Helper()
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(directeur, `mutation { creerTournoi(id:"F", nom:"Tirage fédéral", homologue: false) { id } }`, nil).Errors)
	var p apiPartie
	s.gql(directeur, `mutation { creerPartie(tournoi:"F", partie:"F-1", config:{source: logiciel, graine: 3}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	var feuille []ligneFeuille
	reliquat := ""
	for range n {
		s.gql(directeur, `mutation { tirer(partie:"F-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
		avant := append([]string(nil), p.Grille...)
		tirage := p.Tirage
		require.Len(t, moinsLettres(tirage, reliquat), len(tirage)-len(reliquat), "a sheet whose reliquats stay on the stand (no rejet, §3.2)")
		var sol apiPartie
		s.gql(directeur, `{ partie(id:"F-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &sol)
		require.NotEmpty(t, sol.Solutions)
		top := sol.Solutions[0]
		feuille = append(feuille, ligneFeuille{reliquat: reliquat, tirees: moinsLettres(tirage, reliquat), ref: top.Reference, mot: top.Mot, score: top.Score})
		s.gql(directeur, `mutation($r: String!, $m: String!) { retenirTop(partie:"F-1", reference:$r, mot:$m) { `+partieFields+` } }`,
			map[string]any{"r": top.Reference, "m": top.Mot}).into(t, "retenirTop", &p)
		reliquat = moinsLettres(tirage, posees(avant, p.Grille))
	}
	return feuille
}

// posees are the tiles a top put on the grid, a joker as '?'.
func posees(avant, apres []string) string {
	var out strings.Builder
	for i := range apres {
		for j := range apres[i] {
			if avant[i][j] == '.' && apres[i][j] != '.' {
				if c := apres[i][j]; c >= 'a' && c <= 'z' {
					out.WriteByte('?')
				} else {
					out.WriteByte(c)
				}
			}
		}
	}
	return out.String()
}

// moinsLettres removes the letters of b from a, one for one.
func moinsLettres(a, b string) string {
	reste := []byte(a)
	for _, c := range []byte(b) {
		for i, r := range reste {
			if r == c {
				reste = append(reste[:i], reste[i+1:]...)
				break
			}
		}
	}
	return string(reste)
}

// centreE2E is one centre's own server, its director and arbiter, its
// tournament and game, its players and what each scored per coup in its
// hall.
type centreE2E struct {
	nom             string
	s               *apiServer
	data            string
	directeur       string
	arbitre         string
	tournoi, partie string
	licences        []string
	points          map[string][]int
}

// ouvrirCentre starts a centre's server on its own data directory,
// registers its players (séries 3A and 3B, alternately) and creates the
// pre-drawn game.
func ouvrirCentre(t *testing.T, nom string, licences ...string) *centreE2E {
	t.Helper()
	c := demarrerCentre(t, nom, "SIM", "SIM-1", startAPIServer, licences...)
	require.Empty(t, c.s.gql(c.directeur, `mutation { creerPartie(tournoi:"SIM", partie:"SIM-1", config:{source: pretiree}) { id } }`, nil).Errors)
	return c
}

// demarrerCentre starts a centre's server with demarrer on its own data
// directory, creates its tournament and registers its players (séries 3A
// and 3B, alternately); partie is the game it will play.
func demarrerCentre(t *testing.T, nom, tournoi, partie string, demarrer func(*testing.T, string) *apiServer, licences ...string) *centreE2E {
	t.Helper()
	c := &centreE2E{nom: nom, data: t.TempDir(), tournoi: tournoi, partie: partie, points: map[string][]int{}}
	c.directeur = apiToken(t, c.data, "--role", "director")
	c.arbitre = apiToken(t, c.data, "--role", "arbiter", "--tournoi", tournoi)
	c.s = demarrer(t, c.data)
	t.Cleanup(c.s.stop)
	require.Empty(t, c.s.gql(c.directeur, `mutation($t: ID!) { creerTournoi(id:$t, nom:"Tournoi", homologue: false) { id } }`, map[string]any{"t": tournoi}).Errors)
	for i, l := range licences {
		c.licences = append(c.licences, l)
		require.Empty(t, c.s.gql(c.directeur, `mutation($t: ID!, $j: JoueurInput!) { inscrireJoueur(tournoi:$t, joueur:$j) { version } }`,
			map[string]any{"t": tournoi, "j": map[string]any{"licence": l, "nom": "Joueur " + l, "club": nom, "serie": []string{"3A", "3B"}[i%2], "table": i + 1}}).Errors)
	}
	return c
}

// jouer plays the sheet in the centre's hall: the director types each
// coup's letters from the sheet and announces its top; a player whose
// blanc(coup, licence) is true hands in a blank bulletin, the others the top.
func (c *centreE2E) jouer(t *testing.T, feuille []ligneFeuille, blanc func(coup int, licence string) bool) {
	t.Helper()
	for k, l := range feuille {
		coup := k + 1
		for _, lettres := range strings.Fields(l.tirees) { // a tirage the rules reject, then the one kept (§3.2)
			require.Empty(t, c.s.gql(c.directeur, `mutation($p: ID!, $l: String) { tirer(partie:$p, lettres:$l) { version } }`,
				map[string]any{"p": c.partie, "l": lettres}).Errors, "%s coup %d", c.nom, coup)
		}
		c.deposer(t, coup, l, blanc)
		require.Empty(t, c.s.gql(c.directeur, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
			map[string]any{"p": c.partie, "r": l.ref, "m": l.mot}).Errors, "%s coup %d: the sheet's top", c.nom, coup)
		c.corriger(t, coup)
	}
}

// deposer hands in the players' bulletins of a coup: blank when
// blanc(coup, licence), the top otherwise.
func (c *centreE2E) deposer(t *testing.T, coup int, l ligneFeuille, blanc func(coup int, licence string) bool) {
	t.Helper()
	for _, licence := range c.licences {
		b := map[string]any{"solutions": []any{map[string]any{"word": l.mot, "ref": l.ref, "score": l.score}}}
		points := l.score
		if blanc(coup, licence) {
			b, points = map[string]any{"blank": true}, 0
		}
		c.points[licence] = append(c.points[licence], points)
		require.Empty(t, c.s.gql(c.arbitre, `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"p": c.partie, "c": coup, "l": licence, "b": b}).Errors, "%s coup %d", c.nom, coup)
	}
}

// corriger confirms the engine's correction of every bulletin of a coup.
func (c *centreE2E) corriger(t *testing.T, coup int) {
	t.Helper()
	for _, licence := range c.licences {
		require.Empty(t, c.s.gql(c.arbitre, `mutation($p: ID!, $c: Int!, $l: ID!) { corrigerBulletin(partie:$p, coup:$c, licence:$l) { licence } }`,
			map[string]any{"p": c.partie, "c": coup, "l": licence}).Errors, "%s coup %d", c.nom, coup)
	}
}

// blancs are the coups a player hands in blank: the same in every hall.
func blancs(coup int, licence string) bool { return (coup+int(licence[len(licence)-1]))%3 == 0 }

// exporter writes the centre's bundle with `arbitre centre export`.
func (c *centreE2E) exporter(t *testing.T, args ...string) string {
	t.Helper()
	fichier := filepath.Join(t.TempDir(), c.nom+".zip")
	out, err := runArbitre(t, append([]string{"centre", "export", "--data", c.data, "--epreuve", "SIM-2026", "--centre", c.nom,
		"--partie", c.partie, "-o", fichier}, args...)...)
	require.NoError(t, err, out)
	return fichier
}

// TestE2ECentres_Guide2_17_TroisCentresUnHorsLigne: one pre-drawn
// game played in three centres on their own servers (guide §2.17); Lyon
// and Brest send their bundles online to the federation's server with
// their centre's token (sent twice: recorded once; another centre's bundle
// or event: FORBIDDEN), Nice, offline, has its bundle carried and imported
// (twice, without effect; a damaged one is refused whole); Brest annulled
// coup 2 after an incident, its players get the other centres' average per
// série for it (§2.17.2); the national ranking merges every centre and each
// centre's hall scores stand.
func TestE2ECentres_Guide2_17_TroisCentresUnHorsLigne(t *testing.T) {
	const coups = 4
	feuille := feuillePretiree(t, coups)
	centres := []*centreE2E{ouvrirCentre(t, "Lyon", "L1", "L2", "L3"), ouvrirCentre(t, "Nice", "N1", "N2"), ouvrirCentre(t, "Brest", "B1", "B2")}
	for _, c := range centres {
		c.jouer(t, feuille, blancs)
	}

	federationData := t.TempDir()
	out, err := runArbitre(t, "centre", "ouvrir", "--data", federationData, "--init", "--epreuve", "SIM-2026", "--nom", "Simultané de France", "--coups", fmt.Sprint(coups))
	require.NoError(t, err, out)
	jetonLyon := apiToken(t, federationData, "--role", "centre", "--tournoi", "SIM-2026", "--centre", "Lyon")
	jetonBrest := apiToken(t, federationData, "--role", "centre", "--tournoi", "SIM-2026", "--centre", "Brest")
	jetonAutre := apiToken(t, federationData, "--role", "centre", "--tournoi", "AUTRE", "--centre", "Lyon")
	fed := startAPIServer(t, federationData)
	defer fed.stop()
	lyon, nice := centres[0].exporter(t), centres[1].exporter(t)
	brest := centres[2].exporter(t, "--coup-annule", "2")

	envoyer := `mutation($p: String!, $id: String) { envoyerResultatsCentre(paquet:$p, clientMutationId:$id) { epreuve centre joueurs empreinte } }`
	en64 := func(f string) string {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		return base64.StdEncoding.EncodeToString(data)
	}
	assert.Equal(t, "UNAUTHENTICATED", fed.gql("", envoyer, map[string]any{"p": en64(lyon)}).code())
	assert.Equal(t, "FORBIDDEN", fed.gql(jetonLyon, envoyer, map[string]any{"p": en64(brest)}).code(), "the centre is the token's")
	assert.Equal(t, "FORBIDDEN", fed.gql(jetonAutre, envoyer, map[string]any{"p": en64(lyon)}).code(), "the event is the token's")
	assert.Equal(t, "INVALID_INPUT", fed.gql(jetonLyon, envoyer, map[string]any{"p": "pas du base64"}).code())
	var recu struct {
		Epreuve, Centre, Empreinte string
		Joueurs                    int
	}
	for _, envoi := range []struct{ jeton, fichier, id string }{
		{jetonLyon, lyon, "lyon-1"}, {jetonLyon, lyon, "lyon-1"}, {jetonLyon, lyon, "lyon-2"}, {jetonBrest, brest, "brest-1"},
	} {
		fed.gql(envoi.jeton, envoyer, map[string]any{"p": en64(envoi.fichier), "id": envoi.id}).into(t, "envoyerResultatsCentre", &recu)
	}
	assert.Equal(t, "Brest", recu.Centre)
	assert.Equal(t, 2, recu.Joueurs)

	// A damaged bundle is refused whole.
	data, err := os.ReadFile(nice)
	require.NoError(t, err)
	abime := filepath.Join(t.TempDir(), "abime.zip")
	require.NoError(t, os.WriteFile(abime, data[:len(data)-40], 0o644))
	_, err = runArbitre(t, "centre", "import", "--data", federationData, abime)
	require.Error(t, err)
	assert.Equal(t, federation.CodePaquetCorrompu, erreur.CodeOf(err))

	for _, f := range []string{nice, nice} {
		out, err := runArbitre(t, "centre", "import", "--data", federationData, f)
		require.NoError(t, err, out)
	}
	out, err = runArbitre(t, "centre", "classement", "--data", federationData, "--epreuve", "SIM-2026")
	require.NoError(t, err, out)
	var national federation.National
	require.NoError(t, json.Unmarshal([]byte(out), &national))
	assert.Equal(t, []string{"Lyon", "Brest", "Nice"}, national.Centres, "each sent or imported twice: once")
	assert.Equal(t, map[string]federation.Origine{"Lyon": federation.OrigineEnLigne, "Brest": federation.OrigineEnLigne,
		"Nice": federation.OrigineFichier}, national.Origines)

	// The expected figures: each centre's hall standings; Brest's coup 2
	// replaced by the mean of the other centres' players on it (all of
	// série 3, A and B together), rounded.
	somme, n := 0, 0
	for _, c := range centres[:2] {
		for _, l := range c.licences {
			somme += c.points[l][1]
			n++
		}
	}
	moyenne := int(float64(somme)/float64(n) + 0.5)
	require.Less(t, moyenne, feuille[1].score, "Brest played the top on coup 2: the average changes its score")
	attendu := map[string]int{}
	for _, c := range centres {
		var hall []apiLigne
		c.s.gql("", `{ classement(partie:"SIM-1") { licence score rang } }`, nil).into(t, "classement", &hall)
		for _, l := range c.licences {
			total := 0
			for _, p := range c.points[l] {
				total += p
			}
			require.Equal(t, total, scoreOf(hall, l), "%s: the hall's standings", l)
			if c.nom == "Brest" {
				total += moyenne - c.points[l][1]
			}
			attendu[l] = total
		}
	}
	obtenu := map[string]int{}
	for _, l := range national.Classement {
		obtenu[l.Licence] = l.Score
	}
	assert.Equal(t, attendu, obtenu)
	assert.True(t, sort.SliceIsSorted(national.Classement, func(i, j int) bool { return national.Classement[i].Score > national.Classement[j].Score }))
	for _, l := range national.Classement {
		if strings.HasPrefix(l.Licence, "B") {
			assert.Equal(t, []int{2}, l.Moyennes)
		}
	}

	t.Run("API_ClassementNationalCommeLaCLI", func(t *testing.T) {
		assert.Equal(t, national, classementNationalAPI(t, fed, "", "SIM-2026"), "classementNational over HTTP, without token: the CLI's figures")
		centre := apiToken(t, federationData, "--role", "centre", "--tournoi", "SIM-2026", "--centre", "Lyon")
		assert.Equal(t, national, classementNationalAPI(t, fed, centre, "SIM-2026"))
		assert.Equal(t, "NOT_FOUND", fed.gql("", `{ classementNational(epreuve:"INCONNUE") { epreuve } }`, nil).code())
	})
}

const champsLigneNationale = `centre licence nom serie club score rang moyennes`

// classementNationalAPI reads an event's national ranking with the public
// query classementNational, in the CLI's JSON shape.
func classementNationalAPI(t *testing.T, s *apiServer, jeton, epreuve string) federation.National {
	t.Helper()
	var api struct {
		federation.National
		Origines []struct {
			Centre  string
			Origine federation.Origine
		} `json:"origines"`
	}
	s.gql(jeton, `query($e: ID!) { classementNational(epreuve:$e) { epreuve nom centres origines { centre origine }
		classement { `+champsLigneNationale+` }
		horsClasses { centre classement { `+champsLigneNationale+` } proportions { serie joueurs participants } } } }`,
		map[string]any{"e": epreuve}).into(t, "classementNational", &api)
	n := api.National
	n.Origines = map[string]federation.Origine{}
	for _, o := range api.Origines {
		n.Origines[o.Centre] = o.Origine
	}
	sansMoyennes := func(lignes []federation.LigneNationale) {
		for i := range lignes {
			if len(lignes[i].Moyennes) == 0 {
				lignes[i].Moyennes = nil
			}
		}
	}
	sansMoyennes(n.Classement)
	for _, h := range n.HorsClasses {
		sansMoyennes(h.Classement)
	}
	if len(n.HorsClasses) == 0 {
		n.HorsClasses = nil
	}
	return n
}

// classementJumeleAPI reads a twinning's ranking with the public query
// classementJumele over the sites' bundles, in the CLI's JSON shape.
func classementJumeleAPI(t *testing.T, s *apiServer, jumelage string, paquets ...string) federation.ClassementJumele {
	t.Helper()
	en64 := []string{}
	for _, f := range paquets {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		en64 = append(en64, base64.StdEncoding.EncodeToString(data))
	}
	const ligne = `site licence nom serie score rang injecte`
	var api struct {
		federation.ClassementJumele
		Caracteristiques struct {
			Joueurs  int
			ParSerie []struct {
				Serie   string
				Joueurs int
			}
		} `json:"caracteristiques"`
		Isoles []struct {
			Site       string
			Classement []federation.LigneJumelee
		} `json:"isoles"`
	}
	s.gql("", `query($j: ID!, $p: [String!]!) { classementJumele(jumelage:$j, paquets:$p) { formule classement { `+ligne+` }
		caracteristiques { joueurs parSerie { serie joueurs } } isoles { site classement { `+ligne+` } } } }`,
		map[string]any{"j": jumelage, "p": en64}).into(t, "classementJumele", &api)
	c := api.ClassementJumele
	c.Caracteristiques = federation.Caracteristiques{Joueurs: api.Caracteristiques.Joueurs, ParSerie: map[string]int{}}
	for _, s := range api.Caracteristiques.ParSerie {
		c.Caracteristiques.ParSerie[s.Serie] = s.Joueurs
	}
	for _, i := range api.Isoles {
		if c.Isoles == nil {
			c.Isoles = map[string][]federation.LigneJumelee{}
		}
		c.Isoles[i.Site] = i.Classement
	}
	return c
}

// classementJumele runs `arbitre jumelage classement` over the sites'
// bundles.
func classementJumele(t *testing.T, data, jumelage string, paquets ...string) federation.ClassementJumele {
	t.Helper()
	c, err := lireClassementJumele(t, data, jumelage, paquets...)
	require.NoError(t, err)
	return c
}

// lireClassementJumele is classementJumele for a wait's condition: it says
// why it has no ranking instead of failing the test (see apiResult.lire).
func lireClassementJumele(t *testing.T, data, jumelage string, paquets ...string) (federation.ClassementJumele, error) {
	t.Helper()
	var c federation.ClassementJumele
	out, err := runArbitre(t, append([]string{"jumelage", "classement", "--data", data, "--jumelage", jumelage}, paquets...)...)
	if err != nil {
		return c, fmt.Errorf("%w: %s", err, out)
	}
	return c, json.Unmarshal([]byte(out), &c)
}

// jumelageCLI runs one `arbitre jumelage` command on the principal's data.
func jumelageCLI(t *testing.T, args ...string) {
	t.Helper()
	out, err := runArbitre(t, append([]string{"jumelage"}, args...)...)
	require.NoError(t, err, out)
}

// TestE2EJumelage_Guide2_18_FormulesEtCoupures: a 10-coup game drawn
// at the principal (Vichy) is played at Vichy and at two other sites, Lyon
// and Nice, each on its own server, and the same game in one hall with
// every player. Formula 2 (§2.18.2.C): one ranking of every site equals the
// hall's; a cut of 10 minutes changes nothing, 20 minutes in all detach
// the site, ranked on its own (§2.18.2.B). Formula 1 (§2.18.1.C): the
// principal's ranking holds its own players, each satellite player placed
// against it as in the hall among Vichy's players; Nice cut for more than
// 15 minutes has its game annulled (§2.18.1.B), decided at the deadline.
func TestE2EJumelage_Guide2_18_FormulesEtCoupures(t *testing.T) {
	const coups = 10
	feuille := feuillePretiree(t, coups)
	vichy := ouvrirCentre(t, "Vichy", "V1", "V2", "V3")
	sites := []*centreE2E{vichy, ouvrirCentre(t, "Lyon", "L1", "L2"), ouvrirCentre(t, "Nice", "N1", "N2")}
	salle := ouvrirCentre(t, "Salle", "V1", "V2", "V3", "L1", "L2", "N1", "N2")
	var paquets []string
	for _, s := range sites {
		s.jouer(t, feuille, blancs)
		paquets = append(paquets, s.exporter(t))
	}
	salle.jouer(t, feuille, blancs)
	var hall []apiLigne
	salle.s.gql("", `{ classement(partie:"SIM-1") { licence score rang } }`, nil).into(t, "classement", &hall)
	require.Len(t, hall, 7)

	t0 := "2026-07-14T14:00:00Z"
	data := vichy.data
	jumelageCLI(t, "creer", "--data", data, "--jumelage", "J2", "--formule", "2", "--principal", "Vichy", "--site", "Lyon", "--site", "Nice")
	jumelageCLI(t, "coupure", "--data", data, "--jumelage", "J2", "--site", "Lyon", "--partie", "SIM-1", "--a", t0)
	jumelageCLI(t, "retablissement", "--data", data, "--jumelage", "J2", "--site", "Lyon", "--a", "2026-07-14T14:10:00Z")
	c2 := classementJumele(t, data, "J2", paquets...)
	assert.Equal(t, c2, classementJumeleAPI(t, vichy.s, "J2", paquets...), "classementJumele over HTTP: the CLI's figures (§2.18.2.C)")
	require.Len(t, c2.Classement, 7)
	assert.Equal(t, 7, c2.Caracteristiques.Joueurs, "§2.18.2.C: every site's players")
	for i, l := range c2.Classement {
		assert.Equal(t, hall[i].Licence, l.Licence, "rank %d", i+1)
		assert.Equal(t, hall[i].Score, l.Score, l.Licence)
		assert.Equal(t, hall[i].Rang, l.Rang, l.Licence)
	}
	jumelageCLI(t, "coupure", "--data", data, "--jumelage", "J2", "--site", "Nice", "--partie", "SIM-1", "--a", "2026-07-14T15:00:00Z")
	jumelageCLI(t, "echeance", "--data", data, "--jumelage", "J2", "--a", "2026-07-14T15:15:01Z")
	c2 = classementJumele(t, data, "J2", paquets...)
	assert.Equal(t, c2, classementJumeleAPI(t, vichy.s, "J2", paquets...), "a detached site ranked on its own (§2.18.2.B)")
	assert.Equal(t, 5, c2.Caracteristiques.Joueurs, "§2.18.2.B: Nice, cut more than 15 minutes, left the twinning")
	assert.Len(t, c2.Isoles["Nice"], 2)

	jumelageCLI(t, "creer", "--data", data, "--jumelage", "J1", "--formule", "1", "--principal", "Vichy", "--site", "Lyon", "--site", "Nice")
	jumelageCLI(t, "coupure", "--data", data, "--jumelage", "J1", "--site", "Lyon", "--partie", "SIM-1", "--a", t0)
	jumelageCLI(t, "retablissement", "--data", data, "--jumelage", "J1", "--site", "Lyon", "--a", "2026-07-14T14:15:00Z")
	jumelageCLI(t, "coupure", "--data", data, "--jumelage", "J1", "--site", "Nice", "--partie", "SIM-1", "--a", t0)
	jumelageCLI(t, "echeance", "--data", data, "--jumelage", "J1", "--a", "2026-07-14T14:16:00Z")
	c1 := classementJumele(t, data, "J1", paquets...)
	assert.Equal(t, c1, classementJumeleAPI(t, vichy.s, "J1", paquets...), "classementJumele over HTTP: the CLI's figures (§2.18.1.C)")
	assert.Equal(t, "NOT_FOUND", vichy.s.gql("", `{ classementJumele(jumelage:"INCONNU", paquets:[]) { formule } }`, nil).code())
	assert.Equal(t, "CORRUPT_BUNDLE", vichy.s.gql("", `{ classementJumele(jumelage:"J1", paquets:["UEsDBA=="]) { formule } }`, nil).code())
	deuxFois, err := os.ReadFile(paquets[1])
	require.NoError(t, err)
	assert.Equal(t, "INVALID_RESULTS", vichy.s.gql("", `query($p: [String!]!) { classementJumele(jumelage:"J1", paquets:$p) { formule } }`,
		map[string]any{"p": []string{base64.StdEncoding.EncodeToString(deuxFois), base64.StdEncoding.EncodeToString(deuxFois)}}).code(),
		"one site's game given twice would count twice")
	assert.Equal(t, 3, c1.Caracteristiques.Joueurs, "§2.18.1.C: the principal's own players")
	place := map[string]federation.LigneJumelee{}
	for _, l := range c1.Classement {
		place[l.Licence] = l
	}
	require.Len(t, place, 5, "Nice's game annulled for that centre (§2.18.1.B): nobody of Nice placed")
	for _, h := range hall {
		l, ok := place[h.Licence]
		if !ok {
			continue
		}
		assert.Equal(t, h.Score, l.Score, h.Licence)
		rang := 1
		for _, v := range hall {
			if strings.HasPrefix(v.Licence, "V") && v.Score > h.Score {
				rang++
			}
		}
		assert.Equal(t, rang, l.Rang, "%s placed among Vichy's players", h.Licence)
		assert.Equal(t, strings.HasPrefix(h.Licence, "L"), l.Injecte, h.Licence)
	}
}
