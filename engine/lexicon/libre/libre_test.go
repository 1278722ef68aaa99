package libre_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
)

// ancienne is the identity games created before issue 31 recorded for the
// shipped list (the label compiled in English).
var ancienne = lexicon.Identite{Label: "an-array-of-french-words 2.0.0 (MIT), folded to A-Z; not the ODS", Mots: 311509, Somme: 0x6f796db1}

// TestLibre_Issue31_LibelleEnFrancais: the shipped list's label, shown on
// every page of a game with its word count and checksum, read « folded to
// A-Z; not the ODS » on the hall display. People read French; the label's
// first word stays the name GCG readers load it by.
func TestLibre_Issue31_LibelleEnFrancais(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	label := lex.Identite().Label
	for _, anglais := range []string{"folded", "not the", " to A-Z"} {
		assert.NotContains(t, label, anglais)
	}
	assert.Contains(t, label, "ce n'est pas l'ODS")
	assert.Equal(t, "an-array-of-french-words", lexicon.Nom(label))
	assert.Equal(t, ancienne.Mots, lex.Words(), "the same words")
}

// TestLibre_Issue31_AncienneIdentiteReconnue: a game recorded the list's
// identity at its creation, the old label included, and is judged with that
// list only: relabelled in French, the shipped list still answers to it.
func TestLibre_Issue31_AncienneIdentiteReconnue(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	b := lexicon.NewBibliotheque(lex)
	for _, id := range []lexicon.Identite{ancienne, lex.Identite()} {
		trouve, ok := b.Trouver(&id)
		require.True(t, ok, "%s", id)
		assert.Same(t, lex, trouve)
	}
	autre := ancienne
	autre.Somme++
	_, ok := b.Trouver(&autre)
	assert.False(t, ok, "another checksum is another list")
}
