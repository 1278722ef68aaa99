package gcgtest_test

import (
	"strings"
	"testing"

	"arbitre/domain/classique/gcg/gcgtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const entete = `#character-encoding UTF-8
#player1 ana Ana Martin
#player2 bob Bob Petit
#lexicon ODS8
#tile-distribution french
`

// TestLecteur_LitLaSpecification: every event line of the specification is
// read and its cumulative replayed.
func TestLecteur_LitLaSpecification(t *testing.T) {
	lu, err := gcgtest.Lire(strings.NewReader(entete + `>ana: AIMNOS? 8H MAISON +16 16
#note une note sur MAISON
>bob: EJKTWYZ 9H TE +9 9
>bob: EJKTWYZ -- -9 0
>ana: AAAAAA? -AA +0 16
>bob: EJKTWYZ - +0 0
>ana: AAAABB? H8 .AB +10 26
>ana: AAAABB? (challenge) +5 31
>bob: EJKTWYZ (time) -10 -10
>ana: AAAABB? (AAAABB?) -10 21
`))
	require.NoError(t, err)
	assert.Equal(t, [2]string{"ana", "bob"}, lu.Pseudos)
	assert.Equal(t, "ODS8", lu.Lexique)
	assert.Equal(t, [2]int{21, -10}, lu.Scores)
	assert.True(t, lu.Terminee)
	assert.Equal(t, []string{"une note sur MAISON"}, lu.Evenements[0].Notes)
	var genres []gcgtest.Genre
	for _, e := range lu.Evenements {
		genres = append(genres, e.Genre)
	}
	assert.Equal(t, []gcgtest.Genre{gcgtest.Placement, gcgtest.Placement, gcgtest.Retrait, gcgtest.Echange, gcgtest.Passe,
		gcgtest.Placement, gcgtest.Bonus, gcgtest.Temps, gcgtest.ResteDeduit}, genres)
}

// TestLecteur_RefuseCeQueMacondoRefuse: the lines of issue 30 and the other
// forms a GCG reader refuses.
func TestLecteur_RefuseCeQueMacondoRefuse(t *testing.T) {
	tests := []struct {
		name, texte, erreur string
	}{
		{"a (time) line ends the game: no move after it", entete + ">ana: AIMNOS? 8H MAISON +16 16\n>bob: EJKTWYZ (time) -5 -5\n>ana: AAAAAA? -AA +0 16\n",
			"après la fin de la partie"},
		{"a negative cumulative on a withdrawn play", entete + ">ana: AIMNOS? 8H MAISON +16 16\n>ana: AIMNOS? -- -16 -5\n", "négatif"},
		{"a negative cumulative on a pass", entete + ">ana: AIMNOS? - +0 -5\n", "négatif"},
		{"a note before the first move", entete + "#note FISF classique\n>ana: AIMNOS? 8H MAISON +16 16\n", "avant le premier coup"},
		{"a lexicon given by path", strings.Replace(entete, "ODS8", "/srv/shared/lexicons/ods8.txt.gz", 1) + ">ana: AIMNOS? 8H MAISON +16 16\n", "chemin"},
		{"a cumulative that is not the sum", entete + ">ana: AIMNOS? 8H MAISON +16 17\n", "cumul 17"},
		{"player 2 moving first", entete + ">bob: AIMNOS? 8H MAISON +16 16\n", "tour de ana"},
		{"a '.' on an empty square", entete + ">ana: AIMNOS? 8H M.ISON +16 16\n", "case vide"},
		{"a '?' in a play", entete + ">ana: AIMNOSE 8H MAISON? +16 16\n", "minuscules pour les jokers"},
		{"tiles not on the rack", entete + ">ana: AIMNOSE 8H MAISONS +16 16\n", "absent du chevalet"},
		{"a withdrawn play that is not the last", entete + ">ana: AIMNOS? 8H MAISON +16 16\n>bob: EJKTWYZ - +0 0\n>ana: AIMNOS? -- -16 0\n", "sans coup"},
		{"a move after six scoreless turns", entete + strings.Repeat(">ana: AIMNOS? - +0 0\n>bob: EJKTWYZ - +0 0\n", 3) + ">ana: AIMNOS? 8H MAISON +16 16\n",
			"après la fin de la partie"},
		{"the opponent's rack gained without going out", entete + ">ana: AB 8H BA +4 4\n>ana: (KZ) +40 44\n", "pas posé toutes ses lettres"},
		{"a pragma after the first move", entete + ">ana: AIMNOS? 8H MAISON +16 16\n#title open\n", "après le premier coup"},
		{"no move", entete, "aucun coup"},
		{"an unknown pragma", "#foo bar\n" + entete, "inconnu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gcgtest.Lire(strings.NewReader(tt.texte))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.erreur)
		})
	}
}
