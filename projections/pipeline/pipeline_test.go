package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tally is a projection that records every event it applies in its own
// table; a sick one fails on the payload poison, and counts its tries at it.
type tally struct {
	name  string
	sick  bool
	tries *atomic.Int32
}

func newTally(name string) tally { return tally{name: name, tries: new(atomic.Int32)} }

func (p tally) Name() string { return p.name }
func (p tally) Setup(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+p.name+` (position INTEGER PRIMARY KEY, data TEXT NOT NULL)`)
	return err
}
func (p tally) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM `+p.name)
	return err
}
func (p tally) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if p.sick && string(e.Data) == `"poison"` {
		p.tries.Add(1)
		return fmt.Errorf("cannot fold a poison event")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO `+p.name+` (position, data) VALUES (?, ?)`, e.Position, string(e.Data))
	return err
}

// pliee is a tally that a rebuild folds in memory (projection.Folder).
type pliee struct{ tally }

func (p pliee) Fold() projection.Fold { return &pli{p: p.tally} }

// pli holds the events a rebuild folded, written at the end.
type pli struct {
	p      tally
	events []eventstore.Event
}

func (f *pli) Add(_ context.Context, e projection.Decoded) error {
	if f.p.sick && string(e.Data) == `"poison"` {
		return fmt.Errorf("cannot fold a poison event")
	}
	f.events = append(f.events, *e.Event)
	return nil
}

func (f *pli) Write(ctx context.Context, tx *sql.Tx) error {
	for _, e := range f.events {
		if err := f.p.Apply(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

// enMemoire folds p in memory during a rebuild when plier.
func enMemoire(p tally, plier bool) projection.Projection {
	if plier {
		return pliee{p}
	}
	return p
}

type fixture struct {
	dir   string
	store *sqlitestore.Store
	db    *sql.DB
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{dir: dir}
	f.open(t)
	return f
}

func (f *fixture) open(t testing.TB) {
	t.Helper()
	var err error
	f.store, err = sqlitestore.OpenDir(context.Background(), f.dir, sqlitestore.Options{})
	require.NoError(t, err)
	f.db, err = projection.OpenDB(filepath.Join(f.dir, projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { f.close(t) })
}

func (f *fixture) close(t testing.TB) {
	if f.store != nil {
		require.NoError(t, f.store.Close())
		require.NoError(t, f.db.Close())
		f.store, f.db = nil, nil
	}
}

func (f *fixture) append(t *testing.T, payloads ...string) uint64 {
	t.Helper()
	var res eventstore.AppendResult
	for _, p := range payloads {
		var err error
		res, err = f.store.Append(context.Background(), "partie-1", eventstore.Any,
			eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(p)})
		require.NoError(t, err)
	}
	return res.Position
}

func (f *fixture) runner(t *testing.T, p projection.Projection) *projection.Runner {
	t.Helper()
	r, err := projection.NewRunner(context.Background(), f.db, p, f.store)
	require.NoError(t, err)
	return r
}

func numbered(from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(from + i)
	}
	return out
}

// dump is a projection database's whole content.
func dump(t *testing.T, db *sql.DB) string {
	t.Helper()
	out, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	return string(out)
}

// freshRebuild is the database a rebuild of p from the store gives.
func freshRebuild(t *testing.T, store eventstore.Reader, ps ...projection.Projection) string {
	t.Helper()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	defer db.Close()
	for _, p := range ps {
		r, err := projection.NewRunner(context.Background(), db, p, store)
		require.NoError(t, err)
		_, err = r.Rebuild(context.Background(), nil)
		require.NoError(t, err)
	}
	return dump(t, db)
}

// runPipeline runs the pipeline until the test ends and returns once the
// runners are caught up.
func runPipeline(t *testing.T, f *fixture, cfg pipeline.Config, runners ...*projection.Runner) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, f.store, runners, cfg, ready) }()
	select {
	case <-ready:
	case err := <-done:
		require.FailNow(t, "the pipeline stopped before running", "%v", err)
	}
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
}

// Issue 16 item 3: an event a projection cannot apply leaves its state and
// its checkpoint as they were, even when events before it in the same batch
// were applied.
func TestArret_ApplyErrorRollsBackStateAndCheckpoint(t *testing.T) {
	f := newFixture(t)
	p := newTally("tally")
	p.sick = true
	r := f.runner(t, p)
	f.append(t, "1", "2")
	_, err := r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	before := dump(t, f.db)

	f.append(t, "3", `"poison"`, "5")
	events, err := f.store.ReadAll(context.Background(), 3, 10)
	require.NoError(t, err)
	_, err = r.Apply(context.Background(), events)
	var applyErr *projection.ApplyError
	require.ErrorAs(t, err, &applyErr)
	assert.Equal(t, uint64(4), applyErr.Position)
	assert.Equal(t, before, dump(t, f.db), "state and checkpoint rolled back")
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	assert.Equal(t, uint64(2), cp)
}

// Issue 16 item 3: a rebuild interrupted after its first page leaves the
// projection consistent at its checkpoint; the next catch-up resumes it and
// ends where a rebuild in one go ends.
func TestArret_RebuildInterruptedThenResumed(t *testing.T) {
	f := newFixture(t)
	f.append(t, numbered(1, 2500)...)
	p := newTally("tally")
	r := f.runner(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := r.Rebuild(ctx, func(position uint64, _ int) { cancel() })
	require.ErrorIs(t, err, context.Canceled)
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	require.Equal(t, uint64(eventstore.PageSize), cp, "interrupted after one page")

	_, err = r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, freshRebuild(t, f.store, p), dump(t, f.db))
}

// Issue 16 item 3: runners at different checkpoints all reach the head
// through the pipeline, each applying every event once.
func TestArret_RunnersStartAtDifferentCheckpoints(t *testing.T) {
	f := newFixture(t)
	a, b, c := newTally("a"), newTally("b"), newTally("c")
	ra, rb, rc := f.runner(t, a), f.runner(t, b), f.runner(t, c)
	f.append(t, numbered(1, 10)...)
	_, err := ra.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	f.append(t, numbered(11, 10)...)
	_, err = rb.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	last := f.append(t, numbered(21, 10)...)

	runPipeline(t, f, pipeline.Config{Retry: pipeline.Retry{Attempts: 2, First: 1}}, ra, rb, rc)
	last = max(last, f.append(t, numbered(31, 5)...))
	for _, r := range []*projection.Runner{ra, rb, rc} {
		require.NoError(t, r.Attendre(context.Background(), last))
	}
	assert.Equal(t, freshRebuild(t, f.store, a, b, c), dump(t, f.db))
}

// Issue 16 item 3: a projection that fails on an event is tried a bounded
// number of times, then parked with the event's position and the error;
// the other projections go on, live.
func TestArret_PoisonEventParksOnlyItsProjection(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run(fmt.Sprintf("live=%v", live), func(t *testing.T) {
			f := newFixture(t)
			sick, healthy := newTally("sick"), newTally("healthy")
			sick.sick = true
			rs, rh := f.runner(t, sick), f.runner(t, healthy)
			rh.Log, rs.Log = discard(), discard()
			f.append(t, "1", "2")
			if !live {
				f.append(t, `"poison"`)
			}
			retry := pipeline.Retry{Attempts: 3, First: 1}
			// Not tried again while the test looks.
			runPipeline(t, f, pipeline.Config{Retry: retry, Reprise: pipeline.Reprise{First: time.Hour, Max: time.Hour}}, rs, rh)
			if live {
				f.append(t, `"poison"`)
			}
			last := f.append(t, "4", "5")
			require.NoError(t, rh.Attendre(context.Background(), last), "the healthy projection goes on")
			err := rs.Attendre(context.Background(), last)
			var arret *projection.Arret
			require.ErrorAs(t, err, &arret, "the sick projection is parked")
			assert.Equal(t, projection.Arret{Nom: "sick", Position: 3, Erreur: arret.Erreur}, *arret)
			assert.Contains(t, arret.Erreur, "cannot fold a poison event")
			assert.Equal(t, int32(retry.Attempts), sick.tries.Load(), "tries are bounded")
			assert.Equal(t, uint64(2), rs.Position())
		})
	}
}

// Issue 16 item 5: an older copy of the store restored under projections
// that had seen more (its seal file removed to accept it, then written to
// again, so positions line up with other events) makes each projection
// rebuild from zero; the result is what a fresh rebuild gives. (serve
// refuses to start on it instead: Runner.Prolonge, issue 28.)
func TestIdentite_OlderStoreRestoredRebuilds(t *testing.T) {
	f := newFixture(t)
	p := newTally("tally")
	f.append(t, numbered(1, 20)...)
	f.close(t)
	backup, err := os.ReadFile(filepath.Join(f.dir, sqlitestore.FileName))
	require.NoError(t, err)
	f.open(t)
	f.append(t, numbered(21, 20)...)
	r := f.runner(t, p)
	_, err = r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	f.close(t)

	for _, suffix := range []string{"", "-wal", "-shm"} {
		require.NoError(t, os.RemoveAll(filepath.Join(f.dir, sqlitestore.FileName+suffix)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(f.dir, sqlitestore.FileName), backup, 0o600))
	f.open(t)
	require.ErrorIs(t, f.store.Rupture(), eventstore.ErrTampered, "the older copy does not extend the seal: no append until it is accepted")
	f.close(t)
	require.NoError(t, os.Remove(filepath.Join(f.dir, sqlitestore.SealName)), "the operator accepts the older copy")
	f.open(t)
	f.append(t, numbered(100, 30)...)
	r = f.runner(t, p)
	_, err = r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, freshRebuild(t, f.store, p), dump(t, f.db))
}

// Issue 16 item 5: projections built from another store are rebuilt.
func TestIdentite_AnotherStoreRebuilds(t *testing.T) {
	f := newFixture(t)
	p := newTally("tally")
	f.append(t, numbered(1, 20)...)
	r := f.runner(t, p)
	_, err := r.CatchUp(context.Background(), nil)
	require.NoError(t, err)

	other, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	defer other.Close()
	for _, d := range numbered(500, 25) {
		_, err := other.Append(context.Background(), "partie-2", eventstore.Any,
			eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(d)})
		require.NoError(t, err)
	}
	r, err = projection.NewRunner(context.Background(), f.db, p, other)
	require.NoError(t, err)
	_, err = r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, freshRebuild(t, other, p), dump(t, f.db))
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// Issue 16 item 1: a projection never folds an event that does not match
// its hash (altered in the file after it was written).
func TestChaine_ProjectionRefusesAnAlteredEvent(t *testing.T) {
	f := newFixture(t)
	r := f.runner(t, newTally("tally"))
	f.append(t, "1", "2", "3")
	events, err := f.store.ReadAll(context.Background(), 1, 10)
	require.NoError(t, err)
	events[1].Data = json.RawMessage("20")
	_, err = r.Apply(context.Background(), events)
	var applyErr *projection.ApplyError
	require.ErrorAs(t, err, &applyErr)
	assert.Equal(t, uint64(2), applyErr.Position)
	assert.ErrorIs(t, err, eventstore.ErrTampered)
}

// Issue 16 item 5: checkpoints written before they named their store are
// upgraded in place and match no store, so the projection is rebuilt once.
func TestIdentite_CheckpointsWithoutIdentityRebuildOnce(t *testing.T) {
	f := newFixture(t)
	p := newTally("tally")
	f.append(t, numbered(1, 12)...)
	_, err := f.db.Exec(`CREATE TABLE projection_checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL);
		INSERT INTO projection_checkpoints VALUES ('tally', 5);
		CREATE TABLE tally (position INTEGER PRIMARY KEY, data TEXT NOT NULL);
		INSERT INTO tally VALUES (1, 'stale')`)
	require.NoError(t, err)
	r := f.runner(t, p)
	r.Log = discard()
	n, err := r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, 12, n, "rebuilt from zero")
	assert.Equal(t, freshRebuild(t, f.store, p), dump(t, f.db))
	n, err = r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	assert.Zero(t, n, "once")
}

// Issue 16, item 7: catch-up (two pages), live delivery and gap filling
// pass positions back as the store gave them, so a projection follows a
// store whose positions have gaps and which refuses computed ones.
func TestPositionsOpaques_PipelineSurPositionsATrous(t *testing.T) {
	f := newFixture(t)
	store := eventstoretest.Gapped(f.store)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batch := func(n int) uint64 {
		events := make([]eventstore.EventData, n)
		for i := range events {
			events[i] = eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(fmt.Sprint(i))}
		}
		res, err := store.Append(ctx, "partie-1", eventstore.Any, events...)
		require.NoError(t, err)
		return res.Position
	}
	batch(eventstore.PageSize + 200)
	r, err := projection.NewRunner(ctx, f.db, newTally("trous"), store)
	require.NoError(t, err)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx, store, []*projection.Runner{r}, pipeline.Config{}, ready) }()
	<-ready
	last := batch(30)
	require.NoError(t, r.Attendre(ctx, last))
	cancel()
	require.NoError(t, <-done)

	want, err := store.ReadAll(context.Background(), 0, 2*eventstore.PageSize)
	require.NoError(t, err)
	var got []uint64
	rows, err := f.db.Query(`SELECT position FROM trous ORDER BY position`)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var p uint64
		require.NoError(t, rows.Scan(&p))
		got = append(got, p)
	}
	require.Len(t, got, len(want))
	for i, e := range want {
		assert.Equal(t, e.Position, got[i])
	}
}

// Issue 16, item 10: in the one-pass rebuild a projection that fails on an
// event stops right before it, at its checkpoint, and the others rebuild
// the whole log; the error names the event. A projection folded in memory
// is replayed alone to get there.
func TestRebuildAll_UneProjectionQuiEchoueNArretePasLesAutres(t *testing.T) {
	for _, plier := range []bool{false, true} {
		t.Run(fmt.Sprintf("en mémoire %v", plier), func(t *testing.T) {
			f := newFixture(t)
			f.append(t, numbered(1, 5000)...)
			poison := f.append(t, `"poison"`)
			last := f.append(t, numbered(6000, 10)...)
			sick := newTally("sick")
			sick.sick = true
			saine, malade := f.runner(t, enMemoire(newTally("saine"), plier)), f.runner(t, enMemoire(sick, plier))
			read, err := projection.RebuildAll(context.Background(), f.store, nil, []*projection.Runner{saine, malade}, nil)
			var applyErr *projection.ApplyError
			require.ErrorAs(t, err, &applyErr)
			assert.Equal(t, poison, applyErr.Position)
			assert.Equal(t, 5011, read)
			assert.Equal(t, last, saine.Position())
			cp, err := malade.Checkpoint(context.Background())
			require.NoError(t, err)
			assert.Less(t, cp, poison, "the sick projection stops before the poison event")
			count := func(table string) (n int) {
				require.NoError(t, f.db.QueryRow(`SELECT COUNT(*) FROM `+table).Scan(&n))
				return n
			}
			assert.Equal(t, 5000, count("sick"), "and applied every event before it")
			assert.Equal(t, 5011, count("saine"))
		})
	}
}

// Issue 16, item 10: the one-pass rebuild checks the chain once for every
// projection: an event altered in the file stops them all right before it,
// folded in memory or not, read in ranges or page after page.
func TestRebuildAll_EvenementAltereArreteToutesLesProjections(t *testing.T) {
	for _, c := range []struct {
		plier, sequentiel bool
	}{{false, false}, {true, false}, {false, true}, {true, true}} {
		plier := c.plier
		t.Run(fmt.Sprintf("en mémoire %v, page après page %v", plier, c.sequentiel), func(t *testing.T) {
			f := newFixture(t)
			f.append(t, numbered(1, 10)...)
			altered := f.append(t, "11")
			f.append(t, numbered(12, 5)...)
			raw, err := sql.Open("sqlite", "file:"+filepath.Join(f.dir, sqlitestore.FileName))
			require.NoError(t, err)
			_, err = raw.Exec(`UPDATE events SET data = '"110"' WHERE position = ?`, altered)
			require.NoError(t, err)
			require.NoError(t, raw.Close())

			a, b := f.runner(t, enMemoire(newTally("a"), plier)), f.runner(t, newTally("b"))
			var store eventstore.Reader = f.store
			if c.sequentiel {
				store = sequentiel{f.store}
			}
			_, err = projection.RebuildAll(context.Background(), store, nil, []*projection.Runner{a, b}, nil)
			require.ErrorIs(t, err, eventstore.ErrTampered)
			var applyErr *projection.ApplyError
			require.ErrorAs(t, err, &applyErr)
			assert.Equal(t, altered, applyErr.Position)
			for _, r := range []*projection.Runner{a, b} {
				cp, err := r.Checkpoint(context.Background())
				require.NoError(t, err)
				assert.Less(t, cp, altered, "projection %s", r.Name())
				assert.NotZero(t, cp, "projection %s applied the events before", r.Name())
			}
		})
	}
}

// Issue 16, item 10: a rebuild interrupted mid-pass writes nothing of a
// fold (its checkpoint stays at zero) and the next catch-up completes it.
func TestRebuildAll_InterrompueReprendDepuisZeroEnMemoire(t *testing.T) {
	f := newFixture(t)
	last := f.append(t, numbered(1, 3*projection.RebuildPage)...)
	r := f.runner(t, enMemoire(newTally("pli"), true))
	ctx, cancel := context.WithCancel(context.Background())
	_, err := projection.RebuildAll(ctx, f.store, nil, []*projection.Runner{r}, func(uint64, int) { cancel() })
	require.ErrorIs(t, err, context.Canceled)
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	assert.Zero(t, cp)
	var n int
	require.NoError(t, f.db.QueryRow(`SELECT COUNT(*) FROM pli`).Scan(&n))
	assert.Zero(t, n, "nothing of the fold is written")

	_, err = r.CatchUp(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, last, r.Position())
	require.NoError(t, f.db.QueryRow(`SELECT COUNT(*) FROM pli`).Scan(&n))
	assert.Equal(t, 3*projection.RebuildPage, n)
}

// sequentiel is a store read page after page: the SQLite store without
// its ranges (eventstore.Ranges).
type sequentiel struct{ eventstore.Reader }

// Issue 16, item 10: the rebuild reads the SQLite log in ranges on several
// connections at once; the chain is still checked at every event, inside
// the ranges and at their junctions: an event altered or deleted anywhere
// stops every projection right after the last intact one, and an intact
// log gives the rows of a rebuild read page after page.
func TestRebuildAll_EnTranchesVerifieChaqueJonction(t *testing.T) {
	page := uint64(projection.RebuildPage)
	base := newFixture(t)
	base.append(t, numbered(1, 3*projection.RebuildPage+7)...)
	a := base.runner(t, enMemoire(newTally("a"), true))
	b := base.runner(t, newTally("b"))
	n, err := projection.RebuildAll(context.Background(), base.store, nil, []*projection.Runner{a, b}, nil)
	require.NoError(t, err)
	assert.Equal(t, 3*projection.RebuildPage+7, n)
	enTranches := dump(t, base.db)
	_, err = projection.RebuildAll(context.Background(), sequentiel{base.store}, nil, []*projection.Runner{a, b}, nil)
	require.NoError(t, err)
	assert.Equal(t, enTranches, dump(t, base.db), "the same rows as read page after page")
	base.close(t)
	journal, err := os.ReadFile(filepath.Join(base.dir, sqlitestore.FileName))
	require.NoError(t, err)

	for _, c := range []struct {
		nom             string
		requete         string
		position        uint64
		altere, dernier uint64 // the event reported, the last one applied
	}{
		{"premier événement", `UPDATE events SET data = '"0"' WHERE position = ?`, 1, 1, 0},
		{"dernier d'une tranche", `UPDATE events SET data = '"0"' WHERE position = ?`, page, page, page - 1},
		{"premier d'une tranche", `UPDATE events SET data = '"0"' WHERE position = ?`, page + 1, page + 1, page},
		{"dans une tranche", `UPDATE events SET data = '"0"' WHERE position = ?`, 2*page + 10, 2*page + 10, 2*page + 9},
		{"supprimé à une jonction", `DELETE FROM events WHERE position = ?`, 2 * page, 2*page + 1, 2*page - 1},
	} {
		t.Run(c.nom, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, sqlitestore.FileName), journal, 0o600))
			raw, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlitestore.FileName))
			require.NoError(t, err)
			_, err = raw.Exec(c.requete, c.position)
			require.NoError(t, err)
			require.NoError(t, raw.Close())
			f := &fixture{dir: dir}
			f.open(t)

			a, b := f.runner(t, enMemoire(newTally("a"), true)), f.runner(t, newTally("b"))
			_, err = projection.RebuildAll(context.Background(), f.store, nil, []*projection.Runner{a, b}, nil)
			require.ErrorIs(t, err, eventstore.ErrTampered)
			var applyErr *projection.ApplyError
			require.ErrorAs(t, err, &applyErr)
			assert.Equal(t, c.altere, applyErr.Position)
			for _, r := range []*projection.Runner{a, b} {
				cp, err := r.Checkpoint(context.Background())
				require.NoError(t, err)
				assert.Equal(t, c.dernier, cp, "projection %s applied every event before", r.Name())
			}
		})
	}
}

// selective is a tally that reads events of type test.lu only, and fails
// on any other it is handed.
type selective struct{ tally }

func (p selective) Lit(typ string) bool { return typ == "test.lu" }

func (p selective) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if !p.Lit(e.Type) {
		return fmt.Errorf("%s is not read by %s", e.Type, p.name)
	}
	return p.tally.Apply(ctx, tx, e)
}

// Issue 16, item 10: a projection that reads a few types of events
// (projection.Selectif: the classique standings and cotes, the history) is
// handed those alone by a rebuild, which costs it no transaction for the
// pages of bulletins; its checkpoint still ends at the last event of the
// pass, and one that fails on an event it reads stops right before it.
func TestRebuildAll_ProjectionSelectiveNeRecoitQueSesTypes(t *testing.T) {
	for _, sick := range []bool{false, true} {
		t.Run(fmt.Sprintf("malade %v", sick), func(t *testing.T) {
			f := newFixture(t)
			f.append(t, numbered(1, projection.RebuildPage+10)...)
			lus := []uint64{}
			for _, data := range []string{"1", `"poison"`, "3"} {
				res, err := f.store.Append(context.Background(), "partie-1", eventstore.Any,
					eventstore.EventData{ID: uuid.New(), Type: "test.lu", Version: 1, Data: json.RawMessage(data)})
				require.NoError(t, err)
				lus = append(lus, res.Position)
			}
			last := f.append(t, numbered(1, 2*projection.RebuildPage)...)
			p := selective{newTally("selective")}
			p.sick = sick
			r := f.runner(t, p)
			_, err := projection.RebuildAll(context.Background(), f.store, nil, []*projection.Runner{r}, nil)
			var positions []uint64
			rows, qerr := f.db.Query(`SELECT position FROM selective ORDER BY position`)
			require.NoError(t, qerr)
			for rows.Next() {
				var p uint64
				require.NoError(t, rows.Scan(&p))
				positions = append(positions, p)
			}
			require.NoError(t, rows.Close())
			cp, cerr := r.Checkpoint(context.Background())
			require.NoError(t, cerr)
			if !sick {
				require.NoError(t, err)
				assert.Equal(t, lus, positions, "the events of its type only")
				assert.Equal(t, last, cp, "the checkpoint ends at the last event of the pass")
				return
			}
			var applyErr *projection.ApplyError
			require.ErrorAs(t, err, &applyErr)
			assert.Equal(t, lus[1], applyErr.Position)
			assert.Equal(t, lus[:1], positions)
			assert.Equal(t, lus[0], cp, "stopped right after the last event it read")
		})
	}
}

// lecteurDe is a tally folded in memory into d, whose fold uses the
// payloads of the types in lus only (projection.PayloadUser); nil: every
// type's.
type lecteurDe struct {
	tally
	lus map[string]bool
	d   *decodes
}

func (p lecteurDe) Fold() projection.Fold {
	*p.d = decodes{avance: map[uint64]bool{}, payloads: map[uint64]any{}}
	if p.lus == nil {
		return p.d
	}
	return decodesSeulement{decodes: p.d, lus: p.lus}
}

// decodes records, for every event folded, whether the rebuild decoded it
// ahead and its payload once decoded.
type decodes struct {
	avance   map[uint64]bool
	payloads map[uint64]any
}

func (f *decodes) Add(_ context.Context, e projection.Decoded) error {
	f.avance[e.Position] = e.Known
	e = e.Sinon(registreDeTest)
	f.payloads[e.Position] = e.Payload
	return e.Err
}

func (*decodes) Write(context.Context, *sql.Tx) error { return nil }

type decodesSeulement struct {
	*decodes
	lus map[string]bool
}

func (f decodesSeulement) UsesPayload(typ string) bool { return f.lus[typ] }

// coupDeTest and autreDeTest are the payloads of the test events
// registreDeTest decodes.
type (
	coupDeTest  struct{ Score int }
	autreDeTest coupDeTest
)

var registreDeTest = func() *eventstore.Registry {
	r := eventstore.NewRegistry()
	if err := errors.Join(eventstore.Register[coupDeTest](r, "test.coup", 1), eventstore.Register[autreDeTest](r, "test.autre", 1)); err != nil {
		panic(err)
	}
	return r
}()

// Issue 16, item 10: a rebuild decodes ahead, on every core, only the
// payloads its folds use (projection.PayloadUser: the games' views never
// read a bulletin, the archive no payload); a fold still gets any other
// one decoded when it asks (Decoded.Sinon), and a fold that says nothing
// of its payloads gets every event decoded ahead.
func TestRebuildAll_DecodeLesSeulsPayloadsQueLesPlisLisent(t *testing.T) {
	cases := []struct {
		nom    string
		folds  []map[string]bool
		avance map[string]bool // decoded ahead, by type
	}{
		{"un pli lit test.coup, l'autre rien", []map[string]bool{{"test.coup": true}, {}}, map[string]bool{"test.coup": true, "test.autre": false}},
		{"aucun pli ne lit de payload", []map[string]bool{{}, {}}, map[string]bool{"test.coup": false, "test.autre": false}},
		{"un pli ne dit rien de ses payloads", []map[string]bool{{}, nil}, map[string]bool{"test.coup": true, "test.autre": true}},
	}
	for _, c := range cases {
		t.Run(c.nom, func(t *testing.T) {
			f := newFixture(t)
			const n = 2*projection.RebuildPage + 3
			types := map[uint64]string{}
			var evts []eventstore.EventData
			for i := range n {
				typ := []string{"test.coup", "test.autre"}[i%3/2]
				evts = append(evts, eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: json.RawMessage(fmt.Sprintf(`{"Score":%d}`, i))})
				types[uint64(i+1)] = typ
			}
			_, err := f.store.Append(context.Background(), "partie-1", eventstore.NoStream, evts...)
			require.NoError(t, err)
			var runners []*projection.Runner
			var plis []*decodes
			for i, lus := range c.folds {
				d := &decodes{}
				runners = append(runners, f.runner(t, lecteurDe{tally: newTally(fmt.Sprintf("pli%d", i)), lus: lus, d: d}))
				plis = append(plis, d)
			}
			// A projection applied in SQL decodes what it reads itself.
			runners = append(runners, f.runner(t, newTally("sql")))
			read, err := projection.RebuildAll(context.Background(), f.store, registreDeTest, runners, nil)
			require.NoError(t, err)
			require.Equal(t, n, read)
			for i, d := range plis {
				require.Len(t, d.avance, n, "pli %d", i)
				score := 0
				for position := uint64(1); position <= n; position++ {
					assert.Equal(t, c.avance[types[position]], d.avance[position], "pli %d, position %d (%s)", i, position, types[position])
					want := any(coupDeTest{Score: score})
					if types[position] == "test.autre" {
						want = autreDeTest{Score: score}
					}
					assert.Equal(t, want, d.payloads[position], "pli %d, position %d", i, position)
					score++
				}
			}
		})
	}
}

// paniquee is a tally whose Apply panics on the payload panique.
type paniquee struct{ tally }

func (p paniquee) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	if string(e.Data) == `"panique"` {
		p.tries.Add(1)
		panic("a bug in the projection")
	}
	return p.tally.Apply(ctx, tx, e)
}

// Issue 33 item 6: a projection that panics on an event (a bug) is tried
// again and parked like one that fails, at start-up and live; it does not
// bring the server down, and the other projections go on.
func TestFiabilite_ProjectionQuiPaniqueEstGaree(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run(fmt.Sprintf("live=%v", live), func(t *testing.T) {
			f := newFixture(t)
			bug, healthy := paniquee{newTally("bug")}, newTally("healthy")
			rb, rh := f.runner(t, bug), f.runner(t, healthy)
			rh.Log, rb.Log = discard(), discard()
			f.append(t, "1", "2")
			if !live {
				f.append(t, `"panique"`)
			}
			retry := pipeline.Retry{Attempts: 2, First: 1}
			runPipeline(t, f, pipeline.Config{Retry: retry, Reprise: pipeline.Reprise{First: time.Hour, Max: time.Hour}}, rb, rh)
			if live {
				f.append(t, `"panique"`)
			}
			last := f.append(t, "4", "5")
			require.NoError(t, rh.Attendre(context.Background(), last), "the healthy projection goes on")
			var arret *projection.Arret
			require.ErrorAs(t, rb.Attendre(context.Background(), last), &arret, "the projection that panics is parked")
			assert.Equal(t, uint64(3), arret.Position)
			assert.Contains(t, arret.Erreur, "a bug in the projection")
			assert.Equal(t, int32(retry.Attempts), bug.tries.Load(), "tries are bounded")
			assert.Equal(t, uint64(2), rb.Position())
		})
	}
}
