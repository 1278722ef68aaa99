package sqlitestore_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filledStore writes a closed store of n events in 100-event batches and
// returns its path; closing checkpoints the WAL into the main file.
func filledStore(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), sqlitestore.FileName)
	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	for i := 0; i < n; i += 100 {
		_, err := store.Append(ctx, "partie-1", eventstore.Any, eventstoretest.Events(100)...)
		require.NoError(t, err)
	}
	require.NoError(t, store.Close())
	return path
}

func fileDigest(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return sha256.Sum256(data)
}

func TestOpenRefusesDamagedFilesAndLeavesThemUntouched(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, path string)
	}{
		{"TruncatedToHalf", func(t *testing.T, path string) {
			info, err := os.Stat(path)
			require.NoError(t, err)
			require.NoError(t, os.Truncate(path, info.Size()/2))
		}},
		{"TruncatedInsideFirstPage", func(t *testing.T, path string) {
			require.NoError(t, os.Truncate(path, 60))
		}},
		{"HeaderOverwritten", func(t *testing.T, path string) {
			overwrite(t, path, 0, []byte("this is no sqlite header"))
		}},
		{"PageInTheMiddleScrambled", func(t *testing.T, path string) {
			info, err := os.Stat(path)
			require.NoError(t, err)
			garbage := make([]byte, 4096)
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range garbage {
				garbage[i] = byte(rng.UintN(256))
			}
			overwrite(t, path, (info.Size()/2)/4096*4096, garbage)
		}},
		{"AnotherApplicationsDatabase", func(t *testing.T, path string) {
			require.NoError(t, os.Remove(path))
			db, err := sql.Open("sqlite", path)
			require.NoError(t, err)
			_, err = db.Exec(`CREATE TABLE scores (player TEXT, points INTEGER); INSERT INTO scores VALUES ('x', 1)`)
			require.NoError(t, err)
			require.NoError(t, db.Close())
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filledStore(t, 2000)
			tc.damage(t, path)
			before := fileDigest(t, path)
			var store *sqlitestore.Store
			var err error
			require.NotPanics(t, func() { store, err = sqlitestore.Open(context.Background(), path, sqlitestore.Options{}) })
			assert.Nil(t, store)
			require.ErrorIs(t, err, eventstore.ErrCorruptStore)
			assert.Contains(t, err.Error(), path, "the error names the file")
			assert.Equal(t, before, fileDigest(t, path), "a refused file is not modified")
		})
	}
}

func overwrite(t *testing.T, path string, offset int64, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt(data, offset)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func TestVerifyNamesTheEventsThatNoLongerDecode(t *testing.T) {
	ctx := context.Background()
	path := filledStore(t, 200)
	// Damage content without breaking the file structure: the integrity
	// check passes, the payload and type checks must catch it.
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE events SET data = '{"n":' WHERE position = 17;
		UPDATE events SET type = 'partie.inconnu' WHERE position = 42;
		UPDATE events SET version = 9 WHERE position = 99`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	reg := eventstore.NewRegistry()
	require.NoError(t, eventstore.Register[struct {
		N int `json:"n"`
	}](reg, "test.coup", 1))
	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	report, err := integrity.Verify(ctx, store, integrity.VerifyOptions{GaplessPositions: true, Registry: reg})
	require.NoError(t, err)
	require.Len(t, report.Problems, 3)
	assert.Equal(t, uint64(17), report.Problems[0].Position)
	assert.Equal(t, eventstore.CodeMalformedPayload, report.Problems[0].Code)
	assert.Equal(t, uint64(42), report.Problems[1].Position)
	assert.Equal(t, eventstore.CodeUnknownEventType, report.Problems[1].Code)
	assert.Equal(t, uint64(99), report.Problems[2].Position)
	assert.Equal(t, eventstore.CodeFutureSchemaVersion, report.Problems[2].Code)
	assert.Equal(t, 200, report.Events)
}

func TestEventIDIsUniqueAcrossStreams(t *testing.T) {
	ctx := context.Background()
	store := openTemp(t, nil)
	batch := eventstoretest.Events(1)
	_, err := store.Append(ctx, "partie-1", eventstore.NoStream, batch...)
	require.NoError(t, err)
	_, err = store.Append(ctx, "partie-2", eventstore.NoStream, batch...)
	assert.ErrorIs(t, err, eventstore.ErrDuplicateEventID)
	_, err = store.Append(ctx, "partie-1", eventstore.Exact(0), append(eventstoretest.Events(1), batch...)...)
	assert.ErrorIs(t, err, eventstore.ErrDuplicateEventID, "an id reused later in a batch is refused too")
	got, err := store.ReadAll(ctx, 0, 10)
	require.NoError(t, err)
	assert.Len(t, got, 1, "refused appends write nothing")
}

func TestOpenCreatesStoreInEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	store, err := sqlitestore.Open(context.Background(), path, sqlitestore.Options{})
	require.NoError(t, err)
	require.NoError(t, store.Close())
}

func TestClosedStoreRefusesWork(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	require.NoError(t, store.Close())
	_, err = store.Append(ctx, "partie-1", eventstore.Any, eventstoretest.Events(1)...)
	assert.ErrorIs(t, err, eventstore.ErrClosed)
	_, err = store.ReadAll(ctx, 0, 1)
	assert.ErrorIs(t, err, eventstore.ErrClosed)
	err = store.Subscribe(ctx, 0, func(context.Context, eventstore.Event) error { return nil })
	assert.ErrorIs(t, err, eventstore.ErrClosed)
}

// A store written before events carried their request's fingerprint
// (layout version 1) opens, keeps its events readable, records the
// fingerprint of new ones and chains old and new events.
func TestOpenUpgradesSchemaVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), sqlitestore.FileName)
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE events (
		position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL, event_id BLOB NOT NULL UNIQUE,
		type TEXT NOT NULL, version INTEGER NOT NULL, data BLOB NOT NULL, actor TEXT NOT NULL, role TEXT NOT NULL,
		correlation_id TEXT NOT NULL, causation_id TEXT NOT NULL, recorded_at INTEGER NOT NULL, UNIQUE (stream, revision));
		INSERT INTO events VALUES (1, 'partie-1', 0, x'0123456789abcdef0123456789abcdef', 'test.coup', 1, '{"n":0}', 'JA', 'directeur', '', 'c-1', 0);
		PRAGMA application_id = 1095909972; PRAGMA user_version = 1;`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	old, err := store.ReadStream(ctx, "partie-1", 0, 10)
	require.NoError(t, err)
	require.Len(t, old, 1)
	assert.Equal(t, eventstore.Metadata{Actor: "JA", Role: "directeur", CausationID: "c-1", RecordedAt: old[0].Metadata.RecordedAt}, old[0].Metadata)
	_, err = store.Append(ctx, "partie-1", eventstore.Exact(0), eventstoretest.Events(1)...)
	require.NoError(t, err)
	both, err := store.ReadStream(ctx, "partie-1", 0, 10)
	require.NoError(t, err)
	require.Len(t, both, 2)
	assert.Equal(t, "tirer:0", both[1].Metadata.Request)
	// Layout version 3 chained the old event and gave the store an identity.
	report, err := integrity.Verify(ctx, store, integrity.VerifyOptions{GaplessPositions: true, Chained: true})
	require.NoError(t, err)
	assert.True(t, report.OK(), "%v", report.Problems)
	assert.Len(t, store.Identity(), 32)
}

// A stored event whose id is not 16 bytes (the file edited by hand) is
// read as a damaged store naming its position, by every read of it.
func TestLecture_IdentifiantAbime(t *testing.T) {
	path := filledStore(t, 100)
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE events SET event_id = x'0102' WHERE position = 42`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	ctx := context.Background()
	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	lectures := map[string]func() error{
		"ReadStream":   func() error { _, err := store.ReadStream(ctx, "partie-1", 0, 100); return err },
		"ReadAllAfter": func() error { _, err := store.ReadAllAfter(ctx, 40, 10); return err },
		"ReadAllUpTo":  func() error { _, err := store.ReadAllUpTo(ctx, 0, 100); return err },
	}
	for name, lire := range lectures {
		t.Run(name, func(t *testing.T) {
			err := lire()
			require.ErrorIs(t, err, eventstore.ErrCorruptStore)
			assert.Contains(t, err.Error(), "position 42")
		})
	}
	_, err = store.ReadAllAfter(ctx, 42, 10)
	assert.NoError(t, err, "the events after it still read")
}
