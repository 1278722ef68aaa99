package main

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore/sqlitestore"
)

// evenementsDuMagasin counts the events of the store in dir.
func evenementsDuMagasin(t *testing.T, dir string) int {
	t.Helper()
	store, err := sqlitestore.OpenDir(context.Background(), dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	events, err := store.ReadAll(context.Background(), 0, 100000)
	require.NoError(t, err)
	return len(events)
}

// exporter runs `archive export` into a file and returns its bytes.
func exporter(t *testing.T, data, tournoi, format string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), tournoi+"."+format)
	_, err := runArbitre(t, "archive", "export", "--tournoi", tournoi, "--format", format, "-o", out, "--data", data)
	require.NoError(t, err)
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	return raw
}

// TestArchive_Guide2_16_AllerRetourSimule: the results as guide §2.16 ranks
// them (general rank, série) and classique §2.1.5 records them (scores,
// points de match): a simulated tournament exported, imported
// into a fresh store and exported again gives the same CSV byte for byte;
// the zip holds the CSV, the JSON and every classique match's GCG.
func TestArchive_Guide2_16_AllerRetourSimule(t *testing.T) {
	for _, c := range []struct {
		genre    string
		simuler  []string
		matchs   int
		enTete   string
		tournoi  string
		premiere string
	}{
		{"duplicate", []string{"simulate", "duplicate", "--players", "6", "--games", "2", "--seed", "5"}, 0,
			"tournoi;nom_tournoi;date;partie;numero;licence;nom;club;serie;score;top;rang;cumul;top_cumul;pourcentage;rang_general", "sim-5", "sim-5-"},
		{"classique", []string{"simulate", "classique", "--players", "7", "--rounds", "3", "--seed", "2", "--workers", "1"}, 9,
			"tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres", "sim-2", "sim-2-r1-"},
	} {
		t.Run(c.genre, func(t *testing.T) {
			joue, vierge := t.TempDir(), t.TempDir()
			_, err := runArbitre(t, append(c.simuler, "--data", joue)...)
			require.NoError(t, err)
			csv := exporter(t, joue, c.tournoi, "csv")
			lignes := strings.Split(strings.TrimPrefix(string(csv), "\ufeff"), "\n")
			assert.Equal(t, c.enTete, lignes[0])
			assert.Contains(t, lignes[1], ";"+c.premiere)
			assert.Greater(t, len(lignes), 10)
			if c.genre == "classique" {
				assert.Len(t, lignes, 1+3*7+1, "header, 7 players × 3 rounds (3 byes among them), the final line break")
				assert.Regexp(t, `(?m);1;;J\d{4};;;;450;350;3;\d+;\d+$`, strings.Join(lignes, "\n"), "a bye's line: no match, no opponent")
			}

			fichier := filepath.Join(t.TempDir(), "export.csv")
			require.NoError(t, os.WriteFile(fichier, csv, 0o600))
			out, err := runArbitre(t, "archive", "import", fichier, "--data", vierge, "--init")
			require.NoError(t, err)
			assert.Contains(t, out, "lignes importées")
			assert.Equal(t, string(csv), string(exporter(t, vierge, c.tournoi, "csv")), "export, import, export: the same CSV")
			assert.Equal(t, string(exporter(t, joue, c.tournoi, "json")), string(exporter(t, vierge, c.tournoi, "json")))

			raw := exporter(t, joue, c.tournoi, "zip")
			z, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
			require.NoError(t, err)
			var noms []string
			gcg := 0
			for _, f := range z.File {
				noms = append(noms, f.Name)
				if strings.HasPrefix(f.Name, "parties/") && strings.HasSuffix(f.Name, ".gcg") {
					gcg++
				}
			}
			assert.Contains(t, noms, c.tournoi+".csv")
			assert.Contains(t, noms, c.tournoi+".json")
			assert.Equal(t, c.matchs, gcg, "one GCG per classique match")
		})
	}
}

// TestArchive_ImportCLILigneFautiveEtDoubleImport: a bad line is named by
// its number and nothing is written; the same file twice writes once.
func TestArchive_ImportCLILigneFautiveEtDoubleImport(t *testing.T) {
	data := t.TempDir()
	dir := t.TempDir()
	bon := "tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres\n" +
		"open-2018;Open de Lyon;2018-03-10;1;m1;100;Dupont;;200;420;380;3;1500;1512\n" +
		"open-2018;Open de Lyon;2018-03-10;1;m1;200;Martin;;100;380;420;1;1450;1438\n"
	mauvais := bon + "open-2018;Open de Lyon;2018-03-10;2;m2;100;Dupont;;200;420;trois cents;2;1500;1512\n"
	for nom, contenu := range map[string]string{"bon.csv": bon, "mauvais.csv": mauvais} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, nom), []byte(contenu), 0o600))
	}

	_, err := runArbitre(t, "archive", "import", filepath.Join(dir, "mauvais.csv"), "--data", data, "--init")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ligne 4 : score_adversaire « trois cents » n'est pas un nombre entier")
	assert.Zero(t, evenementsDuMagasin(t, data), "nothing of a refused file is written")

	_, err = runArbitre(t, "archive", "import", filepath.Join(dir, "bon.csv"), "--data", data)
	require.NoError(t, err)
	n := evenementsDuMagasin(t, data)
	assert.Equal(t, 2, n, "the file's origin and one event for its match")
	out, err := runArbitre(t, "archive", "import", filepath.Join(dir, "bon.csv"), "--data", data)
	require.NoError(t, err)
	assert.Contains(t, out, "déjà importé")
	assert.Equal(t, n, evenementsDuMagasin(t, data), "the second import writes nothing")
}
