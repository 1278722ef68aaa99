package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	zsqlite "zombiezen.com/go/sqlite"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
)

// sousCle is an event caused by the client id of actor for the request
// fingerprinted requete.
func sousCle(actor, id, requete string) eventstore.EventData {
	return eventstore.EventData{ID: uuid.New(), Type: "t", Version: 1, Data: []byte(`{}`),
		Metadata: eventstore.Metadata{Actor: actor, CausationID: id, Request: requete}}
}

// Issue 34 item 3 (« clés d'idempotence »): the store binds a client's key
// to its request in the append's own transaction, and answers whether a
// key is reused by its index, without reading the log. A retry of the
// request passes, on any stream; another request under the key is
// refused and writes nothing; another author's key, an event without a
// key or without a request (an archive import) are free.
func TestIssue34_CleLieeDansLaTransaction(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	_, err = s.Append(ctx, "partie-A", eventstore.NoStream, sousCle("jeton:1", "k1", "tirer:a"), sousCle("jeton:1", "k1", "tirer:a"))
	require.NoError(t, err)
	_, err = s.Append(ctx, "partie-A", eventstore.Exact(1), sousCle("jeton:1", "k-ancien", ""))
	require.NoError(t, err)

	tests := []struct {
		name   string
		event  eventstore.EventData
		reused bool
	}{
		{"the same request, on another stream", sousCle("jeton:1", "k1", "tirer:a"), false},
		{"another request under the key, on another stream", sousCle("jeton:1", "k1", "rejeter:b"), true},
		{"a third request under the key", sousCle("jeton:1", "k1", "tirer:c"), true},
		{"the same id from another token", sousCle("jeton:2", "k1", "rejeter:b"), false},
		{"a new id", sousCle("jeton:1", "k2", "rejeter:b"), false},
		{"no client id", sousCle("jeton:1", "", "rejeter:b"), false},
		{"no request (an import, the server's own process)", sousCle("jeton:1", "k1", ""), false},
		{"a key recorded before fingerprints", sousCle("jeton:1", "k-ancien", "tirer:d"), false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := tt.event.Metadata
			reused, err := s.KeyReused(ctx, md.Actor, md.CausationID, md.Request)
			require.NoError(t, err)
			assert.Equal(t, tt.reused, reused, "KeyReused")
			stream := fmt.Sprintf("partie-B%d", i)
			_, err = s.Append(ctx, stream, eventstore.NoStream, tt.event, sousCle("jeton:9", "autre", "x"))
			lus, rerr := s.ReadStream(ctx, stream, 0, 10)
			require.NoError(t, rerr)
			if !tt.reused {
				assert.NoError(t, err)
				assert.Len(t, lus, 2)
				return
			}
			assert.ErrorIs(t, err, eventstore.ErrKeyReused)
			assert.Empty(t, lus, "nothing of the append is written")
		})
	}
	// The append of a key's other request, above, did not bind it.
	reused, err := s.KeyReused(ctx, "jeton:1", "k2", "rejeter:b")
	require.NoError(t, err)
	assert.False(t, reused)
}

// Issue 34 item 3: two requests sent at the same instant under one key to
// two streams are told apart — before, each checked the keys read from the
// log before it wrote, and both were written. Here the appends that wait
// for the write lock are written in one transaction (group commit): the
// first request's key binds the others' in it. Exactly one is written.
func TestIssue34_CleReutiliseeAuMemeInstantRefusee(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	const requetes = 16
	var wg sync.WaitGroup
	errs := make([]error, requetes)
	depart := make(chan struct{})
	for i := range requetes {
		wg.Go(func() {
			<-depart
			_, errs[i] = s.Append(ctx, fmt.Sprintf("partie-%d", i), eventstore.NoStream, sousCle("jeton:1", "k1", fmt.Sprintf("tirer:%d", i)))
		})
	}
	close(depart)
	wg.Wait()
	ecrits := 0
	for _, err := range errs {
		if err == nil {
			ecrits++
			continue
		}
		assert.ErrorIs(t, err, eventstore.ErrKeyReused)
	}
	assert.Equal(t, 1, ecrits, "one request under the key")
	tous, err := s.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Len(t, tous, 1)
}

// Issue 34 item 3: a batch with a part under a reused key is refused
// whole: a command writes all its facts or none.
func TestIssue34_LotSousUneCleReutiliseeRefuseEntier(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	_, err = s.Append(ctx, "match-a", eventstore.NoStream, sousCle("jeton:1", "k1", "apparier:1"))
	require.NoError(t, err)
	_, err = s.AppendBatch(ctx, []eventstore.BatchPart{
		{Stream: "match-b", Expected: eventstore.NoStream, Events: []eventstore.EventData{sousCle("jeton:1", "k2", "apparier:2")}},
		{Stream: "match-c", Expected: eventstore.NoStream, Events: []eventstore.EventData{sousCle("jeton:1", "k1", "apparier:2")}},
	})
	require.ErrorIs(t, err, eventstore.ErrKeyReused)
	tous, err := s.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Len(t, tous, 1, "nothing of the batch is written")
}

// Issue 34 item 3: the key's lookup is one search of the keys' index,
// which holds the request as well (no read of the table's rows), never a
// scan of the log.
func TestIssue34_CleChercheeParSonIndex(t *testing.T) {
	s, err := OpenDir(context.Background(), t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	assert.Equal(t, []string{"SEARCH events USING COVERING INDEX events_cles (actor=? AND causation_id=?)"}, plan(t, s, cleReutilisee))
}

// plan is SQLite's plan of query on s's file, a line a step.
func plan(t *testing.T, s *Store, query string) []string {
	t.Helper()
	conn, err := zsqlite.OpenConn(s.Path(), zsqlite.OpenReadOnly)
	require.NoError(t, err)
	defer conn.Close()
	stmt, _, err := conn.PrepareTransient("EXPLAIN QUERY PLAN " + query)
	require.NoError(t, err)
	defer stmt.Finalize()
	var lignes []string
	for {
		ok, err := stmt.Step()
		require.NoError(t, err)
		if !ok {
			return lignes
		}
		lignes = append(lignes, stmt.ColumnText(3))
	}
}

// Issue 34 item 3: a store written before the keys' index (layout version
// 3) opens, is given the index once, and answers the same: its events,
// their hash chain and its seal are unchanged, and a key it holds binds
// its request.
func TestIssue34_MagasinDeVersion3GagneLIndexDesCles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	s, err := Open(ctx, path, Options{})
	require.NoError(t, err)
	for i := range 30 {
		_, err := s.Append(ctx, fmt.Sprintf("partie-%d", i%3), eventstore.Any,
			sousCle("jeton:1", fmt.Sprintf("k%d", i), fmt.Sprintf("tirer:%d", i)), sousCle("", "", ""))
		require.NoError(t, err)
	}
	avant, err := s.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	_, err = db.Exec(`DROP INDEX events_cles; PRAGMA user_version = 3`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	s, err = Open(ctx, path, Options{})
	require.NoError(t, err)
	defer s.Close()
	apres, err := s.ReadAll(ctx, 0, 100)
	require.NoError(t, err)
	assert.Equal(t, avant, apres, "the events and their hashes")
	report, err := integrity.Verify(ctx, s, integrity.VerifyOptions{GaplessPositions: true, Chained: true})
	require.NoError(t, err)
	assert.True(t, report.OK(), "%v", report.Problems)
	var version int
	var index string
	require.NoError(t, s.reader.lire(ctx, "", `SELECT (SELECT user_version FROM pragma_user_version), (SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'events_cles')`, nil,
		func(stmt *zsqlite.Stmt) error {
			version, index = stmt.ColumnInt(0), stmt.ColumnText(1)
			return nil
		}))
	assert.Equal(t, schemaVersion, version)
	assert.Equal(t, "events_cles", index)
	reused, err := s.KeyReused(ctx, "jeton:1", "k7", "rejeter:7")
	require.NoError(t, err)
	assert.True(t, reused, "a key stored before the index binds its request")
	_, err = s.Append(ctx, "partie-9", eventstore.NoStream, sousCle("jeton:1", "k7", "rejeter:7"))
	assert.ErrorIs(t, err, eventstore.ErrKeyReused)
	_, err = s.Append(ctx, "partie-9", eventstore.NoStream, sousCle("jeton:1", "k7", "tirer:7"))
	assert.NoError(t, err, "its own request again")
}

// Issue 34 item 3: the key's lookup (the append's, on the writer; run here
// on the reader connections, whose recompilations can be counted) is
// compiled once per connection. Its
// first form, `requete <> ?`, matched the partial index's own term on
// requete, so SQLite made its plan depend on the bound request and
// compiled the statement again whenever the request changed — at every
// command (0.21–0.26 s of the server per phase of 2,000 bulletins in
// arbitre charge --players 2000, parsing and planning).
func TestIssue34_CleNonRecompileeQuandLaRequeteChange(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	for i := range 2 * len(s.reader.tous) {
		_, err := s.Append(ctx, fmt.Sprintf("partie-%d", i), eventstore.NoStream, sousCle("jeton:1", fmt.Sprintf("k%d", i), fmt.Sprintf("tirer:%d", i)))
		require.NoError(t, err)
		for j := range len(s.reader.tous) {
			args := []any{"jeton:1", fmt.Sprintf("k%d", j), fmt.Sprintf("tirer:%d", i)}
			require.NoError(t, s.reader.lire(ctx, "", cleReutilisee, args, func(*zsqlite.Stmt) error { return nil }))
		}
	}
	assert.Zero(t, recompilations(t, s)[cleReutilisee], "recompilations of the key's lookup")
}

// Issue 34 item 3: a key's lookup takes no read connection once the keys
// are read: the lookup by the index cost as much as the read of the log's
// tail it replaced (0.07–0.08 s against 0.06–0.07 s of the server per
// phase of 2,000 bulletins in arbitre charge --players 2000), each commit
// in between emptying the page cache of the connection that looked up the
// next key. Every reader is held here: a lookup that needs one waits for
// its deadline. A key committed after the keys were read is seen.
func TestIssue34_CleSansConnexionDeLecture(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	_, err = s.Append(ctx, "partie-A", eventstore.NoStream, sousCle("jeton:1", "k1", "tirer:a"))
	require.NoError(t, err)
	reused, err := s.KeyReused(ctx, "jeton:1", "k1", "tirer:b")
	require.NoError(t, err)
	require.True(t, reused)
	_, err = s.Append(ctx, "partie-B", eventstore.NoStream, sousCle("jeton:1", "k2", "tirer:c"))
	require.NoError(t, err)

	var pris []*lecteur
	for range s.reader.tous {
		lc, err := s.reader.prendre(ctx)
		require.NoError(t, err)
		pris = append(pris, lc)
	}
	defer func() {
		for _, lc := range pris {
			s.reader.rendre(lc)
		}
	}()
	court, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	for _, c := range []struct {
		id, requete string
		reused      bool
	}{{"k1", "tirer:b", true}, {"k1", "tirer:a", false}, {"k2", "tirer:d", true}, {"k3", "tirer:d", false}} {
		reused, err := s.KeyReused(court, "jeton:1", c.id, c.requete)
		require.NoError(t, err, "a lookup without a read connection")
		assert.Equal(t, c.reused, reused, "%s for %s", c.id, c.requete)
	}
}

// Issue 34 item 3: the keys in memory are those of this store's appends;
// a key another process wrote after they were read is not among them, and
// the append's own transaction refuses it all the same.
func TestIssue34_CleDUnAutreProcessusRefuseeALAjout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(ctx, dir, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	reused, err := s.KeyReused(ctx, "jeton:1", "k1", "tirer:b")
	require.NoError(t, err)
	require.False(t, reused)
	autre, err := OpenDir(ctx, dir, Options{})
	require.NoError(t, err)
	_, err = autre.Append(ctx, "partie-A", eventstore.NoStream, sousCle("jeton:1", "k1", "tirer:a"))
	require.NoError(t, err)
	require.NoError(t, autre.Close())
	_, err = s.Append(ctx, "partie-B", eventstore.NoStream, sousCle("jeton:1", "k1", "tirer:b"))
	assert.ErrorIs(t, err, eventstore.ErrKeyReused)
}

// Issue 34 item 3: the keys are read by the keys' index alone, never by a
// scan of the log (an archive's millions of events carry no key).
func TestIssue34_ClesLuesParLeurIndex(t *testing.T) {
	s, err := OpenDir(context.Background(), t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	assert.Equal(t, []string{"SCAN events USING COVERING INDEX events_cles"}, plan(t, s, lectureCles))
}
