package duplicate

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
)

// §3.8.2: with the server's engines (Moteurs), a game plays its own
// formula: in "7 et 8" the eight-letter word and its 75-point prime are the
// top, in "7 sur 8" it is not even playable.
func TestMoteursServeTheGamesFormula_Article3_8_2(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ANTIQUES\nANTIQUE\n"), "test")
	require.NoError(t, err)
	moteurs := NewMoteurs(lex)
	for _, tc := range []struct {
		variante Variante
		top      string
		prime    int32
	}{
		{VarianteSeptEtHuit, "ANTIQUES", 75},
		{VarianteSeptSurHuit, "ANTIQUE", 50},
	} {
		p := Nouvelle(moteurs)
		cfg := Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur, Variante: tc.variante}
		require.NoError(t, p.Creer("p", "", 0, cfg, []string{"L1"}))
		require.NoError(t, p.Tirer("ANTIQUES"))
		sols := p.Solutions()
		require.NotEmpty(t, sols, string(tc.variante))
		assert.Equal(t, tc.top, sols[0].Move.WordString(), string(tc.variante))
		var b board.Board
		want := NewMoteur(lex, cfg.Variant()).Tops(&b, p.Rack())
		assert.Equal(t, want[0].Score, sols[0].Move.Score, string(tc.variante))
		assert.Greater(t, sols[0].Move.Score, tc.prime, "the prime of the formula is counted")
	}
}

// Issue 16 item 6: a game records its lexicon when it is created and is
// played with it on a server holding others; a game recorded before games
// recorded their lexicon is played with the server's default; a game whose
// lexicon is not held is LEXICON_NOT_LOADED.
func TestLexique_PartieJoueeAvecSonLexique(t *testing.T) {
	compile := func(label, mots string) *lexicon.Lexicon {
		lex, err := lexicon.Compile(strings.NewReader(mots), label)
		require.NoError(t, err)
		return lex
	}
	a, b := compile("A", "FGBACDE\n"), compile("B", "ABCDEFG\n")
	idA := a.Identite()
	cfg := Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur}
	for _, tc := range []struct {
		nom     string
		lexique *lexicon.Identite
		moteurs *Moteurs
		top     string
		absent  bool
	}{
		{"créée sous A, A chargé parmi d'autres", &idA, NewMoteurs(b, a), "FGBACDE", false},
		{"sans lexique enregistré : le lexique par défaut", nil, NewMoteurs(b, a), "ABCDEFG", false},
		{"créée sous A, A absent", &idA, NewMoteurs(b), "", true},
	} {
		p := Nouvelle(tc.moteurs)
		require.NoError(t, p.Apply(PartieCreee{Partie: "p", Config: cfg, Joueurs: []string{"L1"}, Lexique: tc.lexique}), tc.nom)
		if tc.absent {
			assert.Equal(t, CodeLexiqueAbsent, erreur.CodeOf(p.ExigerLexique()), tc.nom)
			continue
		}
		require.NoError(t, p.ExigerLexique(), tc.nom)
		require.NoError(t, p.Tirer("ABCDEFG"), tc.nom)
		sols := p.Solutions()
		require.NotEmpty(t, sols, tc.nom)
		assert.Equal(t, tc.top, sols[0].Move.WordString(), tc.nom)
	}

	p := Nouvelle(NewMoteurs(a, b))
	require.NoError(t, p.Creer("p", "", 0, cfg, []string{"L1"}))
	creee, ok := p.Pending()[0].(PartieCreee)
	require.True(t, ok)
	assert.Equal(t, &idA, creee.Lexique, "a new game records the default lexicon")
}

// A game created on one engine (the simulator's) records its lexicon too.
func TestLexique_PartieSurUnMoteurEnregistreSonLexique(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("FGBACDE\n"), "A")
	require.NoError(t, err)
	p := Nouvelle(NewMoteur(lex, movegen.Standard))
	require.NoError(t, p.Creer("p", "", 0, Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur}, []string{"L1"}))
	creee, ok := p.Pending()[0].(PartieCreee)
	require.True(t, ok)
	id := lex.Identite()
	assert.Equal(t, &id, creee.Lexique)
}
