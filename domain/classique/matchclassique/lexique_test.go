package matchclassique_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/erreur"
	"arbitre/engine/lexicon"
)

// Issue 16 item 6: a match records its lexicon and is judged with it on a
// server holding others; a match recorded without one is judged with the
// default; a match whose lexicon is not held is LEXICON_NOT_LOADED.
func TestLexique_MatchJugeAvecSonLexique(t *testing.T) {
	compile := func(label, mots string) *lexicon.Lexicon {
		lex, err := lexicon.Compile(strings.NewReader(mots), label)
		require.NoError(t, err)
		return lex
	}
	a, b := compile("A", "MAISON\n"), compile("B", "SONT\n")
	idA := a.Identite()
	// Issue 31: A was labelled « A0 » before; a match recorded that identity.
	idA0 := compile("A0", "MAISON\n").Identite()
	a.ConnuAussi("A0")
	cree := func(id *lexicon.Identite) matchclassique.MatchCree {
		return matchclassique.MatchCree{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Designation: matchclassique.ParLogiciel, Identite: id}
	}
	avecA, err := matchclassique.NewRegles(b, a)
	require.NoError(t, err)
	sansA, err := matchclassique.NewRegles(b)
	require.NoError(t, err)
	for _, tc := range []struct {
		nom    string
		regles *matchclassique.Regles
		cree   matchclassique.MatchCree
		admis  string
		absent bool
	}{
		{"créé sous A, A chargé parmi d'autres", avecA, cree(&idA), "MAISON", false},
		{"créé sous l'ancien libellé de A (issue 31)", avecA, cree(&idA0), "MAISON", false},
		{"sans lexique enregistré : le lexique par défaut", avecA, cree(nil), "SONT", false},
		{"créé sous A, A absent", sansA, cree(&idA), "", true},
	} {
		p, err := matchclassique.Rejouer(tc.regles, []any{tc.cree})
		require.NoError(t, err, tc.nom)
		if tc.absent {
			assert.Equal(t, matchclassique.CodeLexiqueAbsent, erreur.CodeOf(p.ExigerLexique()), tc.nom)
			continue
		}
		require.NoError(t, p.ExigerLexique(), tc.nom)
		require.NoError(t, p.Tirer("ana", "AIMNOST"), tc.nom)
		require.NoError(t, p.Tirer("bob", "AEINRST"), tc.nom)
		require.NoError(t, p.PlacerMot("ana", "H8", tc.admis), tc.nom)
		require.NoError(t, p.Contester("bob", []string{tc.admis}), tc.nom)
		assert.Positive(t, p.Scores()[0], "%s: %s is admitted, the play stands", tc.nom, tc.admis)
	}
}
