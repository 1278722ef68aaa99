package lexicon_test

import (
	"testing"

	"arbitre/engine/lexicon"

	"github.com/stretchr/testify/assert"
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
