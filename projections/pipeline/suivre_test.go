package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"
)

// lots is a tally that folds several events at once (projection.Batcher)
// and records the size of each batch it was given.
type lots struct {
	tally
	tailles *[]int
}

func (p lots) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	*p.tailles = append(*p.tailles, len(events))
	for _, e := range events {
		if err := p.Apply(ctx, tx, *e.Event); err != nil {
			return err
		}
	}
	return nil
}

// livrer hands the runner the message of the event at index i of the log,
// as the feed does.
func livrer(t *testing.T, f *fixture, r *projection.Runner, i int) error {
	t.Helper()
	events, err := f.store.ReadAll(context.Background(), 0, 100)
	require.NoError(t, err)
	previous := uint64(0)
	if i > 0 {
		previous = events[i-1].Position
	}
	msg, err := feed.NewMessage(events[i], previous)
	require.NoError(t, err)
	return recevoir(r, msg)
}

// recevoir hands the runner msg as the pipeline does.
func recevoir(r *projection.Runner, msg *message.Message) error {
	l, err := feed.Livrer(msg)
	if err != nil {
		return err
	}
	return r.Recevoir(context.Background(), l)
}

// Issue 17: a burst of events (fifty arbiters entering a coup's bulletins)
// is folded once: the first message applies every event stored after it in
// one batch, and the messages of those events are duplicates. The result is
// the rebuild's.
func TestSuivre_RafalePlieeEnUnLot(t *testing.T) {
	f := newFixture(t)
	var tailles []int
	p := lots{tally: newTally("lots"), tailles: &tailles}
	r := f.runner(t, p)
	last := f.append(t, numbered(1, 6)...)
	for i := range 6 {
		require.NoError(t, livrer(t, f, r, i))
	}
	assert.Equal(t, []int{6}, tailles, "one batch for the burst")
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	assert.Equal(t, last, cp)
	assert.Equal(t, freshRebuild(t, f.store, lots{tally: newTally("lots"), tailles: new([]int)}), dump(t, f.db))
}

// Issue 16 item 3 with the burst read ahead: a poison event further on does
// not hold back the events before it, and fails on its own message (once
// per delivery, for a projection applying one event at a time); the
// projection stays right before it.
func TestSuivre_PoisonPlusLoinNeRetientPasLesPrecedents(t *testing.T) {
	for _, batcher := range []bool{false, true} {
		t.Run(map[bool]string{false: "un par un", true: "par lots"}[batcher], func(t *testing.T) {
			f := newFixture(t)
			sick := newTally("sick")
			sick.sick = true
			var p projection.Projection = sick
			if batcher {
				p = lots{tally: sick, tailles: new([]int)}
			}
			r := f.runner(t, p)
			f.append(t, "1", "2", `"poison"`, "4")
			require.NoError(t, livrer(t, f, r, 0))
			cp, err := r.Checkpoint(context.Background())
			require.NoError(t, err)
			assert.Equal(t, uint64(2), cp, "the events before the poison are applied")
			require.NoError(t, livrer(t, f, r, 1), "a duplicate")
			tries := sick.tries.Load()
			var applyErr *projection.ApplyError
			require.ErrorAs(t, livrer(t, f, r, 2), &applyErr)
			assert.Equal(t, uint64(3), applyErr.Position)
			if !batcher { // a failing batch is applied again event by event to name the one that fails
				assert.Equal(t, tries+1, sick.tries.Load(), "one try per delivery")
			}
			cp, err = r.Checkpoint(context.Background())
			require.NoError(t, err)
			assert.Equal(t, uint64(2), cp)
		})
	}
}

// comptage is the store (chained, with its identity), counting its reads
// of the log after a position.
type comptage struct {
	*sqlitestore.Store
	lectures int
}

func (c *comptage) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	c.lectures++
	return c.Store.ReadAllAfter(ctx, after, limit)
}

// Issue 17: the live runners of a pipeline share their read-ahead: a burst
// is read from the store once for all the projections, each folds it, and
// each ends equal to its rebuild.
func TestSuivre_LectureEnAvancePartagee(t *testing.T) {
	f := newFixture(t)
	magasin := &comptage{Store: f.store}
	avance := projection.NewAvance(magasin, nil)
	var runners []*projection.Runner
	for _, nom := range []string{"premier", "second"} {
		r, err := projection.NewRunner(context.Background(), f.db, lots{tally: newTally(nom), tailles: new([]int)}, magasin)
		require.NoError(t, err)
		r.Avance = avance
		runners = append(runners, r)
	}
	last := f.append(t, numbered(1, 6)...)
	for i := range 6 {
		for _, r := range runners {
			require.NoError(t, livrer(t, f, r, i))
		}
	}
	assert.Equal(t, 1, magasin.lectures, "one read of the burst for both projections")
	for _, r := range runners {
		assert.Equal(t, last, r.Position())
	}
	assert.Equal(t, freshRebuild(t, f.store, lots{tally: newTally("premier"), tailles: new([]int)}, lots{tally: newTally("second"), tailles: new([]int)}), dump(t, f.db))
}

// Issue 34 item 3: a message at or before the runner's checkpoint (the
// burst its first message read ahead) is acknowledged by its position,
// without decoding its event: a message whose payload is not an event is
// still a duplicate. A message the runner applies is decoded, and one whose
// event does not match its position is refused.
func TestIssue34_DoublonAcquitteSansDecoder(t *testing.T) {
	f := newFixture(t)
	r := f.runner(t, newTally("doublons"))
	last := f.append(t, numbered(1, 6)...)
	require.NoError(t, livrer(t, f, r, 0))
	require.Equal(t, last, r.Position(), "the burst is read ahead")

	events, err := f.store.ReadAll(context.Background(), 0, 100)
	require.NoError(t, err)
	illisible := func(i int) *message.Message {
		msg, err := feed.NewMessage(events[i], events[i-1].Position)
		require.NoError(t, err)
		msg.Payload = []byte("pas un événement")
		return msg
	}
	for i := 1; i < 6; i++ {
		assert.NoError(t, recevoir(r, illisible(i)), "duplicate %d", i)
	}

	f.append(t, "7")
	events, err = f.store.ReadAll(context.Background(), 0, 100)
	require.NoError(t, err)
	assert.ErrorIs(t, recevoir(r, illisible(6)), eventstore.ErrMalformedPayload, "an event to apply is decoded")
	autre, err := feed.NewMessage(events[5], events[5].Position)
	require.NoError(t, err)
	autre.Metadata.Set(feed.MetaPosition, fmt.Sprint(events[6].Position))
	assert.ErrorIs(t, recevoir(r, autre), eventstore.ErrMalformedPayload, "an event that is not at its message's position")
	assert.Equal(t, last, r.Position())
}

// BenchmarkIssue34_DoublonsDUneRafale hands a runner the messages of a
// burst its first message read ahead (a coup's bulletins: 400 events of
// about 600 bytes), as each read model of the pipeline is handed them.
func BenchmarkIssue34_DoublonsDUneRafale(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(b, err)
	defer store.Close()
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	require.NoError(b, err)
	defer db.Close()
	data := json.RawMessage(`{"coup":7,"licence":"` + strings.Repeat("0", 8) + `","mot":"EXEMPLAIRE","ref":"H4","score":98,"chrono":"` + strings.Repeat("x", 420) + `"}`)
	lot := make([]eventstore.EventData, 400)
	for i := range lot {
		lot[i] = eventstore.EventData{ID: uuid.New(), Type: "duplicate.bulletin_depose", Version: 1, Data: data,
			Metadata: eventstore.Metadata{Actor: "arbitre-1", CorrelationID: uuid.NewString()}}
	}
	_, err = store.Append(ctx, "partie-1", eventstore.Any, lot...)
	require.NoError(b, err)
	r, err := projection.NewRunner(ctx, db, newTally("rafale"), store)
	require.NoError(b, err)
	events, err := store.ReadAll(ctx, 0, len(lot))
	require.NoError(b, err)
	msgs := make([]*message.Message, len(events))
	for i, e := range events {
		msgs[i], err = feed.NewMessage(e, e.Position-1)
		require.NoError(b, err)
	}
	require.NoError(b, recevoir(r, msgs[0]))
	require.Equal(b, events[len(events)-1].Position, r.Position())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := recevoir(r, msgs[1+i%(len(msgs)-1)]); err != nil {
			b.Fatal(err)
		}
	}
}
