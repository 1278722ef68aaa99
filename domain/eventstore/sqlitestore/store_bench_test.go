package sqlitestore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// benchEvents returns n deterministic events: ids from a seeded generator,
// a ~60-byte payload typical of a move, and full metadata.
func benchEvents(rng *rand.ChaCha8, n int, first int) []eventstore.EventData {
	out := make([]eventstore.EventData, n)
	for i := range out {
		id, err := uuid.NewRandomFromReader(rng)
		if err != nil {
			panic(err)
		}
		out[i] = eventstore.EventData{
			ID: id, Type: "partie.coup_joue", Version: 1,
			Data:     json.RawMessage(fmt.Sprintf(`{"coup":%d,"mot":"WHISKY","position":"H4","points":112}`, first+i)),
			Metadata: eventstore.Metadata{Actor: "arbitre-42", Role: "arbitre", CorrelationID: "corr", CausationID: "cmd"},
		}
	}
	return out
}

func benchStore(b *testing.B, dir string) *sqlitestore.Store {
	b.Helper()
	store, err := sqlitestore.OpenDir(context.Background(), dir, sqlitestore.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { store.Close() })
	return store
}

func benchAppend(b *testing.B, batch int) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{1})
	events := make([][]eventstore.EventData, b.N)
	for i := range events {
		events[i] = benchEvents(rng, batch, i*batch)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := store.Append(ctx, fmt.Sprintf("partie-%d", i%64), eventstore.Any, events[i]...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkAppendOneEvent: one event per append, each fsynced (WAL,
// synchronous=FULL).
func BenchmarkAppendOneEvent(b *testing.B) { benchAppend(b, 1) }

// BenchmarkAppendBatchOf100: 100 events per append, one fsync per batch.
func BenchmarkAppendBatchOf100(b *testing.B) { benchAppend(b, 100) }

// replayEvents is the size of the replay benchmark's log.
const replayEvents = 1_000_000

// replayStore builds (once per directory) a store of replayEvents events in
// 1,000 streams. ARBITRE_BENCH_DIR keeps it between runs.
func replayStore(b *testing.B) *sqlitestore.Store {
	b.Helper()
	dir := os.Getenv("ARBITRE_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	store := benchStore(b, dir)
	last, err := store.LastPosition(context.Background())
	require.NoError(b, err)
	if last == replayEvents {
		return store
	}
	require.Zero(b, last, "%s holds a store of another size", filepath.Join(dir, sqlitestore.FileName))
	rng := rand.NewChaCha8([32]byte{2})
	const batch = 1000
	for i := 0; i < replayEvents; i += batch {
		_, err := store.Append(context.Background(), fmt.Sprintf("partie-%d", (i/batch)%1000), eventstore.Any, benchEvents(rng, batch, i)...)
		require.NoError(b, err)
	}
	return store
}

// BenchmarkReplayGlobalLog reads the whole 1,000,000-event log into a
// trivial projection (event count and payload bytes per type).
func BenchmarkReplayGlobalLog(b *testing.B) {
	ctx := context.Background()
	store := replayStore(b)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		counts := map[string]int{}
		bytes := 0
		var from uint64
		for {
			page, err := store.ReadAllAfter(ctx, from, eventstore.PageSize)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range page {
				counts[e.Type]++
				bytes += len(e.Data)
			}
			if len(page) < eventstore.PageSize {
				break
			}
			from = page[len(page)-1].Position
		}
		if counts["partie.coup_joue"] != replayEvents {
			b.Fatalf("replayed %d events", counts["partie.coup_joue"])
		}
	}
	b.ReportMetric(float64(b.N*replayEvents)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkSubscriptionLag measures, for single-event appends, the time
// from calling Append (so including the fsync) to the live handler seeing
// the event; it reports the median and the 99th percentile.
func BenchmarkSubscriptionLag(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{3})
	sent := make([]time.Time, b.N)
	lags := make([]time.Duration, b.N)
	var mu sync.Mutex
	seen := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		done <- store.Subscribe(ctx, 0, func(_ context.Context, e eventstore.Event) error {
			now := time.Now()
			mu.Lock()
			lags[e.Position-1] = now.Sub(sent[e.Position-1])
			mu.Unlock()
			seen <- struct{}{}
			return nil
		})
	}()
	events := benchEvents(rng, b.N, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mu.Lock()
		sent[i] = time.Now()
		mu.Unlock()
		if _, err := store.Append(ctx, "partie-lag", eventstore.Any, events[i]); err != nil {
			b.Fatal(err)
		}
		<-seen
	}
	b.StopTimer()
	cancel()
	<-done
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkLectureDUnePartie reads what a command reads before it decides:
// a game's stream, the game with its tables, what follows a cached game
// (the game after its 10th event), and the next page of the
// global log a projection asks for, over 50 games of 20 events and 20 table
// events each (the store's read connections; issue 16, item 10).
func BenchmarkLectureDUnePartie(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{3})
	const parties = 50
	for i := range parties {
		for _, stream := range []string{fmt.Sprintf("partie-%d", i), fmt.Sprintf("partie-%d.table-1", i)} {
			_, err := store.Append(ctx, stream, eventstore.Any, benchEvents(rng, 20, 0)...)
			require.NoError(b, err)
		}
	}
	lectures := []struct {
		name string
		lire func(i int) ([]eventstore.Event, error)
	}{
		{"flux", func(i int) ([]eventstore.Event, error) {
			return store.ReadStream(ctx, fmt.Sprintf("partie-%d", i%parties), 0, 100)
		}},
		{"partie et tables", func(i int) ([]eventstore.Event, error) {
			return store.ReadSections(ctx, fmt.Sprintf("partie-%d", i%parties), 0)
		}},
		{"suite de partie", func(i int) ([]eventstore.Event, error) {
			return store.ReadSections(ctx, fmt.Sprintf("partie-%d", i%parties), uint64(40*(i%parties)+10))
		}},
		{"journal apres", func(i int) ([]eventstore.Event, error) {
			return store.ReadAllAfter(ctx, uint64(i%(2*20*parties)), 10)
		}},
	}
	for _, l := range lectures {
		b.Run(l.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				events, err := l.lire(i)
				if err != nil || len(events) == 0 {
					b.Fatal(err, len(events))
				}
			}
		})
	}
}

// BenchmarkIssue34_SuiteDUneSalle reads what a 2,000-player hall's kept
// game reads before a bulletin: the three events stored since it was last
// read, after 4,000 events of the game and its 100 tables (issue 34).
func BenchmarkIssue34_SuiteDUneSalle(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{3})
	var derniere uint64
	for tour := range 20 {
		for table := range 100 {
			stream := fmt.Sprintf("partie-s-table-%d", table+1)
			if table == 0 && tour%2 == 0 {
				stream = "partie-s"
			}
			res, err := store.Append(ctx, stream, eventstore.Any, benchEvents(rng, 2, 0)...)
			require.NoError(b, err)
			derniere = res.Position
		}
	}
	b.ResetTimer()
	for range b.N {
		events, err := store.ReadSections(ctx, "partie-s", derniere-3)
		if err != nil || len(events) != 3 {
			b.Fatal(err, len(events))
		}
	}
}

// BenchmarkIssue34_RattrapageDesCles reads what each command's catch-up of
// the idempotency keys reads in a hall: the page after the last event it
// saw, where two or three events were stored since (issue 34).
func BenchmarkIssue34_RattrapageDesCles(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{4})
	res, err := store.Append(ctx, "partie-s", eventstore.Any, benchEvents(rng, 200, 0)...)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		events, err := store.ReadAllAfter(ctx, res.Position-3, eventstore.PageSize)
		if err != nil || len(events) != 3 {
			b.Fatal(err, len(events))
		}
	}
}

// BenchmarkIssue34_LotDeBulletins writes what a group commit holds while a
// hall's arbiters enter bulletins: 100 appends of one event, each to a
// table stream of the game already written to, in one transaction and one
// fsync (AppendBatch goes through each append's checks as AppendGuarded's
// batches do).
func BenchmarkIssue34_LotDeBulletins(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{5})
	const tables = 100
	flux := func(t int) string { return fmt.Sprintf("partie-s-table-%d", t) }
	for t := range tables {
		_, err := store.Append(ctx, flux(t+1), eventstore.Any, benchEvents(rng, 20, t*20)...)
		require.NoError(b, err)
	}
	lots := make([][]eventstore.BatchPart, b.N)
	for i := range lots {
		lots[i] = make([]eventstore.BatchPart, tables)
		for t := range lots[i] {
			lots[i][t] = eventstore.BatchPart{Stream: flux(t + 1), Expected: eventstore.StreamExists, Events: benchEvents(rng, 1, i)}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := store.AppendBatch(ctx, lots[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIssue34_ClesPuisModeles reads, by turns, what a hall's command
// reads of the log for the idempotency keys (a page of 1,000 after the
// last event they saw) and what a read model following the log reads (the
// rest of a page of 999 after the event it applies), each finding three
// events: the two reads share the reader connections' statement (issue 34).
// The turns follow the Thue-Morse sequence, so that each connection of
// the pool, handed out in turn, meets both in no fixed order.
func BenchmarkIssue34_ClesPuisModeles(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{4})
	res, err := store.Append(ctx, "partie-s", eventstore.Any, benchEvents(rng, 200, 0)...)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		events, err := store.ReadAllAfter(ctx, res.Position-3, eventstore.PageSize-bits.OnesCount(uint(i))%2)
		if err != nil || len(events) != 3 {
			b.Fatal(err, len(events))
		}
	}
}

// BenchmarkIssue34_BulletinsDeCentArbitres writes what a hall's arbiters
// append: 100 writers, one per table, each appending one bulletin after
// the other to its table's stream, under a key of its own and a guard on
// the game's stream, grouped by the store's group commit (issue 34).
func BenchmarkIssue34_BulletinsDeCentArbitres(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b, b.TempDir())
	rng := rand.NewChaCha8([32]byte{6})
	const tables = 100
	jeu, err := store.Append(ctx, "partie-s", eventstore.Any, benchEvents(rng, 5, 0)...)
	require.NoError(b, err)
	parTable := b.N/tables + 1
	bulletins := make([][]eventstore.EventData, tables)
	for t := range bulletins {
		bulletins[t] = benchEvents(rng, parTable, 0)
		for i := range bulletins[t] {
			md := &bulletins[t][i].Metadata
			md.Actor, md.CausationID, md.Request = fmt.Sprintf("arbitre-%d", t), fmt.Sprintf("c-%d", i), fmt.Sprintf("deposer:%d", i)
		}
	}
	garde := []eventstore.Guard{{Stream: "partie-s", After: jeu.Position}}
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for t := range tables {
		wg.Go(func() {
			for i := t; i < b.N; i += tables {
				if _, err := store.AppendGuarded(ctx, fmt.Sprintf("partie-s-table-%d", t+1), eventstore.Any, garde, bulletins[t][i/tables]); err != nil {
					panic(err)
				}
			}
		})
	}
	wg.Wait()
}
