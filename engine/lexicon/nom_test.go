package lexicon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbitre/engine/lexicon"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNom_LabelSansChemin: the name a GCG reader loads a lexicon by is never
// a path of the server (issue 30): a path gives the file's name.
func TestNom_LabelSansChemin(t *testing.T) {
	tests := []struct{ label, nom string }{
		{"/work/shared/lexicons/ods8.txt.gz", "ODS8"},
		{`C:\lexiques\ODS9.txt`, "ODS9"},
		{"ods8.gaddag", "ODS8"},
		{"ODS8, licence FISF", "ODS8"},
		{"ODS8", "ODS8"},
		{"an-array-of-french-words 2.0.0 (MIT), folded to A-Z; not the ODS", "an-array-of-french-words"},
		{"ODS-test", "ODS-test"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.nom, lexicon.Nom(tt.label), tt.label)
	}
	assert.Equal(t, "ODS8", lexicon.NomDeFichier("/x/y/ods8.txt.gz"))
}

// TestLoad_Issue31_ListeSansChemin: a plain word list given to --lexicon is
// compiled at load; it was labelled with its path on the server, which every
// page of a game then showed. It is labelled with the file's name, as
// `arbitre lexicon compile` does, and still answers to the identity games
// recorded under its path.
func TestLoad_Issue31_ListeSansChemin(t *testing.T) {
	chemin := filepath.Join(t.TempDir(), "ods8.txt")
	require.NoError(t, os.WriteFile(chemin, []byte("MAISON\nTE\n"), 0o644))
	lex, err := lexicon.Load(chemin)
	require.NoError(t, err)
	assert.Equal(t, "ODS8", lex.Label())
	assert.False(t, strings.Contains(lex.Identite().String(), chemin))
	parChemin, err := lexicon.Compile(strings.NewReader("MAISON\nTE\n"), chemin)
	require.NoError(t, err)
	id := parChemin.Identite()
	trouve, ok := lexicon.NewBibliotheque(lex).Trouver(&id)
	require.True(t, ok, "the identity recorded under the path")
	assert.Same(t, lex, trouve)
}
