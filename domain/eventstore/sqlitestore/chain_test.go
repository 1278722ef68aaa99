package sqlitestore_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainedEvents is the size of the log the tampering tests damage.
const chainedEvents = 200

// writeChainedLog writes chainedEvents events over four streams, the event
// at position p carrying the score 10000+p, and returns the directory and the
// seal the store left beside its file.
func writeChainedLog(t *testing.T) (string, integrity.Seal) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	for p := 1; p <= chainedEvents; p++ {
		e := eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1,
			Data: json.RawMessage(fmt.Sprintf(`{"score":%d}`, 10000+p)), Metadata: eventstore.Metadata{Actor: "JA"}}
		_, err := store.Append(ctx, fmt.Sprintf("partie-%d", p%4), eventstore.Any, e)
		require.NoError(t, err)
	}
	require.NoError(t, store.Close())
	seal, found, err := sqlitestore.ReadSeal(filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, uint64(chainedEvents), seal.Position)
	return dir, seal
}

// damagedCopy copies the store file and runs sql on the copy through a
// plain SQLite connection, as someone editing the file would.
func damagedCopy(t *testing.T, dir, damage string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	copyDir := t.TempDir()
	path := filepath.Join(copyDir, sqlitestore.FileName)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	if damage != "" {
		db, err := sql.Open("sqlite", "file:"+path)
		require.NoError(t, err)
		_, err = db.Exec(damage)
		require.NoError(t, err)
		require.NoError(t, db.Close())
	}
	return path
}

func verifyCopy(t *testing.T, path string, anchors ...integrity.Anchor) *integrity.VerifyReport {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	report, err := integrity.Verify(ctx, store, integrity.VerifyOptions{GaplessPositions: true, Chained: true, Anchors: anchors})
	require.NoError(t, err)
	return report
}

func tamperedAt(report *integrity.VerifyReport) []uint64 {
	var at []uint64
	for _, p := range report.Problems {
		if p.Code == eventstore.CodeTampered {
			at = append(at, p.Position)
		}
	}
	return at
}

// Issue 16 item 1: every way of editing the file is reported with its
// position; an intact copy and the seal it left pass.
func TestChaine_VerifyReportsEachTampering(t *testing.T) {
	dir, seal := writeChainedLog(t)
	sealFile := integrity.Anchor{Source: "the seal file", Seal: seal}
	cases := []struct {
		name     string
		damage   string
		tampered []uint64
	}{
		{"intact", "", nil},
		{"one byte of a payload", `UPDATE events SET data = '{"score":10750}' WHERE position = 70`, []uint64{70}},
		{"the last 50 events deleted", `DELETE FROM events WHERE position > 150`, []uint64{200}},
		{"one event deleted in the middle", `DELETE FROM events WHERE position = 100`, []uint64{101}},
		{"two payloads swapped", `CREATE TEMP TABLE swap AS SELECT position, data FROM events WHERE position IN (20, 40);
			UPDATE events SET data = (SELECT data FROM swap WHERE swap.position = 60 - events.position) WHERE position IN (20, 40)`, []uint64{20, 40}},
		{"one event inserted at the end", `INSERT INTO events SELECT 201, stream, 999, randomblob(16), type, version, '{"score":1}',
			actor, role, correlation_id, causation_id, recorded_at, requete, hash FROM events WHERE position = 200`, []uint64{201}},
		{"two events reordered", `UPDATE events SET position = -1 WHERE position = 60; UPDATE events SET position = 60 WHERE position = 61;
			UPDATE events SET position = 61 WHERE position = -1`, []uint64{60, 61, 62}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			report := verifyCopy(t, damagedCopy(t, dir, c.damage), sealFile)
			assert.Equal(t, c.tampered, tamperedAt(report), "%v", report.Problems)
			assert.Equal(t, c.tampered == nil, report.OK(), "%v", report.Problems)
		})
	}
}

// Issue 16 item 1: a byte flipped in the file itself, not through SQL.
func TestChaine_VerifyReportsAByteFlippedInTheFile(t *testing.T) {
	dir, _ := writeChainedLog(t)
	path := damagedCopy(t, dir, "")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	at := bytes.Index(data, []byte(`{"score":10070}`))
	require.Positive(t, at, "the payload is stored as written")
	data[at+len(`{"score":1`)] = '7'
	require.NoError(t, os.WriteFile(path, data, 0o600))
	assert.Equal(t, []uint64{70}, tamperedAt(verifyCopy(t, path)))
}

// Issue 16 item 2: a seal still holds when the log grew after it, and fails
// when the log was cut before it or rewritten under it.
func TestChaine_SealHoldsOnExtensionFailsOnTruncation(t *testing.T) {
	dir, _ := writeChainedLog(t)
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	page, err := store.ReadAll(ctx, 120, 1)
	require.NoError(t, err)
	require.NoError(t, store.Close())
	published := integrity.Anchor{Source: "--seal", Seal: integrity.Seal{Position: 120, Hash: page[0].Hash}}

	assert.True(t, verifyCopy(t, damagedCopy(t, dir, ""), published).OK(), "the log extends the seal")
	assert.Equal(t, []uint64{120}, tamperedAt(verifyCopy(t, damagedCopy(t, dir, `DELETE FROM events WHERE position > 110`), published)))
	rewritten := published
	rewritten.Hash = bytes.Repeat([]byte{1}, 32)
	assert.Equal(t, []uint64{120}, tamperedAt(verifyCopy(t, damagedCopy(t, dir, ""), rewritten)))

	parsed, err := integrity.ParseSeal(published.String())
	require.NoError(t, err)
	assert.Equal(t, published.Seal, parsed)
}

// Issue 28 item 3: every read of a stream (a whole stream, a game and its
// tables, what follows a cached game) checks each event against the one
// before it in the global log, so an aggregate is never loaded from an
// altered event.
func TestChaine_LectureDUnFluxVerifieLaChaine(t *testing.T) {
	dir, _ := writeChainedLog(t)
	lectures := map[string]func(context.Context, *sqlitestore.Store) ([]eventstore.Event, error){
		"flux entier": func(ctx context.Context, s *sqlitestore.Store) ([]eventstore.Event, error) {
			return eventstore.ReadWholeStream(ctx, s, "partie-2")
		},
		"partie et tables": func(ctx context.Context, s *sqlitestore.Store) ([]eventstore.Event, error) {
			return s.ReadSections(ctx, "partie-2", 0)
		},
		"suite": func(ctx context.Context, s *sqlitestore.Store) ([]eventstore.Event, error) {
			return s.ReadSections(ctx, "partie-2", 20)
		},
	}
	for _, c := range []struct {
		damage string
		err    string
	}{
		{"", ""},
		{`UPDATE events SET data = '{"score":10999}' WHERE position = 70`, "event at position 70 (partie-2@17) does not match its hash"},
		{`DELETE FROM events WHERE position = 33`, "event at position 34 (partie-2@8) does not match its hash"},
	} {
		ctx := context.Background()
		store, err := sqlitestore.Open(ctx, damagedCopy(t, dir, c.damage), sqlitestore.Options{})
		require.NoError(t, err)
		for nom, lire := range lectures {
			events, err := lire(ctx, store)
			if c.err == "" {
				assert.NoError(t, err, nom)
				assert.NotEmpty(t, events, nom)
			} else {
				assert.ErrorIs(t, err, eventstore.ErrTampered, nom)
				assert.ErrorContains(t, err, c.err, nom)
			}
		}
		require.NoError(t, store.Close())
	}
}

// Issue 28 item 3: a seal is only ever replaced by a head that extends it.
// The tail cut under an open store (another process with the file): the
// append it then takes is chained to the shorter log, but its head does
// not replace the seal, the store refuses appends from then on, and so
// does every store opened on the file afterwards.
func TestSceau_NeRemplaceQueParUneTeteQuiLeProlonge(t *testing.T) {
	dir, seal := writeChainedLog(t)
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	require.NoError(t, store.Rupture(), "the log extends its seal")
	db, err := sql.Open("sqlite", filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	_, err = db.Exec(`DELETE FROM events WHERE position > 150`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	evenement := func() eventstore.EventData {
		return eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(`{"score":1}`)}
	}
	_, err = store.Append(ctx, "partie-1", eventstore.Any, evenement())
	require.NoError(t, err, "the cut happened after the store checked its seal")
	require.NoError(t, store.Close())
	apres, found, err := sqlitestore.ReadSeal(filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, seal, apres, "the head at 151 does not extend the seal at 200")
	assert.ErrorIs(t, store.Rupture(), eventstore.ErrTampered)

	store, err = sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	_, err = store.Append(ctx, "partie-1", eventstore.Any, evenement())
	assert.ErrorIs(t, err, eventstore.ErrTampered)
	assert.ErrorContains(t, err, "le journal ne prolonge plus le fichier de sceau : il a vu la position 200, et le journal finit à 151")
	_, err = store.AppendBatch(ctx, []eventstore.BatchPart{{Stream: "partie-1", Expected: eventstore.Any, Events: []eventstore.EventData{evenement()}}})
	assert.ErrorIs(t, err, eventstore.ErrTampered)
}

// Issue 28 item 3: a seal file edited (another hash, a position past the
// log) or unreadable is a log that does not extend it: the store opens and
// reads, and refuses appends saying why.
func TestSceau_SceauModifieOuIllisibleRefuseLesAjouts(t *testing.T) {
	dir, seal := writeChainedLog(t)
	autre := seal
	autre.Hash = bytes.Repeat([]byte{7}, 32)
	plusLoin := seal
	plusLoin.Position = chainedEvents + 5
	for _, c := range []struct {
		nom, sceau, err string
	}{
		{"autre empreinte", autre.String(), "il a vu à la position 200 un autre événement"},
		{"position au-delà du journal", plusLoin.String(), "il a vu la position 205, et le journal finit à 200"},
		{"illisible", "pas un sceau", "le fichier de sceau est illisible"},
	} {
		t.Run(c.nom, func(t *testing.T) {
			path := damagedCopy(t, dir, "")
			require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(path), sqlitestore.SealName), []byte(c.sceau+"\n"), 0o600))
			ctx := context.Background()
			store, err := sqlitestore.Open(ctx, path, sqlitestore.Options{})
			require.NoError(t, err)
			defer store.Close()
			events, err := store.ReadStream(ctx, "partie-1", 0, 10)
			require.NoError(t, err)
			assert.NotEmpty(t, events)
			_, err = store.Append(ctx, "partie-1", eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(`{}`)})
			assert.ErrorIs(t, err, eventstore.ErrTampered)
			assert.ErrorContains(t, err, c.err)
		})
	}
}
