package historique_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
	"arbitre/projections/projection"
)

// TestRevue14_VuesIdentiquesQuelQueSoitLeLot: session 14's fold of the
// archive (players looked up ahead for the imported events that follow
// in the slice, names written only when they differ from the row looked
// up) gives the rows of a fold one event a batch, where nothing is looked
// up ahead and every name is written, for a history the pinned ones miss:
// live registrations of imported players (duplicate and classique, one
// renaming, one keeping the name) between imported files in the same
// slice, players renamed from file to file over two years, out of date
// order. Folded one event a batch, all in one batch, and all in one bulk;
// the rows are those main's code wrote before session 14 (their SHA-256,
// as TestIssue34_VuesDeLArchiveInchangees).
func TestRevue14_VuesIdentiquesQuelQueSoitLeLot(t *testing.T) {
	ctx := context.Background()
	horloge := eventstore.ClockFunc(func() time.Time { return time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC) })
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: horloge})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	ouvrir := func() (*sql.DB, []*projection.Runner) {
		db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		return db, vuesSur(t, store, db)
	}
	dbEvenement, parEvenement := ouvrir()
	dbLot, enUnLot := ouvrir()
	dbMasse, enMasse := ouvrir()

	fichiers := tournoisAuHasard(t, 60, 41)
	importer(t, store, nil, fichiers[:20]...)
	inscrireEnDirect(t, store, 1)
	importer(t, store, nil, fichiers[20:40]...)
	inscrireEnDirect(t, store, 2)
	importer(t, store, nil, fichiers[40:]...)

	events, err := store.ReadAllAfter(ctx, 0, 1<<20)
	require.NoError(t, err)
	for _, e := range events {
		for _, r := range parEvenement {
			_, err := r.Apply(ctx, []eventstore.Event{e})
			require.NoError(t, err)
		}
	}
	for _, r := range enUnLot {
		_, err := r.Apply(ctx, events)
		require.NoError(t, err)
	}
	for _, r := range enMasse {
		require.NoError(t, r.CommencerMasse(ctx))
		_, err := r.Apply(ctx, events)
		require.NoError(t, err)
		require.NoError(t, r.FinirMasse(ctx))
	}

	attendu := vuesSansPoints(t, dbEvenement)
	require.Contains(t, attendu, "Vivant 3", "a live registration's name kept over the later files")
	assert.Equal(t, "9d169a025468e3960e75c93442e18e88e6fb1302e821a8a8b30305fa1e2e35ec", fmt.Sprintf("%x", sha256.Sum256([]byte(attendu))),
		"the rows main's code wrote before session 14 (df9bb86)")
	assert.Equal(t, attendu, vuesSansPoints(t, dbLot), "all in one batch")
	assert.Equal(t, attendu, vuesSansPoints(t, dbMasse), "all in one bulk")
}

// inscrireEnDirect registers live, in duplicate tournament V<n>, players
// L03 (renamed, another club) and, in classique tournament V<n>, L05
// under his name and L07 with none (he keeps the archive's).
func inscrireEnDirect(t *testing.T, store eventstore.Store, n int) {
	t.Helper()
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	id := fmt.Sprintf("V%d", n)
	duplicateStream, err := streamname.TournoiStream(id)
	require.NoError(t, err)
	classiqueStream, err := streamname.ClassiqueStream(id)
	require.NoError(t, err)
	for k, e := range []struct {
		stream  string
		payload any
	}{
		{duplicateStream, tournoi.TournoiCree{Tournoi: id, Nom: "Direct " + id}},
		{duplicateStream, tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: "L03", Nom: fmt.Sprintf("Vivant %d", 3), Club: "Riom"}}},
		{classiqueStream, tournoiclassique.TournoiOuvert{Tournoi: id, Nom: "Direct classique " + id}},
		{classiqueStream, tournoiclassique.JoueurInscrit{Joueur: "L05", Nom: "Vivant 5", Cote: 1500}},
		{classiqueStream, tournoiclassique.JoueurInscrit{Joueur: "L07", Cote: 1500}},
	} {
		d, err := reg.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "revue14/%d/%d", n, k)), e.payload, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
		_, err = store.Append(ctx, e.stream, eventstore.Any, d)
		require.NoError(t, err)
	}
}

// vuesSansPoints is the views' dump, the runners' checkpoints aside.
func vuesSansPoints(t *testing.T, db *sql.DB) string {
	t.Helper()
	dump, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	var b strings.Builder
	garder := true
	for ligne := range strings.Lines(string(dump)) {
		if strings.HasPrefix(ligne, "table ") {
			garder = !strings.HasPrefix(ligne, "table projection_checkpoints ")
		}
		if garder {
			b.WriteString(ligne)
		}
	}
	return b.String()
}
