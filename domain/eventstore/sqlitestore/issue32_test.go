package sqlitestore

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
)

// TestIssue32_LectureAnnuleeNeFigePasLeMagasin: the cause of issue 32's
// stale reads after an acknowledged write (the satellite test's game read
// back without the tirage just drawn, a correction refused for a top just
// announced). When they were seen (f8c67a6), the store read through
// database/sql on modernc.org/sqlite v1.40.0, which dropped without
// closing it the result of a query whose context ended once its statement
// had produced a row: the statement stayed open, and with it its read
// transaction, on a connection database/sql put back in the pool, where
// every later read saw the log as it stood then. A request cancelled as it
// read (a twinned site's connection cut at coup 4, its return at coup 7)
// thus left a read connection answering a game without the tirage just
// acknowledged. Here, after a read of a game whose context ends at any
// point, the kept game's read on from its last position finds the event
// appended next.
func TestIssue32_LectureAnnuleeNeFigePasLeMagasin(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	hasard := rand.New(rand.NewPCG(32, 1))
	var derniere uint64
	for ecrit := 1; ecrit <= 500; ecrit++ {
		lecture, fin := context.WithCancel(ctx)
		attente := time.Duration(hasard.IntN(30)) * time.Microsecond
		go func() { time.Sleep(attente); fin() }()
		_, _ = s.ReadSections(lecture, "partie-1", 0)
		fin()
		res, err := s.Append(ctx, "partie-1", eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: "t", Version: 1, Data: []byte(`{}`)})
		require.NoError(t, err)
		suite, err := s.ReadSections(ctx, "partie-1", derniere)
		require.NoError(t, err)
		require.Len(t, suite, 1, "the read on from position %d after the append at %d", derniere, res.Position)
		derniere = suite[0].Position
	}
}
