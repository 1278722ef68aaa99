package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2EArchive_Issue34_ClassementAnnuelEtResultatsDUnClub: a year's
// national ranking and a club's results are public archive queries: the
// 2019 duplicate ranking by share of the tops, the 2018 classique one by
// cote, Cusset's 2019 players with their national rank; a simulated year
// of the federation pages by 100 in the order of the ranking. Every input
// is bounded: a page over 100, a cursor the server did not give, a year
// out of the federation's history, an empty or oversized club name are
// INVALID_INPUT.
func TestE2EArchive_Issue34_ClassementAnnuelEtResultatsDUnClub(t *testing.T) {
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "archive", "--annees", "1", "--tournois", "4", "--licencies", "300", "--seed", "2", "--data", data)
	require.NoError(t, err)
	s := startAPIServer(t, data)
	defer s.stop()
	importerFichiers(t, data, [2]string{"lyon.csv", e2eLyon2018}, [2]string{"vichy.csv", e2eVichy2019})

	const classement = `query($a: Int!, $t: GenreTournoi!, $first: Int, $after: String) {
		classementAnnuel(annee: $a, type: $t, first: $first, after: $after) {
			edges { cursor node { rang joueur nom club parties points maximum pourcentage cote } } pageInfo { hasNextPage endCursor } } }`
	const club = `query($c: String!, $a: Int!, $t: GenreTournoi!) {
		resultatsClub(club: $c, annee: $a, type: $t) { edges { node { rang joueur nom club parties points maximum pourcentage cote } } } }`
	type bilan struct {
		Rang                     int
		Joueur, Nom, Club        string
		Parties, Points, Maximum int
		Pourcentage              float64
		Cote                     *int
	}
	type page struct {
		Edges []struct {
			Cursor string
			Node   bilan
		}
		PageInfo struct {
			HasNextPage bool
			EndCursor   *string
		}
	}
	var p page
	var vue derniereErreur
	require.Eventually(t, func() bool {
		return vue.ok(s.gql("", classement, map[string]any{"a": 2019, "t": "duplicate"}).lire("classementAnnuel", &p)) && len(p.Edges) == 2
	}, 10*time.Second, 20*time.Millisecond, "the 2019 annual standings (%s)", &vue)
	assert.Equal(t, bilan{Rang: 1, Joueur: "L1", Nom: "Dupont Élise", Club: "Vichy", Parties: 1, Points: 900, Maximum: 920, Pourcentage: 97.83}, p.Edges[0].Node)
	assert.Equal(t, bilan{Rang: 2, Joueur: "L2", Nom: "Martin Léo", Club: "Cusset", Parties: 1, Points: 850, Maximum: 920, Pourcentage: 92.39}, p.Edges[1].Node)
	assert.False(t, p.PageInfo.HasNextPage)

	s.gql("", classement, map[string]any{"a": 2018, "t": "classique"}).into(t, "classementAnnuel", &p)
	require.Len(t, p.Edges, 2)
	require.NotNil(t, p.Edges[0].Node.Cote)
	assert.Equal(t, [3]any{"L1", 1512, 4}, [3]any{p.Edges[0].Node.Joueur, *p.Edges[0].Node.Cote, p.Edges[0].Node.Points}, "ranked by cote")

	var c page
	s.gql("", club, map[string]any{"c": "Cusset", "a": 2019, "t": "duplicate"}).into(t, "resultatsClub", &c)
	require.Len(t, c.Edges, 1)
	assert.Equal(t, "L2", c.Edges[0].Node.Joueur)
	assert.Equal(t, 2, c.Edges[0].Node.Rang, "the national rank")

	// The simulated year: hundreds of players, read 100 at a time.
	s.gql("", classement, map[string]any{"a": 2006, "t": "duplicate", "first": 100}).into(t, "classementAnnuel", &p)
	require.Len(t, p.Edges, 100)
	require.True(t, p.PageInfo.HasNextPage)
	var suite page
	s.gql("", classement, map[string]any{"a": 2006, "t": "duplicate", "first": 100, "after": *p.PageInfo.EndCursor}).into(t, "classementAnnuel", &suite)
	require.NotEmpty(t, suite.Edges)
	assert.GreaterOrEqual(t, suite.Edges[0].Node.Rang, p.Edges[99].Node.Rang)
	assert.LessOrEqual(t, suite.Edges[0].Node.Pourcentage, p.Edges[99].Node.Pourcentage)
	premier := p.Edges[0].Node
	s.gql("", club, map[string]any{"c": premier.Club, "a": 2006, "t": "duplicate"}).into(t, "resultatsClub", &c)
	require.NotEmpty(t, c.Edges)
	assert.Equal(t, premier, c.Edges[0].Node, "the club's best is the nation's first")

	for nom, res := range map[string]apiResult{
		"page de 101":         s.gql("", classement, map[string]any{"a": 2019, "t": "duplicate", "first": 101}),
		"page de 0":           s.gql("", classement, map[string]any{"a": 2019, "t": "duplicate", "first": 0}),
		"curseur inventé":     s.gql("", classement, map[string]any{"a": 2019, "t": "duplicate", "after": "pas-un-curseur"}),
		"année hors histoire": s.gql("", classement, map[string]any{"a": 99999, "t": "duplicate"}),
		"club vide":           s.gql("", club, map[string]any{"c": " ", "a": 2019, "t": "duplicate"}),
		"club trop long":      s.gql("", club, map[string]any{"c": strings.Repeat("é", 101), "a": 2019, "t": "duplicate"}),
		"club énorme":         s.gql("", club, map[string]any{"c": strings.Repeat("x", 200000), "a": 2019, "t": "duplicate"}),
		"année du club":       s.gql("", club, map[string]any{"c": "Cusset", "a": -1, "t": "duplicate"}),
	} {
		assert.Equal(t, "INVALID_INPUT", res.code(), nom)
	}
}
