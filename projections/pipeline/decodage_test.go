package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"
)

// compteur is a registry of the test events that counts how many times
// each event's payload is decoded (by its Data, unique per event).
type compteur struct {
	*eventstore.Registry
	mu   sync.Mutex
	fois map[string]int
}

func nouveauCompteur(t *testing.T) *compteur {
	t.Helper()
	c := &compteur{Registry: eventstore.NewRegistry(), fois: map[string]int{}}
	require.NoError(t, eventstore.Register[coupDeTest](c.Registry, "test.coup", 1))
	// The fast decoder is tried first on every Decode: it counts, then
	// leaves the decoding to the general way.
	require.NoError(t, eventstore.Accelerate(c.Registry, "test.coup", func(data []byte) (coupDeTest, bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.fois[string(data)]++
		return coupDeTest{}, false
	}))
	return c
}

// decodages is how many times each event's payload was decoded.
func (c *compteur) decodages() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.fois))
	for k, v := range c.fois {
		out[k] = v
	}
	return out
}

// coups appends n events test.coup, of payloads {"Score":de}…, and returns
// their payloads.
func (f *fixture) coups(t *testing.T, de, n int) []string {
	t.Helper()
	var out []string
	for i := range n {
		data := fmt.Sprintf(`{"Score":%d}`, de+i)
		_, err := f.store.Append(context.Background(), "partie-1", eventstore.Any,
			eventstore.EventData{ID: uuid.New(), Type: "test.coup", Version: 1, Data: json.RawMessage(data)})
		require.NoError(t, err)
		out = append(out, data)
	}
	return out
}

// lecteurLot is a tally applied in batches (projection.Batcher) that reads
// every payload: it records the scores it folded.
type lecteurLot struct {
	tally
	registre *eventstore.Registry
	scores   *[]int
}

// Apply folds one event as a batch of one, as the read models do.
func (p lecteurLot) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

func (p lecteurLot) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	for _, d := range events {
		if d = d.Sinon(p.registre); d.Err != nil {
			return d.Err
		}
		*p.scores = append(*p.scores, d.Payload.(coupDeTest).Score)
		if err := p.tally.Apply(ctx, tx, *d.Event); err != nil {
			return err
		}
	}
	return nil
}

// unParEvenement checks every payload of events was decoded exactly once.
func unParEvenement(t *testing.T, c *compteur, events []string) {
	t.Helper()
	attendu := map[string]int{}
	for _, e := range events {
		attendu[e] = 1
	}
	assert.Equal(t, attendu, c.decodages(), "each payload decoded once")
}

// The finding left at the end of session 9: a payload was decoded once by
// the rebuild for the folds in memory and again by each Batcher, and live
// once by each Batcher behind the message. Now each event's payload is
// decoded once on each path, for every read model that reads it.
func TestDecodage_UneSeuleFoisParEvenement(t *testing.T) {
	t.Run("livraison à deux Batchers, au fil de l'eau puis en rafale", func(t *testing.T) {
		f := newFixture(t)
		c := nouveauCompteur(t)
		avance := projection.NewAvance(f.store, c.Registry)
		var runners []*projection.Runner
		var scores []*[]int
		for _, nom := range []string{"premier", "second"} {
			s := new([]int)
			r := f.runner(t, lecteurLot{tally: newTally(nom), registre: c.Registry, scores: s})
			r.Avance = avance
			runners, scores = append(runners, r), append(scores, s)
		}
		livrerATous := func(i int) {
			events, err := f.store.ReadAll(context.Background(), 0, 100)
			require.NoError(t, err)
			previous := uint64(0)
			if i > 0 {
				previous = events[i-1].Position
			}
			msg, err := feed.NewMessage(events[i], previous)
			require.NoError(t, err)
			l, err := feed.Livrer(msg)
			require.NoError(t, err)
			var wg sync.WaitGroup
			for _, r := range runners {
				wg.Go(func() { assert.NoError(t, r.Recevoir(context.Background(), l)) })
			}
			wg.Wait()
		}
		var tous []string
		for i := range 3 {
			tous = append(tous, f.coups(t, i, 1)...)
			livrerATous(i)
		}
		tous = append(tous, f.coups(t, 3, 5)...)
		for i := 3; i < 8; i++ {
			livrerATous(i)
		}
		unParEvenement(t, c, tous)
		for _, s := range scores {
			assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, *s)
		}
	})
	t.Run("reconstruction d'un Batcher et d'un pli", func(t *testing.T) {
		f := newFixture(t)
		c := nouveauCompteur(t)
		tous := f.coups(t, 0, 2*projection.RebuildPage+3)
		d := &decodes{}
		pli := f.runner(t, lecteurDe{tally: newTally("pli"), d: d})
		scores := new([]int)
		lot := f.runner(t, lecteurLot{tally: newTally("lot"), registre: c.Registry, scores: scores})
		read, err := projection.RebuildAll(context.Background(), f.store, c.Registry, []*projection.Runner{pli, lot}, nil)
		require.NoError(t, err)
		require.Equal(t, len(tous), read)
		unParEvenement(t, c, tous)
		require.Len(t, *scores, len(tous))
		for i, s := range *scores {
			require.Equal(t, i, s)
		}
	})
}

// tranches is a Batcher that records, at each ApplyBatch, how many events
// it was handed and how many payloads had been decoded by then. With
// attendre, each ApplyBatch first waits (5 s at most) for the payloads of
// the next slice of a page, up to the last of the total events, to be
// decoded.
type tranches struct {
	tally
	c        *compteur
	tailles  *[][2]int
	attendre bool
	total    int
}

// decodes is how many payloads c decoded.
func (c *compteur) decodes() int {
	n := 0
	for _, fois := range c.decodages() {
		n += fois
	}
	return n
}

func (p tranches) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

func (p tranches) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	if p.attendre {
		remis := len(events)
		for _, t := range *p.tailles {
			remis += t[0]
		}
		cible := min(remis+projection.RebuildPage, p.total)
		for fin := time.Now().Add(5 * time.Second); p.c.decodes() < cible && time.Now().Before(fin); {
			time.Sleep(time.Millisecond)
		}
	}
	*p.tailles = append(*p.tailles, [2]int{len(events), p.c.decodes()})
	for _, d := range events {
		if !d.Known || d.Err != nil {
			return fmt.Errorf("position %d handed undecoded", d.Position)
		}
	}
	return nil
}

// A runner that decodes its Batcher's payloads (one made with its journal)
// holds a rebuild's page of them at most, whatever the batch: simulate
// archive folds 32,768 events a transaction, and decoding them all before
// the fold held every payload at once. The batch is handed over in slices
// of a page, each decoded as it comes, in one transaction.
func TestDecodage_UnGrandLotDecodeParTranchesDUnePage(t *testing.T) {
	f := newFixture(t)
	c := nouveauCompteur(t)
	n := 2*projection.RebuildPage + 5
	tous := f.coups(t, 0, n)
	var tailles [][2]int
	runners, err := projection.NewRunners(context.Background(), f.db, projection.Journal{Store: f.store, Registry: c.Registry},
		tranches{tally: newTally("tranches"), c: c, tailles: &tailles})
	require.NoError(t, err)
	events, err := f.store.ReadAll(context.Background(), 0, n)
	require.NoError(t, err)
	applied, err := runners[0].Apply(context.Background(), events)
	require.NoError(t, err)
	require.Equal(t, n, applied)
	page := projection.RebuildPage
	require.Len(t, tailles, 3)
	remis := 0
	for i, taille := range []int{page, page, 5} {
		remis += taille
		assert.Equal(t, taille, tailles[i][0], "slices of a page")
		assert.GreaterOrEqual(t, tailles[i][1], remis, "slice %d decoded before it is folded", i)
		assert.LessOrEqual(t, tailles[i][1], min(remis+page, n), "slice %d folded with the next one at most decoded", i)
	}
	unParEvenement(t, c, tous)
}

// Issue 34, item 1: a runner folding a large batch (simulate archive's
// pages of 32,768 events) decodes the next slice while it folds one,
// rather than after: the fold's goroutine, the archive's critical path,
// keeps to the fold. Before, the next slice was decoded only once the
// fold of the one before had returned.
func TestIssue34_TrancheSuivanteDecodeePendantLePli(t *testing.T) {
	f := newFixture(t)
	c := nouveauCompteur(t)
	page := projection.RebuildPage
	n := 2*page + 5
	tous := f.coups(t, 0, n)
	var tailles [][2]int
	runners, err := projection.NewRunners(context.Background(), f.db, projection.Journal{Store: f.store, Registry: c.Registry},
		tranches{tally: newTally("tranches"), c: c, tailles: &tailles, attendre: true, total: n})
	require.NoError(t, err)
	events, err := f.store.ReadAll(context.Background(), 0, n)
	require.NoError(t, err)
	applied, err := runners[0].Apply(context.Background(), events)
	require.NoError(t, err)
	require.Equal(t, n, applied)
	assert.Equal(t, [][2]int{{page, 2 * page}, {page, n}, {5, n}}, tailles,
		"at each slice's fold, the next one decoded meanwhile")
	unParEvenement(t, c, tous)
}
