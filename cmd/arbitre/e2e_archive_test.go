package main

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/archive"
	"arbitre/domain/classique/tournoiclassique"
)

// Two past tournaments of the federation: the 2018 Open de Lyon
// (classique, L1 beat L2) and the 2019 Vichy festival (duplicate).
const (
	e2eLyon2018 = "tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres\n" +
		"lyon-2018;Open de Lyon;2018-03-10;1;lyon-2018-1;L1;Dupont Élise;Lyon;L2;420;380;3;1500;1512\n" +
		"lyon-2018;Open de Lyon;2018-03-10;1;lyon-2018-1;L2;Martin Léo;;L1;380;420;1;1450;1438\n" +
		"lyon-2018;Open de Lyon;2018-03-10;2;lyon-2018-2;L2;Martin Léo;;L1;401;399;3;1450;1438\n" +
		"lyon-2018;Open de Lyon;2018-03-10;2;lyon-2018-2;L1;Dupont Élise;Lyon;L2;399;401;1;1500;1512\n"
	e2eVichy2019 = "tournoi;nom_tournoi;date;partie;numero;licence;nom;club;serie;score;top;rang;cumul;top_cumul;pourcentage;rang_general\n" +
		"vichy-2019;Festival de Vichy;2019-05-04;vichy-2019-1;1;L1;Dupont Élise;Vichy;A;900;920;1;900;920;97,83;1\n" +
		"vichy-2019;Festival de Vichy;2019-05-04;vichy-2019-1;1;L2;Martin Léo;Cusset;B;850;920;2;850;920;92,39;2\n"
)

// importerFichiers writes each file (name, content) and imports it with
// the CLI, in order.
func importerFichiers(t *testing.T, data string, fichiers ...[2]string) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range fichiers {
		chemin := filepath.Join(dir, f[0])
		require.NoError(t, os.WriteFile(chemin, []byte(f[1]), 0o600))
		_, err := runArbitre(t, "archive", "import", chemin, "--data", data, "--init")
		require.NoError(t, err)
	}
}

type apiExport struct {
	NomFichier, TypeMime, Contenu string
}

// TestE2EArchive_HistoireImporteeEtExport: past results imported with the
// CLI into a running server's store reach the public archive queries
// (tournois, joueur: historique, cotes, faceAFace) like live ones, and
// exportArchive gives back the very file; a live (simulated) tournament's
// export over the API is the CLI's. The archive is public: no token is
// needed, an unknown tournament is NOT_FOUND.
func TestE2EArchive_HistoireImporteeEtExport(t *testing.T) {
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "duplicate", "--players", "4", "--games", "1", "--seed", "8", "--data", data)
	require.NoError(t, err)
	cli := exporter(t, data, "sim-8", "csv")
	s := startAPIServer(t, data)
	defer s.stop()
	importerFichiers(t, data, [2]string{"lyon.csv", e2eLyon2018}, [2]string{"vichy.csv", e2eVichy2019})

	const requete = `query($j: ID!, $a: ID!) {
		tournois { edges { node { id type nom ouvertLe closLe nombreParties } } }
		joueur(id: $j) { nom club
			historique { edges { node { partie tournoi type score top rang adversaire scoreAdversaire pointsDeMatch } } }
			cotes { tournoi le avant apres politique }
			faceAFace(adversaire: $a) { parties victoires nuls defaites pointsPour pointsContre } } }`
	var reponse struct {
		Tournois struct {
			Edges []struct {
				Node struct {
					ID, Type, Nom, OuvertLe string
					ClosLe                  *string
					NombreParties           int
				}
			}
		}
		Joueur struct {
			Nom, Club  string
			Historique struct {
				Edges []struct {
					Node struct {
						Partie, Tournoi, Type                            string
						Score, Top, Rang, ScoreAdversaire, PointsDeMatch *int
						Adversaire                                       *string
					}
				}
			}
			Cotes []struct {
				Tournoi, Le, Politique string
				Avant, Apres           int
			}
			FaceAFace struct{ Parties, Victoires, Nuls, Defaites, PointsPour, PointsContre int }
		}
	}
	var vue derniereErreur
	require.Eventually(t, func() bool {
		res := s.gql("", requete, map[string]any{"j": "L1", "a": "L2"})
		if !vue.ok(res.lire("tournois", &reponse.Tournois)) {
			return false
		}
		_ = json.Unmarshal(res.Data["joueur"], &reponse.Joueur)
		return len(reponse.Tournois.Edges) == 3 && len(reponse.Joueur.Historique.Edges) == 3
	}, 10*time.Second, 20*time.Millisecond, "the three tournaments and the player's history in the archive (%s)", &vue)

	lyon := reponse.Tournois.Edges[1].Node
	assert.Equal(t, "lyon-2018", lyon.ID)
	assert.Equal(t, "classique", lyon.Type)
	assert.Equal(t, "Open de Lyon", lyon.Nom)
	assert.Equal(t, "2018-03-10T00:00:00Z", lyon.OuvertLe)
	require.NotNil(t, lyon.ClosLe)
	assert.Equal(t, 2, lyon.NombreParties)
	assert.Equal(t, "vichy-2019", reponse.Tournois.Edges[2].Node.ID)

	j := reponse.Joueur
	assert.Equal(t, "Dupont Élise", j.Nom)
	assert.Equal(t, "Vichy", j.Club, "the latest club")
	premier, vichy := j.Historique.Edges[0].Node, j.Historique.Edges[2].Node
	assert.Equal(t, "lyon-2018-1", premier.Partie)
	assert.Equal(t, "L2", *premier.Adversaire)
	assert.Equal(t, 420, *premier.Score)
	assert.Equal(t, 380, *premier.ScoreAdversaire)
	assert.Equal(t, 3, *premier.PointsDeMatch)
	assert.Equal(t, "vichy-2019-1", vichy.Partie)
	assert.Equal(t, []int{900, 920, 1}, []int{*vichy.Score, *vichy.Top, *vichy.Rang})
	require.Len(t, j.Cotes, 1)
	assert.Equal(t, "lyon-2018", j.Cotes[0].Tournoi)
	assert.Equal(t, "2018-03-10T00:00:00Z", j.Cotes[0].Le)
	assert.Equal(t, [2]int{1500, 1512}, [2]int{j.Cotes[0].Avant, j.Cotes[0].Apres})
	assert.Equal(t, "import csv", j.Cotes[0].Politique)
	assert.Equal(t, struct{ Parties, Victoires, Nuls, Defaites, PointsPour, PointsContre int }{2, 1, 0, 1, 819, 781}, j.FaceAFace)

	const exportRequete = `query($t: ID!, $f: FormatExport!) { exportArchive(tournoi: $t, format: $f) { nomFichier typeMime contenu } }`
	var csv, js apiExport
	s.gql("", exportRequete, map[string]any{"t": "lyon-2018", "f": "csv"}).into(t, "exportArchive", &csv)
	assert.Equal(t, apiExport{"lyon-2018.csv", "text/csv; charset=utf-8", "\ufeff" + e2eLyon2018}, csv, "the imported file, as it was")
	s.gql("", exportRequete, map[string]any{"t": "vichy-2019", "f": "json"}).into(t, "exportArchive", &js)
	assert.Equal(t, "vichy-2019.json", js.NomFichier)
	var d archive.Document
	require.NoError(t, json.Unmarshal([]byte(js.Contenu), &d))
	assert.Equal(t, archive.GenreDuplicate, d.Genre)
	require.Len(t, d.Duplicate, 2)
	assert.Equal(t, archive.LigneDuplicate{Partie: "vichy-2019-1", Numero: 1, Licence: "L2", Nom: "Martin Léo", Club: "Cusset", Serie: "B",
		Score: 850, Top: 920, Rang: 2, Cumul: 850, TopCumul: 920, Pourcentage: 92.39, RangGeneral: 2}, d.Duplicate[1])

	s.gql("", exportRequete, map[string]any{"t": "sim-8", "f": "csv"}).into(t, "exportArchive", &csv)
	assert.Equal(t, string(cli), csv.Contenu, "the API exports a live tournament as the CLI does")

	assert.Equal(t, "NOT_FOUND", s.gql("", exportRequete, map[string]any{"t": "inconnu", "f": "csv"}).code())
	assert.Equal(t, "INVALID_INPUT", s.gql("", exportRequete, map[string]any{"t": "sim-8", "f": "xlsx"}).code(), "a format out of the enum")
}

// TestE2EArchive_ImportParLAPI: importerArchive is the federation
// director's (a token without tournament): without a token it is
// UNAUTHENTICATED, an arbiter's or a tournament director's token is
// FORBIDDEN, and nothing is written. A bad line is INVALID_INPUT naming
// the line and writes nothing; the same file twice writes once.
func TestE2EArchive_ImportParLAPI(t *testing.T) {
	data := t.TempDir()
	federation := apiToken(t, data, "--role", "director")
	directeurT1 := apiToken(t, data, "--role", "director", "--tournoi", "T1")
	arbitre := apiToken(t, data, "--role", "arbiter")
	s := startAPIServer(t, data)
	defer s.stop()
	const importer = `mutation($f: String!, $c: String!) { importerArchive(fichier: $f, contenu: $c) { tournoi type lignes empreinte dejaImporte } }`
	const tournois = `{ tournois { edges { node { id } } } }`
	vars := map[string]any{"f": "lyon.csv", "c": e2eLyon2018}

	for nom, jeton := range map[string]string{"sans jeton": "", "arbitre": arbitre, "directeur de T1": directeurT1} {
		want := "FORBIDDEN"
		if jeton == "" {
			want = "UNAUTHENTICATED"
		}
		assert.Equal(t, want, s.gql(jeton, importer, vars).code(), nom)
	}
	mauvais := map[string]any{"f": "lyon.csv", "c": e2eLyon2018 + "lyon-2018;Open de Lyon;2018-03-10;3;lyon-2018-3;L1;Dupont Élise;Lyon;L2;420;380;deux;1500;1512\n"}
	res := s.gql(federation, importer, mauvais)
	require.Equal(t, "INVALID_INPUT", res.code())
	assert.Equal(t, float64(6), res.Errors[0].Extensions["ligne"])
	assert.Equal(t, "points_de_match", res.Errors[0].Extensions["champ"])
	assert.Contains(t, res.Errors[0].Message, "ligne 6")
	var vide struct{ Edges []any }
	s.gql("", tournois, nil).into(t, "tournois", &vide)
	assert.Empty(t, vide.Edges, "nothing of a refused file, nor of a refused token, is written")

	var bilan struct {
		Tournoi, Type, Empreinte string
		Lignes                   int
		DejaImporte              bool
	}
	s.gql(federation, importer, vars).into(t, "importerArchive", &bilan)
	assert.Equal(t, "lyon-2018", bilan.Tournoi)
	assert.Equal(t, "classique", bilan.Type)
	assert.Equal(t, 4, bilan.Lignes)
	assert.False(t, bilan.DejaImporte)
	s.gql(federation, importer, vars).into(t, "importerArchive", &bilan)
	assert.True(t, bilan.DejaImporte, "the same file again writes nothing")

	// A festival's file is longer than the 4,000 characters of a text
	// argument: contenu holds a whole file.
	grand := strings.Builder{}
	grand.WriteString(strings.SplitAfter(e2eVichy2019, "\n")[0])
	for i := range 100 {
		fmt.Fprintf(&grand, "vichy-2019;Festival de Vichy;2019-05-04;vichy-2019-1;1;L%03d;Joueur %d;Vichy;A;%d;920;%d;%d;920;%s;%d\n",
			i, i, 900-i, i+1, 900-i, strings.Replace(fmt.Sprintf("%.2f", float64(900-i)*100/920), ".", ",", 1), i+1)
	}
	require.Greater(t, grand.Len(), 4000)
	s.gql(federation, importer, map[string]any{"f": "vichy.csv", "c": grand.String()}).into(t, "importerArchive", &bilan)
	assert.Equal(t, 100, bilan.Lignes)
	var vue derniereErreur
	require.Eventually(t, func() bool {
		var liste struct{ Edges []any }
		return vue.ok(s.gql("", tournois, nil).lire("tournois", &liste)) && len(liste.Edges) == 2
	}, 10*time.Second, 20*time.Millisecond, "both imported tournaments listed (%s)", &vue)
}

// TestE2EArchive_ZipParLAPI: exportArchive(format: zip) gives, in base64,
// the CLI's zip of the whole tournament byte for byte: its CSV, its JSON
// and every classique match's GCG; public like the archive.
func TestE2EArchive_ZipParLAPI(t *testing.T) {
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "classique", "--players", "5", "--rounds", "2", "--seed", "4", "--workers", "1", "--data", data)
	require.NoError(t, err)
	cli := exporter(t, data, "sim-4", "zip")
	s := startAPIServer(t, data)
	defer s.stop()
	// Asked as soon as the server answers, while its projections catch up
	// with the simulated store: the archive waits for them (archiveAJour).
	var z apiExport
	s.gql("", `{ exportArchive(tournoi: "sim-4", format: zip) { nomFichier typeMime contenu } }`, nil).into(t, "exportArchive", &z)
	assert.Equal(t, "sim-4.zip", z.NomFichier)
	assert.Equal(t, "application/zip", z.TypeMime)
	raw, err := base64.StdEncoding.DecodeString(z.Contenu)
	require.NoError(t, err)
	assert.Equal(t, cli, raw, "the API's zip is the CLI's")
	lu, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	gcg := 0
	for _, f := range lu.File {
		if strings.HasPrefix(f.Name, "parties/") {
			gcg++
		}
	}
	assert.Equal(t, 4, gcg, "5 players, 2 rounds: 2 matches a round")
}

// TestE2EArchive_ExemptDuTournoiEtImportJSON: a classique tournament
// opened with its own bye (2 points de match, 400–300: issue 15's
// configuration, where classique §9 gives 450–350 by default) is exported
// with it; its CSV imported into another server, and its JSON into a
// third, export the same files again (docs/archive.md). Its zip, the
// round's match not opened yet, holds the results only.
func TestE2EArchive_ExemptDuTournoiEtImportJSON(t *testing.T) {
	joue := t.TempDir()
	directeur := apiToken(t, joue, "--role", "director")
	s := startAPIServer(t, joue)
	defer s.stop()
	require.Empty(t, s.gql(directeur, `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open", rondes:2,
		config:{exemptPointsDeMatch: 2, exemptScore: 400, exemptScoreAdverse: 300}) { id } }`, nil).Errors)
	for i := 1; i <= 3; i++ {
		require.Empty(t, s.gql(directeur, fmt.Sprintf(`mutation { inscrireClassique(tournoi:"C1", joueur:"P%d", nom:"Joueur %d", cote:1000) { version } }`, i, i), nil).Errors)
	}
	for _, m := range []string{`etablirTetesDeSerie(tournoi:"C1")`, `proposerRonde(tournoi:"C1", methode:initial_by_cote)`, `publierRonde(tournoi:"C1")`} {
		require.Empty(t, s.gql(directeur, `mutation { `+m+` { version } }`, nil).Errors, m)
	}
	const requete = `query($f: FormatExport!) { exportArchive(tournoi: "C1", format: $f) { nomFichier typeMime contenu } }`
	var csv, js apiExport
	var vue derniereErreur
	require.Eventually(t, func() bool {
		return vue.ok(s.gql("", requete, map[string]any{"f": "csv"}).lire("exportArchive", &csv)) && strings.Contains(csv.Contenu, ";1;;P")
	}, 10*time.Second, 20*time.Millisecond, "the round's bye reaches the archive (%s)", &vue)
	assert.Regexp(t, `(?m)^C1;Open;\d{4}-\d\d-\d\d;1;;P\d;Joueur \d;;;400;300;2;0;0$`, csv.Contenu, "the bye counts the tournament's values")
	s.gql("", requete, map[string]any{"f": "json"}).into(t, "exportArchive", &js)
	var d archive.Document
	require.NoError(t, json.Unmarshal([]byte(js.Contenu), &d))
	assert.Equal(t, &tournoiclassique.Exempt{PointsDeMatch: 2, Score: 400, ScoreAdverse: 300}, d.Exempt, "the archive records the tournament's configuration")
	var z apiExport
	s.gql("", requete, map[string]any{"f": "zip"}).into(t, "exportArchive", &z)
	raw, err := base64.StdEncoding.DecodeString(z.Contenu)
	require.NoError(t, err)
	lu, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	require.Len(t, lu.File, 2, "the zip of a tournament under way: its CSV and JSON, no GCG of a match not opened yet")
	assert.Equal(t, []string{"C1.csv", "C1.json"}, []string{lu.File[0].Name, lu.File[1].Name})

	for _, fichier := range []apiExport{csv, js} {
		t.Run(fichier.NomFichier, func(t *testing.T) {
			data := t.TempDir()
			federation := apiToken(t, data, "--role", "director")
			autre := startAPIServer(t, data)
			defer autre.stop()
			var bilan struct{ Lignes int }
			autre.gql(federation, `mutation($f: String!, $c: String!) { importerArchive(fichier: $f, contenu: $c) { lignes } }`,
				map[string]any{"f": fichier.NomFichier, "c": fichier.Contenu}).into(t, "importerArchive", &bilan)
			assert.Equal(t, 1, bilan.Lignes, "one round published, its match not played: the bye's line")
			for _, f := range []apiExport{csv, js} {
				var encore apiExport
				require.Eventually(t, func() bool {
					return autre.gql("", requete, map[string]any{"f": strings.TrimPrefix(filepath.Ext(f.NomFichier), ".")}).code() == ""
				}, 10*time.Second, 20*time.Millisecond)
				autre.gql("", requete, map[string]any{"f": strings.TrimPrefix(filepath.Ext(f.NomFichier), ".")}).into(t, "exportArchive", &encore)
				assert.Equal(t, f, encore, "import of %s, export as %s: the same file", fichier.NomFichier, f.NomFichier)
			}
		})
	}
}

// TestE2EArchive_CoteImporteeALInscription: over HTTP, a player
// registered without a cote in a classique tournament enters with the
// latest cote the federation knows, here an imported past tournament's
// (docs/archive.md); a cote given at registration stands.
func TestE2EArchive_CoteImporteeALInscription(t *testing.T) {
	data := t.TempDir()
	directeur := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(directeur, `mutation($c: String!) { importerArchive(fichier: "lyon.csv", contenu: $c) { lignes } }`,
		map[string]any{"c": e2eLyon2018}).Errors)
	var vue derniereErreur
	require.Eventually(t, func() bool {
		var j struct{ Cotes []any }
		return vue.ok(s.gql("", `{ joueur(id: "L2") { cotes { apres } } }`, nil).lire("joueur", &j)) && len(j.Cotes) == 1
	}, 10*time.Second, 20*time.Millisecond, "the import reaches the archive (%s)", &vue)

	require.Empty(t, s.gql(directeur, `mutation { ouvrirTournoiClassique(id:"C2", nom:"Open 2026", rondes:2) { id } }`, nil).Errors)
	for _, m := range []string{`inscrireClassique(tournoi:"C2", joueur:"L1", nom:"Dupont Élise")`,
		`inscrireClassique(tournoi:"C2", joueur:"L2", nom:"Martin Léo", cote:1600)`,
		`inscrireClassiqueLot(tournoi:"C2", joueurs:[{joueur:"L3", nom:"Petit Jean"}])`} {
		require.Empty(t, s.gql(directeur, `mutation { `+m+` { version } }`, nil).Errors, m)
	}
	var tr struct {
		Inscrits []struct {
			Joueur string
			Cote   int
		}
	}
	s.gql("", `{ tournoiClassique(id:"C2") { inscrits { joueur cote } } }`, nil).into(t, "tournoiClassique", &tr)
	cotes := map[string]int{}
	for _, i := range tr.Inscrits {
		cotes[i.Joueur] = i.Cote
	}
	assert.Equal(t, map[string]int{"L1": 1512, "L2": 1600, "L3": 0}, cotes, "L1's imported cote; L2's given; L3 unknown")
}
