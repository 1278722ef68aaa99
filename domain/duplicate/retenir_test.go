package duplicate

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
)

// §3.4: a top the engine cannot play is refused with the reason a director
// can act on — letters not in the tirage, a word not in the lexicon, or a
// placement the rules refuse — and changes nothing.
func TestRetenirTopUnplayable_Article3_4(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nNE\nEN\n"), "test")
	require.NoError(t, err)
	cases := []struct {
		ref, mot string
		code     Code
	}{
		{"H7", "ZEE", CodeNotInTirage},
		{"H7", "NZE", CodeInvalidWord},
		{"A1", "ZEN", CodeInvalidTop},
	}
	for _, c := range cases {
		p := Nouvelle(NewMoteur(lex, movegen.Standard))
		require.NoError(t, p.Creer("p", "", 0, Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur}, []string{"L1"}))
		require.NoError(t, p.Tirer("ZENAIRT"))
		version := p.Version()
		err := p.RetenirTop(c.ref, c.mot)
		assert.Equal(t, c.code, erreur.CodeOf(err), "%s %s", c.mot, c.ref)
		assert.Equal(t, version, p.Version(), "nothing recorded")
	}
}
