package archive_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/archive"
	"arbitre/domain/archive/archivetest"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
)

const enTeteDuplicate = "tournoi;nom_tournoi;date;partie;numero;licence;nom;club;serie;score;top;rang;cumul;top_cumul;pourcentage;rang_general\n"

const enTeteClassique = "tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres\n"

// duplicateValide is two players over two games.
const duplicateValide = enTeteDuplicate +
	"vichy-2019;Festival de Vichy;2019-05-04;v1;1;100;Dupont Élise;Vichy;A;900;920;1;1800;1840;97,83;1\n" +
	"vichy-2019;Festival de Vichy;2019-05-04;v2;2;100;Dupont Élise;Vichy;A;900;920;1;1800;1840;97,83;1\n" +
	"vichy-2019;Festival de Vichy;2019-05-04;v1;1;200;Martin Léo;Cusset;B;850;920;2;1700;1840;92,39;2\n" +
	"vichy-2019;Festival de Vichy;2019-05-04;v2;2;200;Martin Léo;Cusset;B;850;920;2;1700;1840;92,39;2\n"

// classiqueValide is one match between two players, and a third one
// exempt from the round.
const classiqueValide = enTeteClassique +
	"open-2018;Open de Lyon;2018-03-10;1;m1;100;Dupont Élise;Vichy;200;420;380;3;1500;1512\n" +
	"open-2018;Open de Lyon;2018-03-10;1;m1;200;Martin Léo;;100;380;420;1;1450;1438\n" +
	"open-2018;Open de Lyon;2018-03-10;1;;300;Petit Jean;;;450;350;3;0;0\n"

func ouvrir(t *testing.T) (*sqlitestore.Store, repository.Streams) {
	t.Helper()
	store, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "events.db"), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, archive.RegisterEvents(reg))
	return store, repository.Streams{Store: store, Registry: reg}
}

// TestArchive_CSVAllerRetour: what LireCSV reads, EcrireCSV writes back
// byte for byte (with the byte order mark), for both forms of play.
func TestArchive_CSVAllerRetour(t *testing.T) {
	for _, contenu := range []string{duplicateValide, classiqueValide} {
		d, numeros, err := archive.LireCSV([]byte(contenu))
		require.NoError(t, err)
		assert.Equal(t, []int{2, 3, 4, 5}[:len(numeros)], numeros)
		var out bytes.Buffer
		require.NoError(t, archive.EcrireCSV(&out, d))
		assert.Equal(t, "\ufeff"+contenu, out.String())
	}
}

// TestArchive_LigneFautiveNommee: a bad line is refused with its number
// and its column, and nothing of the file is returned.
func TestArchive_LigneFautiveNommee(t *testing.T) {
	ligneDup := func(s string) string { return enTeteDuplicate + s + "\n" }
	ok := "vichy-2019;Festival de Vichy;2019-05-04;v1;1;100;Dupont;Vichy;A;900;920;1;900;920;97,83;1"
	cas := []struct {
		nom, contenu, champ string
		ligne               int
	}{
		{"en-tête inconnu", "tournoi;nom\n" + ok, "", 1},
		{"score pas un nombre", ligneDup(ok) + strings.Replace(ok, ";900;920;1;900", ";neuf;920;1;900", 1) + "\n", "score", 3},
		{"colonnes manquantes", ligneDup(ok) + "vichy-2019;Festival de Vichy;2019-05-04;v2\n", "", 3},
		{"date mal écrite", ligneDup(strings.Replace(ok, "2019-05-04", "04/05/2019", 1)), "date", 2},
		{"autre tournoi", ligneDup(ok) + strings.Replace(ok, "vichy-2019", "autre", 1) + "\n", "tournoi", 3},
		{"rang nul", ligneDup(strings.Replace(ok, ";920;1;900", ";920;0;900", 1)), "rang", 2},
		{"licence invalide", ligneDup(strings.Replace(ok, ";100;", ";1 00;", 1)), "licence", 2},
		{"nom vide", ligneDup(strings.Replace(ok, ";Dupont;", ";;", 1)), "nom", 2},
		{"joueur deux fois dans la partie", ligneDup(ok) + ok + "\n", "licence", 3},
		{"cumul contradictoire", ligneDup(ok) + strings.Replace(strings.Replace(ok, ";v1;1;", ";v2;2;", 1), ";97,83;", ";50,00;", 1) + "\n", "pourcentage", 3},
		{"top d'une partie contradictoire", ligneDup(ok) + strings.Replace(strings.Replace(ok, ";100;", ";200;", 1), ";920;1;", ";921;1;", 1) + "\n", "top", 3},
		{"guillemet ouvert", ligneDup(ok) + "\"vichy;\n", "", 3},
		{"pas UTF-8", ligneDup(ok) + "vichy-2019;Festival \xe9t\xe9\n", "", 3},
		{"aucune ligne", enTeteDuplicate, "", 0},
		{"fichier vide", "", "", 0},
		{"match sans miroir", enTeteClassique + "open-2018;Open;2018-03-10;1;m1;100;Dupont;;200;420;380;3;0;0\n" +
			"open-2018;Open;2018-03-10;1;m1;200;Martin;;100;381;420;1;0;0\n", "match", 3},
		{"match à une ligne", enTeteClassique + "open-2018;Open;2018-03-10;1;m1;100;Dupont;;200;420;380;3;0;0\n", "match", 2},
		{"exempts qui ne comptent pas la même chose", enTeteClassique + "open-2018;Open;2018-03-10;1;;100;Dupont;;;450;350;3;0;0\n" +
			"open-2018;Open;2018-03-10;2;;200;Martin;;;420;380;3;0;0\n", "score", 3},
		{"exempt négatif", enTeteClassique + "open-2018;Open;2018-03-10;1;;100;Dupont;;;-1;350;3;0;0\n", "exempt", 2},
		{"match sans adversaire", enTeteClassique + "open-2018;Open;2018-03-10;1;m1;100;Dupont;;;450;350;3;0;0\n", "match", 2},
		{"cote contradictoire", classiqueValide +
			"open-2018;Open de Lyon;2018-03-10;2;;100;Dupont Élise;Vichy;;450;350;3;1500;1513\n", "cote_apres", 5},
		{"contre lui-même", enTeteClassique + "open-2018;Open;2018-03-10;1;m1;100;Dupont;;100;420;380;3;0;0\n", "adversaire", 2},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			d, numeros, err := archive.LireCSV([]byte(c.contenu))
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, erreur.CodeInvalidInput, e.Code)
			if c.ligne > 0 {
				assert.Equal(t, c.ligne, e.Details["ligne"], e.Message)
				assert.Contains(t, e.Message, "ligne ")
			}
			if c.champ != "" {
				assert.Equal(t, c.champ, e.Details["champ"], e.Message)
			}
			assert.Empty(t, numeros)
			assert.Equal(t, archive.Document{}, d)
		})
	}
}

// TestArchive_ImportToutOuRien: a file with one bad line writes nothing;
// the good file writes the import's stream, one event per line naming it.
func TestArchive_ImportToutOuRien(t *testing.T) {
	ctx := context.Background()
	store, flux := ouvrir(t)
	mauvais := duplicateValide + "vichy-2019;Festival de Vichy;2019-05-04;v3;3;100;Dupont Élise;Vichy;A;x;920;1;1800;1840;97,83;1\n"
	_, err := archive.Importer(ctx, flux, "vichy.csv", []byte(mauvais), eventstore.Metadata{Actor: "test"})
	var e *erreur.Erreur
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 6, e.Details["ligne"])
	all, err := store.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Empty(t, all, "a refused file writes nothing")

	b, err := archive.Importer(ctx, flux, "vichy.csv", []byte(duplicateValide), eventstore.Metadata{Actor: "test"})
	require.NoError(t, err)
	assert.False(t, b.DejaImporte)
	assert.Equal(t, 4, b.Lignes)
	events, err := flux.Load(ctx, "archive-duplicate-vichy-2019")
	require.NoError(t, err)
	require.Len(t, events, 3)
	assert.Equal(t, "vichy.csv", events[0].(archive.ImportOuvert).Fichier)
	assert.Equal(t, b.Empreinte, events[0].(archive.ImportOuvert).Empreinte)
	assert.Equal(t, []int{3, 5}, events[2].(archive.PartieDuplicate).Lignes)

	d, ok, err := archive.Charger(ctx, store, flux.Registry, archive.GenreDuplicate, "vichy-2019")
	require.NoError(t, err)
	require.True(t, ok)
	var out bytes.Buffer
	require.NoError(t, archive.EcrireCSV(&out, d))
	assert.Equal(t, "\ufeff"+duplicateValide, out.String())
}

// TestIssue34_ImportCompactUnEvenementParPartie: an import records one
// event per duplicate game and per classique round, its lines in columns
// and a player's name and club once, not one event per line (464 bytes a
// line in the store: twenty years of the federation's tournaments would
// not fit its 4 GB); the document read back is the file's.
func TestIssue34_ImportCompactUnEvenementParPartie(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		genre    archive.Genre
		tournoi  string
		contenu  string
		attendus int
	}{
		{archive.GenreDuplicate, "vichy-2019", duplicateValide, 1 + 2},
		{archive.GenreClassique, "open-2018", classiqueValide, 1 + 2},
	} {
		t.Run(string(tc.genre), func(t *testing.T) {
			store, flux := ouvrir(t)
			_, err := archive.Importer(ctx, flux, "f.csv", []byte(tc.contenu), eventstore.Metadata{})
			require.NoError(t, err)
			events, err := flux.Load(ctx, "archive-"+string(tc.genre)+"-"+tc.tournoi)
			require.NoError(t, err)
			assert.Len(t, events, tc.attendus)
			if p, ok := events[len(events)-1].(archive.PartieDuplicate); ok {
				assert.Nil(t, p.Joueurs, "the players' names are in their first game's event")
			}
			d, ok, err := archive.Charger(ctx, store, flux.Registry, tc.genre, tc.tournoi)
			require.NoError(t, err)
			require.True(t, ok)
			var out bytes.Buffer
			require.NoError(t, archive.EcrireCSV(&out, d))
			assert.Equal(t, "\ufeff"+tc.contenu, out.String())
		})
	}
}

// TestIssue34_ImportDUneLigneParEvenementRelu: a store written before the
// columns, one event per line, is still read as the same document.
func TestIssue34_ImportDUneLigneParEvenementRelu(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		genre   archive.Genre
		tournoi string
		contenu string
	}{
		{archive.GenreDuplicate, "vichy-2019", duplicateValide},
		{archive.GenreClassique, "open-2018", classiqueValide},
	} {
		t.Run(string(tc.genre), func(t *testing.T) {
			store, flux := ouvrir(t)
			require.NoError(t, flux.Save(ctx, "archive-"+string(tc.genre)+"-"+tc.tournoi, 0,
				archivetest.EvenementsParLigne(t, "f.csv", []byte(tc.contenu)), eventstore.Metadata{}))
			d, ok, err := archive.Charger(ctx, store, flux.Registry, tc.genre, tc.tournoi)
			require.NoError(t, err)
			require.True(t, ok)
			var out bytes.Buffer
			require.NoError(t, archive.EcrireCSV(&out, d))
			assert.Equal(t, "\ufeff"+tc.contenu, out.String())
		})
	}
}

// TestArchive_DoubleImport: the same file twice writes once; another file
// for the same tournament, or a tournament played on this server, is
// ALREADY_EXISTS and writes nothing.
func TestArchive_DoubleImport(t *testing.T) {
	ctx := context.Background()
	store, flux := ouvrir(t)
	_, err := archive.Importer(ctx, flux, "lyon.csv", []byte(classiqueValide), eventstore.Metadata{})
	require.NoError(t, err)
	b, err := archive.Importer(ctx, flux, "copie.csv", []byte(classiqueValide), eventstore.Metadata{})
	require.NoError(t, err)
	assert.True(t, b.DejaImporte)
	autre := strings.Replace(classiqueValide, ";1512\n", ";1513\n", 1)
	_, err = archive.Importer(ctx, flux, "autre.csv", []byte(autre), eventstore.Metadata{})
	assert.ErrorIs(t, err, &erreur.Erreur{Code: erreur.CodeAlreadyExists})

	live, err := streamname.TournoiStream("vichy-2019")
	require.NoError(t, err)
	_, err = store.Append(ctx, live, eventstore.NoStream, eventstoretest.Events(1)...)
	require.NoError(t, err)
	_, err = archive.Importer(ctx, flux, "vichy.csv", []byte(duplicateValide), eventstore.Metadata{})
	assert.ErrorIs(t, err, &erreur.Erreur{Code: erreur.CodeAlreadyExists})

	all, err := store.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Len(t, all, 1+2+1, "one import of a match and an exempt and the live tournament's event")
}

// TestArchive_ExemptDuTournoiConfigure: a tournament opened with other bye
// values (classique §9's default is a 450–350 win, 3 points de match; the
// tournament's configuration may say otherwise) keeps them: the file's bye
// lines give them, the import records them and the export writes them back;
// bye lines that disagree are refused with the line's number.
func TestArchive_ExemptDuTournoiConfigure(t *testing.T) {
	ctx := context.Background()
	configure := enTeteClassique +
		"open-2018;Open de Lyon;2018-03-10;1;m1;100;Dupont Élise;Vichy;200;420;380;3;0;0\n" +
		"open-2018;Open de Lyon;2018-03-10;1;m1;200;Martin Léo;;100;380;420;1;0;0\n" +
		"open-2018;Open de Lyon;2018-03-10;1;;300;Petit Jean;;;400;300;2;0;0\n" +
		"open-2018;Open de Lyon;2018-03-10;2;m2;300;Petit Jean;;100;410;390;3;0;0\n" +
		"open-2018;Open de Lyon;2018-03-10;2;m2;100;Dupont Élise;Vichy;300;390;410;1;0;0\n" +
		"open-2018;Open de Lyon;2018-03-10;2;;200;Martin Léo;;;400;300;2;0;0\n"
	d, _, err := archive.LireCSV([]byte(configure))
	require.NoError(t, err)
	assert.Equal(t, &tournoiclassique.Exempt{PointsDeMatch: 2, Score: 400, ScoreAdverse: 300}, d.Exempt)

	store, flux := ouvrir(t)
	_, err = archive.Importer(ctx, flux, "open.csv", []byte(configure), eventstore.Metadata{})
	require.NoError(t, err)
	lu, ok, err := archive.Charger(ctx, store, flux.Registry, archive.GenreClassique, "open-2018")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, d, lu, "the import keeps the tournament's bye values")
	var out bytes.Buffer
	require.NoError(t, archive.EcrireCSV(&out, lu))
	assert.Equal(t, "\ufeff"+configure, out.String())

	_, _, err = archive.LireCSV([]byte(strings.Replace(configure, "2;;200;Martin Léo;;;400;300;2", "2;;200;Martin Léo;;;450;350;3", 1)))
	var e *erreur.Erreur
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 7, e.Details["ligne"], e.Message)
	assert.Equal(t, "score", e.Details["champ"])

	defaut, _, err := archive.LireCSV([]byte(classiqueValide))
	require.NoError(t, err)
	parDefaut := tournoiclassique.ConfigParDefaut().Exempt
	assert.Equal(t, &parDefaut, defaut.Exempt, "the bye of a file is its lines'")
}

// TestArchive_ImportJSON: the export's JSON imports like its CSV (docs/archive.md):
// checked whole, a bad record named by its line in the file and its field,
// nothing written then; the good file is recorded once, each result naming
// its line, and exports back as it came.
func TestArchive_ImportJSON(t *testing.T) {
	ctx := context.Background()
	for _, contenu := range []string{duplicateValide, classiqueValide} {
		d, _, err := archive.LireCSV([]byte(contenu))
		require.NoError(t, err)
		var j bytes.Buffer
		require.NoError(t, archive.EcrireJSON(&j, d))
		store, flux := ouvrir(t)
		b, err := archive.Importer(ctx, flux, d.Tournoi+".json", j.Bytes(), eventstore.Metadata{})
		require.NoError(t, err)
		assert.Equal(t, len(strings.Split(contenu, "\n"))-2, b.Lignes)
		lu, ok, err := archive.Charger(ctx, store, flux.Registry, d.Genre, d.Tournoi)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, d, lu)
		var encore bytes.Buffer
		require.NoError(t, archive.EcrireJSON(&encore, lu))
		assert.Equal(t, j.String(), encore.String(), "import, export: the same JSON")
		b, err = archive.Importer(ctx, flux, "copie.json", j.Bytes(), eventstore.Metadata{})
		require.NoError(t, err)
		assert.True(t, b.DejaImporte)
	}

	d, _, err := archive.LireCSV([]byte(classiqueValide))
	require.NoError(t, err)
	var j bytes.Buffer
	require.NoError(t, archive.EcrireJSON(&j, d))
	valide := j.String()
	dup, _, err := archive.LireCSV([]byte(duplicateValide))
	require.NoError(t, err)
	j.Reset()
	require.NoError(t, archive.EcrireJSON(&j, dup))
	duplicateJSON := j.String()
	// The records start on lines 12, 25 and 38 of the indented file.
	require.Equal(t, "  \"classique\": [", strings.Split(valide, "\n")[10])
	cas := []struct {
		nom, contenu, champ string
		ligne               int
	}{
		{"score pas un nombre", strings.Replace(valide, `"score": 380`, `"score": "deux"`, 1), "score", 25},
		{"champ inconnu", strings.Replace(valide, `"ronde": 1,`, `"ronde": 1, "table": 4,`, 1), "table", 12},
		{"licence invalide", strings.Replace(valide, `"licence": "300"`, `"licence": "3 00"`, 1), "licence", 38},
		{"exempt sans la valeur du tournoi", strings.Replace(valide, `"score": 450`, `"score": 400`, 1), "score", 38},
		{"match sans miroir", strings.Replace(valide, `"scoreAdversaire": 420`, `"scoreAdversaire": 421`, 1), "match", 25},
		{"date mal écrite", strings.Replace(valide, "2018-03-10", "10/03/2018", 1), "date", 5},
		{"genre inconnu", strings.Replace(valide, `"genre": "classique"`, `"genre": "scrabble"`, 1), "genre", 4},
		{"genre contraire aux lignes", strings.Replace(valide, `"genre": "classique"`, `"genre": "duplicate"`, 1), "genre", 4},
		{"exempt d'un duplicate", strings.Replace(duplicateJSON, `"date": "2019-05-04",`, `"date": "2019-05-04", "exempt": {"pointsDeMatch": 3},`, 1), "exempt", 5},
		{"JSON tronqué", valide[:len(valide)/2], "", 0},
		{"deux documents", valide + valide, "", 0},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			store, flux := ouvrir(t)
			_, err := archive.Importer(ctx, flux, "open.json", []byte(c.contenu), eventstore.Metadata{})
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, erreur.CodeInvalidInput, e.Code, e.Message)
			if c.ligne > 0 {
				assert.Equal(t, c.ligne, e.Details["ligne"], e.Message)
				assert.Contains(t, e.Message, "ligne ")
			}
			if c.champ != "" {
				assert.Equal(t, c.champ, e.Details["champ"], e.Message)
			}
			all, err := store.ReadAll(ctx, 0, 100)
			require.NoError(t, err)
			assert.Empty(t, all, "a refused file writes nothing")
		})
	}
}

// TestSecurite_CSVCellulesNeutralisees (issue 28 item 13): a text cell a
// spreadsheet would run (starting with = + - @, a tab or a carriage
// return) is written after an apostrophe, and so is one that starts with
// an apostrophe; LireCSV takes that apostrophe off and gives back the
// value written. Numbers, negative ones included, are written as they are.
func TestSecurite_CSVCellulesNeutralisees(t *testing.T) {
	tests := []struct {
		valeur, cellule string
	}{
		{`=HYPERLINK("http://exemple.invalid";"x")`, `'=HYPERLINK("http://exemple.invalid";"x")`},
		{`+cmd|' /C calc'!A0`, `'+cmd|' /C calc'!A0`},
		{`-2+3`, `'-2+3`},
		{`@SOMME(A1)`, `'@SOMME(A1)`},
		{`'Ti Jean`, `''Ti Jean`},
		{`Dupont = Martin`, `Dupont = Martin`},
		{`O'Neil`, `O'Neil`},
	}
	for _, tt := range tests {
		d := archive.Document{Tournoi: "open-2018", Nom: tt.valeur, Genre: archive.GenreClassique, Date: "2018-03-10",
			Classique: []archive.LigneClassique{
				{Ronde: 1, Match: "m1", Licence: "100", Nom: tt.valeur, Club: tt.valeur, Adversaire: "200", Score: -5, ScoreAdversaire: 380, PointsDeMatch: 1},
				{Ronde: 1, Match: "m1", Licence: "200", Nom: "Martin", Adversaire: "100", Score: 380, ScoreAdversaire: -5, PointsDeMatch: 3},
			}}
		var out bytes.Buffer
		require.NoError(t, archive.EcrireCSV(&out, d))
		cr := csv.NewReader(strings.NewReader(strings.TrimPrefix(out.String(), "\ufeff")))
		cr.Comma = ';'
		lignes, err := cr.ReadAll()
		require.NoError(t, err)
		for _, i := range []int{1, 6, 7} { // nom_tournoi, nom, club
			assert.Equal(t, tt.cellule, lignes[1][i], tt.valeur)
		}
		assert.Equal(t, "-5", lignes[1][9], "a negative score stays a number")
		lu, _, err := archive.LireCSV(out.Bytes())
		require.NoError(t, err, tt.valeur)
		assert.Equal(t, d.Nom, lu.Nom, "read back as written: %s", tt.valeur)
		assert.Equal(t, d.Classique, lu.Classique, "read back as written: %s", tt.valeur)
	}
}

// TestIssue34_ImporterLotToutOuRien: a lot of files (the federation's
// history is tens of thousands of them) is recorded in one batch: every
// file or none. A refused file (a bad line, another file of a tournament
// already imported, the same tournament twice in the lot with two
// contents) writes none of the lot; a file already imported, or twice in
// the lot, is DejaImporte and the others are written.
func TestIssue34_ImporterLotToutOuRien(t *testing.T) {
	ctx := context.Background()
	mauvais := duplicateValide + "vichy-2019;Festival de Vichy;2019-05-04;v3;3;100;Dupont Élise;Vichy;A;x;920;1;1800;1840;97,83;1\n"
	autreOpen := strings.Replace(classiqueValide, ";1512\n", ";1513\n", 1)
	autreTournoi := strings.ReplaceAll(duplicateValide, "vichy-2019", "nice-2020")
	refuses := []struct {
		nom      string
		fichiers []archive.Fichier
		code     erreur.Code
		fautif   string
	}{
		{"une ligne fautive", []archive.Fichier{{Nom: "nice.csv", Contenu: []byte(autreTournoi)}, {Nom: "vichy.csv", Contenu: []byte(mauvais)}}, archive.CodeInvalidInput, "vichy.csv"},
		{"un autre fichier d'un tournoi importé", []archive.Fichier{{Nom: "nice.csv", Contenu: []byte(autreTournoi)}, {Nom: "autre.csv", Contenu: []byte(autreOpen)}}, erreur.CodeAlreadyExists, "autre.csv"},
		{"deux fichiers d'un tournoi", []archive.Fichier{{Nom: "vichy.csv", Contenu: []byte(duplicateValide)}, {Nom: "nice.csv", Contenu: []byte(autreTournoi)},
			{Nom: "vichy-bis.csv", Contenu: []byte(strings.Replace(duplicateValide, ";850;", ";851;", 1))}}, erreur.CodeAlreadyExists, "vichy-bis.csv"},
	}
	for _, tc := range refuses {
		t.Run(tc.nom, func(t *testing.T) {
			store, flux := ouvrir(t)
			_, err := archive.Importer(ctx, flux, "lyon.csv", []byte(classiqueValide), eventstore.Metadata{})
			require.NoError(t, err)
			avant, err := store.ReadAll(ctx, 0, 100)
			require.NoError(t, err)
			_, err = archive.ImporterLot(ctx, flux, tc.fichiers, eventstore.Metadata{})
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.code, e.Code)
			assert.Contains(t, err.Error(), tc.fautif)
			apres, err := store.ReadAll(ctx, 0, 100)
			require.NoError(t, err)
			assert.Equal(t, avant, apres, "a refused lot writes nothing")
		})
	}

	store, flux := ouvrir(t)
	_, err := archive.Importer(ctx, flux, "lyon.csv", []byte(classiqueValide), eventstore.Metadata{})
	require.NoError(t, err)
	bilans, err := archive.ImporterLot(ctx, flux, []archive.Fichier{
		{Nom: "copie.csv", Contenu: []byte(classiqueValide)}, {Nom: "vichy.csv", Contenu: []byte(duplicateValide)},
		{Nom: "nice.csv", Contenu: []byte(autreTournoi)}, {Nom: "vichy-copie.csv", Contenu: []byte(duplicateValide)},
	}, eventstore.Metadata{})
	require.NoError(t, err)
	require.Len(t, bilans, 4)
	for k, deja := range []bool{true, false, false, true} {
		assert.Equal(t, deja, bilans[k].DejaImporte, bilans[k].Tournoi)
	}
	assert.Equal(t, "nice-2020", bilans[2].Tournoi)
	assert.Equal(t, 4, bilans[2].Lignes)
	for _, tc := range []struct {
		tournoi, contenu string
		genre            archive.Genre
	}{{"vichy-2019", duplicateValide, archive.GenreDuplicate}, {"nice-2020", autreTournoi, archive.GenreDuplicate}, {"open-2018", classiqueValide, archive.GenreClassique}} {
		d, ok, err := archive.Charger(ctx, store, flux.Registry, tc.genre, tc.tournoi)
		require.NoError(t, err)
		require.True(t, ok, tc.tournoi)
		var out bytes.Buffer
		require.NoError(t, archive.EcrireCSV(&out, d))
		assert.Equal(t, "\ufeff"+tc.contenu, out.String())
	}
	all, err := store.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Len(t, all, 3+3+3, "three tournaments of three events each, each once")
	assert.Equal(t, "archive-duplicate-vichy-2019", all[3].Stream, "the lot is recorded in the order of its files")
}
