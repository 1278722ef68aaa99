package historique_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// TestArt3_8_3_EliminationAnnuleeRouvreLaPartie: the history lists a sudden
// death game as over once the elimination leaves one player, and as going
// on again once the director undoes that elimination (§3.8.3).
func TestArt3_8_3_EliminationAnnuleeRouvreLaPartie(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	run, err := projection.NewRunner(ctx, db, p, store)
	require.NoError(t, err)
	n := 0
	terminee := func(evts ...any) bool {
		t.Helper()
		for _, e := range evts {
			d, err := reg.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "partie-D1-1/%d", n)), e, eventstore.Metadata{Actor: "test"})
			require.NoError(t, err)
			_, err = store.Append(ctx, "partie-D1-1", eventstore.Any, d)
			require.NoError(t, err)
			n++
		}
		_, err := run.CatchUp(ctx, nil)
		require.NoError(t, err)
		parties, _, err := historique.LecteurDe(db).Parties(ctx, "D1", historique.Page{})
		require.NoError(t, err)
		require.Len(t, parties, 1)
		return parties[0].Terminee
	}
	cfg, err := duplicate.Config{TempsParCoup: time.Minute, Mode: duplicate.ModeMortSubite}.Valider()
	require.NoError(t, err)
	assert.False(t, terminee(duplicate.PartieCreee{Partie: "D1-1", Tournoi: "D1", Numero: 1, Config: cfg, Joueurs: []string{"A", "B"}}))
	assert.True(t, terminee(duplicate.EliminationsDecidees{Coup: 1, Reference: 14, Elimines: []string{"B"}},
		duplicate.PartieTerminee{Motif: duplicate.FinVainqueur, DernierCoup: 1, Vainqueur: "A"}))
	assert.False(t, terminee(duplicate.EliminationsAnnulees{Coup: 1, Motif: "bulletin de B mal corrigé"}), "the game goes on")
}
