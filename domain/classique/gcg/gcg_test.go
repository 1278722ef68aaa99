package gcg_test

import (
	"strings"
	"testing"

	"arbitre/domain/classique/gcg"
	"arbitre/domain/classique/partie"
	"arbitre/engine/lexicon"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExport(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("MAISON\nTE\nMAISONS\n"), "ODS-test")
	require.NoError(t, err)
	r, err := partie.NewRegles(lex)
	require.NoError(t, err)
	p, err := partie.Creer(r, partie.Creation{Match: "m1", Tournoi: "open", Ronde: 2, Table: 5, Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
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
	require.NoError(t, p.Penaliser("ana", partie.MotifArbitre, 0))
	for i := 0; i < 6; i++ {
		require.NoError(t, p.Passer([]string{"ana", "bob"}[i%2]))
	}
	out, err := gcg.Export(p)
	require.NoError(t, err)
	assert.Equal(t, `#character-encoding UTF-8
#player1 ana ana
#player2 bob bob
#title open ronde 2 table 5
#id arbitre m1
#lexicon ODS-test
#tile-distribution french
#game-type classic
#note FISF classique rules (fisf-reglement-classique.txt); 102 tiles, French values.
>ana: AIMNOS? H8 MAISON +16 16
>bob: EJKTWYZ I8 TE +9 9
>bob: EJKTWYZ -- -9 0
#note ana: contestation à tort (§5.3), -5 points
>ana: AAAAAA? (time) -5 11
>ana: AAAAAA? -AA +0 11
>bob: EJKTWYZ 8H .T +3 3
#note ana: pénalité arbitre, -5 points
>ana: AAAABB? (time) -5 6
>ana: AAAABB? - +0 6
>bob: EJKLWYZ - +0 3
>ana: AAAABB? - +0 6
>bob: EJKLWYZ - +0 3
>ana: AAAABB? - +0 6
>bob: EJKLWYZ - +0 3
>ana: AAAABB? (AAAABB?) -10 -4
>bob: EJKLWYZ (EJKLWYZ) -50 -47
#note fin: six_passes, scores -4--47, points de match 3-1
`, out)
}
