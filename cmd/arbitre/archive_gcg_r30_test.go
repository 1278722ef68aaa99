package main

import (
	"archive/zip"
	"bytes"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arbitre/domain/classique/gcg/gcgtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchive_ZipSansLexiqueGCGLus: a tournament played under a lexicon the
// exporting server does not hold is exported as a zip all the same (writing
// what was recorded needs no lexicon), and every GCG file of the zip is read
// to its end by a GCG reader written from the specification (gcgtest): the
// lexicon by its name, never a path; the official result of its FISF note
// is the CSV's, and the GCG lines with the FISF notes give it (issue 30).
func TestArchive_ZipSansLexiqueGCGLus(t *testing.T) {
	data, dir := t.TempDir(), t.TempDir()
	lex := filepath.Join(dir, "essai.gaddag")
	_, err := runArbitre(t, "lexicon", "compile", filepath.Join("..", "..", "engine", "lexicon", "libre", "words.txt.gz"), "-o", lex, "--label", "ESSAI, liste libre")
	require.NoError(t, err)
	_, err = runArbitre(t, "simulate", "classique", "--players", "8", "--rounds", "3", "--seed", "5", "--workers", "1", "--lexicon", lex, "--data", data)
	require.NoError(t, err)

	raw := exporter(t, data, "sim-5", "zip") // the server's default lexicon only
	z, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	resultats := map[string][]string{} // match → the CSV line of each player
	lus := 0
	for _, f := range z.File {
		rc, err := f.Open()
		require.NoError(t, err)
		contenu, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		if f.Name == "sim-5.csv" {
			for _, l := range strings.Split(strings.TrimPrefix(string(contenu), "\ufeff"), "\n")[1:] {
				if c := strings.Split(l, ";"); len(c) > 11 && c[4] != "" {
					resultats[c[4]+" "+c[5]] = c
				}
			}
		}
		if !strings.HasPrefix(f.Name, "parties/") {
			continue
		}
		lus++
		match := strings.TrimSuffix(strings.TrimPrefix(f.Name, "parties/"), ".gcg")
		lu, err := gcgtest.Lire(bytes.NewReader(contenu))
		require.NoError(t, err, "%s:\n%s", f.Name, contenu)
		assert.Equal(t, "ESSAI", lu.Lexique)
		assert.True(t, lu.Terminee, f.Name)
		require.NotNil(t, lu.Officiel, f.Name)
		assert.Equal(t, lu.Officiel.Scores, lu.SelonFISF(), "%s: GCG lines and FISF notes give the official result", f.Name)
		ligne := resultats[match+" "+lu.Pseudos[0]]
		require.NotNil(t, ligne, "%s: the CSV line of %s", f.Name, lu.Pseudos[0])
		assert.Equal(t, lu.Pseudos[1], ligne[8])
		for i, col := range []int{9, 10, 11} {
			want := [3]int{lu.Officiel.Scores[0], lu.Officiel.Scores[1], lu.Officiel.PointsDeMatch[0]}[i]
			assert.Equal(t, strconv.Itoa(want), ligne[col], "%s: CSV column %d", f.Name, col)
		}
	}
	assert.Equal(t, 12, lus, "4 tables × 3 rounds")

	// The API's gcg(match) reads what was recorded too, on a server that
	// has not loaded the match's lexicon.
	s := startAPIServer(t, data)
	defer s.stop()
	for match := range resultats {
		id, _, _ := strings.Cut(match, " ")
		var export string
		s.gql("", `query($m: ID!) { gcg(match:$m) }`, map[string]any{"m": id}).into(t, "gcg", &export)
		assert.Contains(t, export, "#lexicon ESSAI\n", id)
		break
	}
}
