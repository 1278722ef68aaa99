package main

import (
	"os"
	"path/filepath"
	"testing"

	"arbitre/engine/lexicon"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLexiconCompile_LabelSansChemin: compiled without --label, a lexicon
// is labelled with its file's name (ods8.txt → ODS8), never the path it was
// compiled from on the server (issue 30); --label still sets it.
func TestLexiconCompile_LabelSansChemin(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "ods8.txt")
	require.NoError(t, os.WriteFile(src, []byte("MAISON\nTE\n"), 0o644))
	tests := []struct {
		name  string
		args  []string
		label string
	}{
		{"without --label: the file's name", nil, "ODS8"},
		{"--label", []string{"--label", "ODS8, licence FISF"}, "ODS8, licence FISF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "ods8.gaddag")
			_, err := runArbitre(t, append([]string{"lexicon", "compile", src, "-o", out}, tt.args...)...)
			require.NoError(t, err)
			lex, err := lexicon.Load(out)
			require.NoError(t, err)
			assert.Equal(t, tt.label, lex.Label())
			assert.Equal(t, "ODS8", lexicon.Nom(lex.Label()))
		})
	}
}
