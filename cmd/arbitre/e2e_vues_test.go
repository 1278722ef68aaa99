package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/projections/projection"
)

// The API's game views are the parties projection's (issue 13 item 5): a
// view altered in the read-model database is what the API serves, until
// `projections rebuild` folds it again from the log.
func TestE2EVuesPartieServiesParLaProjection(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L1", nom:"Joueur 1", table:1}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	var tiree apiPartie
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &tiree)
	require.NotEmpty(t, tiree.Tirage)
	lire := func() apiPartie {
		var p apiPartie
		s.gql("", `{ partie(id:"T1-1") { `+partieFields+` } }`, nil).into(t, "partie", &p)
		return p
	}
	assert.Equal(t, tiree, lire(), "the public reads the state the director's command answered")
	s.stop()

	db, err := projection.OpenDB(filepath.Join(data, projection.FileName))
	require.NoError(t, err)
	res, err := db.Exec(`UPDATE parties_vues SET vue = json_set(vue, '$.tirage', 'ALTERE') WHERE partie = 'T1-1'`)
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.EqualValues(t, 1, n, "the projection holds the game's view")
	require.NoError(t, db.Close())

	s = startAPIServer(t, data)
	assert.Equal(t, "ALTERE", lire().Tirage, "the API serves the projection's view, it does not replay the game")
	s.stop()

	_, err = runArbitre(t, "projections", "rebuild", "--data", data, "--store", "sqlite")
	require.NoError(t, err)
	s = startAPIServer(t, data)
	defer s.stop()
	assert.Equal(t, tiree, lire(), "the rebuilt view is the one folded from the log")
}
