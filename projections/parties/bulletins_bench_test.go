package parties_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/projections/parties"
	"arbitre/projections/projection"
)

// salle is the games' views projection of a game of 2,000 players stopped
// right after the tirage of its first coup, its events applied, in a
// database of its own: the hall's bulletin phase (issue 34 item 3).
type salle struct {
	store    eventstore.Store
	registre *eventstore.Registry
	p        *parties.Projection
	db       *sql.DB
	table    string
	suivant  uint64
	rang     uint64
}

func nouvelleSalle(tb testing.TB) *salle {
	ctx := context.Background()
	store, r := ouvrir(tb, ctx)
	jouer(tb, ctx, store, r, "t1-1", 2000, 1)
	evts, err := eventstore.ReadFamily(ctx, store, "partie-t1-1")
	require.NoError(tb, err)
	db, err := projection.OpenDB(filepath.Join(tb.TempDir(), projection.FileName))
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	p, err := parties.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(tb, err)
	table, err := streamname.TableStream("t1-1", 1)
	require.NoError(tb, err)
	s := &salle{store: store, registre: r, p: p, db: db, table: table, suivant: evts[len(evts)-1].Position + 1}
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(tb, err)
	require.NoError(tb, p.Setup(ctx, tx))
	require.NoError(tb, tx.Commit())
	lot := make([]projection.Decoded, len(evts))
	for i := range evts {
		lot[i] = projection.Decoded{Event: &evts[i]}
	}
	s.appliquer(tb, ctx, lot)
	return s
}

// appliquer applies lot in one transaction, as the runner does.
func (s *salle) appliquer(tb testing.TB, ctx context.Context, lot []projection.Decoded) {
	tx, err := s.db.BeginTx(ctx, nil)
	require.NoError(tb, err)
	require.NoError(tb, s.p.ApplyBatch(ctx, tx, lot))
	require.NoError(tb, tx.Commit())
}

// bulletin is the next bulletin's event of the game's first table.
func (s *salle) bulletin() []projection.Decoded {
	e := &eventstore.Event{Stream: s.table, Revision: s.rang, Position: s.suivant, Type: duplicate.TypeBulletinDepose, Version: 1}
	s.rang++
	s.suivant++
	return []projection.Decoded{{Event: e}}
}

// What a batch of one bulletin costs the games' views, in its transaction:
// the hall's bulletin phase folds a burst of bulletins in one batch per
// read model, and the parties view of a game of 2,000 players is written
// again, its version the only change, with every batch.
func BenchmarkIssue34_LotDeBulletinsDeLaVueDUnePartie(b *testing.B) {
	ctx := context.Background()
	s := nouvelleSalle(b)
	s.appliquer(b, ctx, s.bulletin())
	b.ReportAllocs()
	for b.Loop() {
		s.appliquer(b, ctx, s.bulletin())
	}
}

// Issue 34 item 3: a bulletin's batch changes a game's view in its version
// alone, yet the view of a game of 2,000 players was marshalled again for
// each batch (json.Marshal, then a copy to a string for SQLite: about twice
// the view's bytes allocated by a batch of one bulletin). The kept view's
// bytes take the new version instead: less than 1.5 times the view's
// bytes allocated per batch, and after each batch the stored row is byte
// for byte json.Marshal of the replayed game's view.
func TestIssue34_VueDUnePartieNonReencodeeAChaqueBulletin(t *testing.T) {
	ctx := context.Background()
	s := nouvelleSalle(t)
	rejouee := duplicate.Nouvelle(nil)
	evts, err := eventstore.ReadFamily(ctx, s.store, "partie-t1-1")
	require.NoError(t, err)
	for _, e := range evts {
		payload, err := s.registre.Decode(e)
		require.NoError(t, err)
		require.NoError(t, rejouee.Apply(payload))
	}
	const bulletins = 50
	var alloue uint64
	for i := range bulletins {
		lot := s.bulletin()
		var avant, apres runtime.MemStats
		runtime.ReadMemStats(&avant)
		s.appliquer(t, ctx, lot)
		runtime.ReadMemStats(&apres)
		if i > 0 {
			alloue += apres.TotalAlloc - avant.TotalAlloc
		}
		require.NoError(t, rejouee.Passer(lot[0].Event.Type))
		attendue, err := json.Marshal(parties.VueDe(rejouee))
		require.NoError(t, err)
		var ecrite string
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT vue FROM parties_vues WHERE partie = 't1-1'`).Scan(&ecrite))
		require.Equal(t, string(attendue), ecrite, "the row after bulletin %d", i+1)
	}
	var ecrite string
	require.NoError(t, s.db.QueryRowContext(ctx, `SELECT vue FROM parties_vues WHERE partie = 't1-1'`).Scan(&ecrite))
	parLot := alloue / (bulletins - 1)
	assert.Less(t, parLot, 3*uint64(len(ecrite))/2, "bytes allocated by a batch of one bulletin, for a view of %d bytes", len(ecrite))
}
