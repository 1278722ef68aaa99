package classique_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/projections/classique"
)

// TestArt7_Art9_ProjectionSuitLaConfigurationDuTournoi: the standings
// projection ranks with the tournament's own tie-breaks and bye, as the
// aggregate does (classique §7, §9): here a bye counted as a draw 400–400
// and points de match alone, ex aequo allowed.
func TestArt7_Art9_ProjectionSuitLaConfigurationDuTournoi(t *testing.T) {
	ctx := context.Background()
	store := magasin(t)
	reg, err := adapters.Registre()
	require.NoError(t, err)

	cfg := tournoiclassique.Config{Departage: tournoiclassique.Departage{Criteres: []tournoiclassique.Critere{}, ExAequo: true},
		Exempt: tournoiclassique.Exempt{PointsDeMatch: 2, Score: 400, ScoreAdverse: 400}}
	tr := tournoiclassique.Nouveau()
	err = tr.Ouvrir("cfg", "Open configuré", 2, cfg)
	require.NoError(t, err)
	for _, j := range []string{"P1", "P2", "P3"} {
		require.NoError(t, tr.Inscrire(j, j, 1000))
	}
	require.NoError(t, tr.EtablirTetesDeSerie())
	require.NoError(t, tr.Proposer(pairing.InitialByCote, false))
	require.NoError(t, tr.Publier())
	require.NoError(t, adapters.NewTournois(store, reg).Enregistrer(ctx, tr, eventstore.Metadata{Actor: "directeur", Role: "directeur"}))

	db, rs := runners(t, store)
	_, err = rs[0].Rebuild(ctx, nil)
	require.NoError(t, err)
	got, err := classique.LecteurClassementDe(db).Standings(ctx, "cfg")
	require.NoError(t, err)
	assert.Equal(t, tr.Classement(), got)
	require.Len(t, got, 3)
	assert.Equal(t, []int{1, 2, 2}, []int{got[0].Rang, got[1].Rang, got[2].Rang}, "ex aequo on points de match")
	assert.Equal(t, 2, got[0].PointsDeMatch, "the bye counts the tournament's 2 points de match")
	assert.Equal(t, 1, got[0].Exempts)
}
