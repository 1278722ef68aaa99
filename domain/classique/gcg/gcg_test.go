package gcg_test

import (
	"strings"
	"testing"

	"arbitre/domain/classique/gcg"
	"arbitre/domain/classique/gcg/gcgtest"
	"arbitre/domain/classique/matchclassique"
	"arbitre/engine/lexicon"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExport(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("MAISON\nTE\nMAISONS\n"), "ODS-test")
	require.NoError(t, err)
	r, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	p := matchclassique.Nouveau(r)
	err = p.Creer(matchclassique.Creation{Match: "m1", Tournoi: "open", Ronde: 2, Table: 5, Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	require.NoError(t, p.Tirer("ana", "AIMNOS?"))
	require.NoError(t, p.Tirer("bob", "TEKWYZJ"))
	require.NoError(t, p.PlacerMot("ana", "8H", "MAISON"))
	require.NoError(t, p.Tirer("ana", "AAAAAA"))
	require.NoError(t, p.PlacerMot("bob", "9H", "TE"))           // TE with MT and AE
	require.NoError(t, p.Contester("ana", []string{"TE", "MT"})) // mixed: withdrawn, ana -5
	require.NoError(t, p.Echanger("ana", "AA", "BB"))
	require.NoError(t, p.PlacerMot("bob", "H8", "MT")) // a phony through M
	require.NoError(t, p.Tirer("bob", "L"))
	require.NoError(t, p.Penaliser("ana", matchclassique.MotifArbitre, 0))
	for i := 0; i < 6; i++ {
		require.NoError(t, p.Passer([]string{"ana", "bob"}[i%2]))
	}
	out, err := gcg.Export(p)
	require.NoError(t, err)
	assert.Equal(t, `#character-encoding UTF-8
#player1 ana ana
#player2 bob bob
#title open ronde 2 table 5
#description Partie classique FISF (règlement classique, 102 lettres) : les règles sans équivalent GCG sont les notes « FISF »
#id arbitre m1
#lexicon ODS-test
#tile-distribution french
#game-type classic
>ana: AIMNOS? H8 MAISON +16 16
>bob: EJKTWYZ I8 TE +9 9
>bob: EJKTWYZ -- -9 0
#note FISF §5.3 : ana -5, contestation à tort (score officiel 11)
>ana: AAAAAA? -AA +0 16
>bob: EJKTWYZ 8H .T +3 3
#note FISF §8 : ana -5, pénalité de l'arbitre (score officiel 6)
>ana: AAAABB? - +0 16
>bob: EJKLWYZ - +0 3
>ana: AAAABB? - +0 16
>bob: EJKLWYZ - +0 3
>ana: AAAABB? - +0 16
>bob: EJKLWYZ - +0 3
>ana: AAAABB? (AAAABB?) -10 6
>bob: EJKLWYZ (EJKLWYZ) -50 -47
#note FISF résultat officiel : ana -4, bob -47 ; points de match 3-1 ; fin six « je passe » (§4.2)
`, out)
	lu, err := gcgtest.Lire(strings.NewReader(out))
	require.NoError(t, err)
	assert.Equal(t, [2]int{6, -47}, lu.Scores, "what a GCG reader computes")
	assert.Equal(t, [2]int{-4, -47}, lu.SelonFISF(), "with the FISF penalties")
}
