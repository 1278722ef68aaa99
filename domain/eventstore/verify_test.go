package eventstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logReader serves a fixed global log.
type logReader []eventstore.Event

func (l logReader) ReadStream(context.Context, string, uint64, int) ([]eventstore.Event, error) {
	return nil, nil
}

// ReadAll and ReadAllAfter refuse a position the log does not hold, as
// EventStoreDB cannot start a read between two events: a caller that
// computes a position instead of passing one back fails.
func (l logReader) ReadAll(_ context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	return l.read(from, limit, func(p uint64) bool { return p >= from })
}

func (l logReader) ReadAllAfter(_ context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	return l.read(after, limit, func(p uint64) bool { return p > after })
}

func (l logReader) read(given uint64, limit int, keep func(uint64) bool) ([]eventstore.Event, error) {
	if given != 0 && !slices.ContainsFunc(l, func(e eventstore.Event) bool { return e.Position == given }) {
		return nil, eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("position %d is not in the log", given), nil)
	}
	var out []eventstore.Event
	for _, e := range l {
		if keep(e.Position) && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

func ev(pos uint64, stream string, rev uint64, typ string, version int, data string) eventstore.Event {
	return eventstore.Event{Position: pos, Stream: stream, Revision: rev, Type: typ, Version: version, Data: json.RawMessage(data)}
}

func TestVerifyReportsEachKindOfDamage(t *testing.T) {
	reg := newTestRegistry(t)
	ok := `{"tirage":["A"]}`
	cases := []struct {
		name     string
		log      logReader
		gapless  bool
		registry *eventstore.Registry
		problems []string
	}{
		{"HealthyLog", logReader{ev(1, "partie-1", 0, "partie.tirage", 3, ok), ev(2, "partie-1", 1, "partie.tirage", 1, `{"lettres":"B"}`)}, true, reg, nil},
		{"PositionGap", logReader{ev(1, "partie-1", 0, "partie.tirage", 3, ok), ev(3, "partie-1", 1, "partie.tirage", 3, ok)}, true, nil,
			[]string{"position 3 (partie-1@1): eventstore.corrupt_store: trou dans les positions globales : attendue 2"}},
		{"PositionGapAllowedForESDB", logReader{ev(10, "partie-1", 0, "partie.tirage", 3, ok), ev(30, "partie-1", 1, "partie.tirage", 3, ok)}, false, nil, nil},
		{"RevisionGap", logReader{ev(1, "partie-1", 0, "partie.tirage", 3, ok), ev(2, "partie-1", 2, "partie.tirage", 3, ok)}, true, nil,
			[]string{"position 2 (partie-1@2): eventstore.corrupt_store: trou dans les révisions du flux : attendue la révision 1"}},
		{"PayloadNotJSON", logReader{ev(1, "partie-1", 0, "partie.tirage", 3, `{"tir`)}, true, nil,
			[]string{"position 1 (partie-1@0): eventstore.malformed_payload: le contenu de partie.tirage v3 n'est pas du JSON valide"}},
		{"UnknownType", logReader{ev(1, "partie-1", 0, "partie.mystere", 1, `{}`)}, true, reg,
			[]string{`position 1 (partie-1@0): eventstore.unknown_event_type: eventstore.unknown_event_type: event type "partie.mystere" is not registered`}},
		{"ForeignEvent", logReader{ev(1, "tournoi-classique-X", 0, "classique.tournoi.ouvert", 1, `{}`), ev(2, "tournoi-classique-X", 1, "tournoi.cree", 1, `{}`),
			ev(3, "tournoi-X", 0, "tournoi.cree", 1, `{}`), ev(4, "match-m", 0, "partie.creee", 1, `{}`), ev(5, "partie-1", 0, "test.coup", 1, `{}`)}, true, nil,
			[]string{"position 2 (tournoi-classique-X@1): eventstore.foreign_event: le type tournoi.cree appartient à un autre genre d'agrégat que le flux tournoi-classique-X",
				"position 4 (match-m@0): eventstore.foreign_event: le type partie.creee appartient à un autre genre d'agrégat que le flux match-m"}},
		{"FutureVersion", logReader{ev(1, "partie-1", 0, "partie.tirage", 7, `{}`)}, true, reg,
			[]string{`position 1 (partie-1@0): eventstore.future_schema_version: eventstore.future_schema_version: event type "partie.tirage" has schema version 7, this build reads up to 3`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			report, err := integrity.Verify(context.Background(), tc.log, integrity.VerifyOptions{GaplessPositions: tc.gapless, Registry: tc.registry})
			require.NoError(t, err)
			var got []string
			for _, p := range report.Problems {
				got = append(got, p.String())
			}
			assert.Equal(t, tc.problems, got)
			assert.Equal(t, len(tc.problems) == 0, report.OK())
			assert.Equal(t, len(tc.log), report.Events)
		})
	}
}

// Issue 16, item 1: an altered event is named at its position wherever it
// falls in the pages Verify reads and checks, on either side of a page's
// border, and only it (the chain goes on from the hash stored with it).
func TestVerify_ChaineAuxBornesDesPages(t *testing.T) {
	reg := newTestRegistry(t)
	n := 3*eventstore.PageSize + 17
	log := make(logReader, n)
	var previous []byte
	for i := range log {
		e := ev(uint64(i+1), fmt.Sprintf("partie-%d", i%7), uint64(i/7), "partie.tirage", 3, `{"tirage":["A"]}`)
		e.Hash = integrity.ChainHash(previous, e)
		previous, log[i] = e.Hash, e
	}
	alteres := []uint64{1, eventstore.PageSize, eventstore.PageSize + 1, 2*eventstore.PageSize + 1, uint64(n)}
	var want []string
	for _, p := range alteres {
		log[p-1].Data = json.RawMessage(`{"tirage":["Z"]}`)
		e := log[p-1]
		want = append(want, fmt.Sprintf("position %d (%s@%d): eventstore.tampered: l'événement ne correspond pas à son empreinte : il a été modifié, ou un événement a été inséré, retiré ou déplacé juste avant lui", p, e.Stream, e.Revision))
	}
	var vus []int
	report, err := integrity.Verify(context.Background(), log, integrity.VerifyOptions{GaplessPositions: true, Chained: true, Registry: reg,
		Progress: func(events int, _ uint64) { vus = append(vus, events) }})
	require.NoError(t, err)
	var got []string
	for _, p := range report.Problems {
		got = append(got, p.String())
	}
	assert.Equal(t, want, got)
	assert.Equal(t, n, report.Events)
	assert.Equal(t, uint64(n), report.LastPosition)
	assert.Equal(t, 7, report.Streams)
	assert.Equal(t, []int{eventstore.PageSize, 2 * eventstore.PageSize, 3 * eventstore.PageSize, n}, vus, "progress after each page, in order")
}

// annulant is a log whose reader cancels the pass once it has served
// pages pages.
type annulant struct {
	logReader
	pages  int
	cancel context.CancelFunc
}

func (a *annulant) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	if a.pages == 0 {
		a.cancel()
		return nil, ctx.Err()
	}
	a.pages--
	return a.logReader.ReadAllAfter(ctx, after, limit)
}

// Verify stops as it should while its pages are being checked: at the
// thousandth problem (the report then holds them, and no error), and when
// its context is cancelled (the error says so).
func TestVerify_ArretEnCoursDeLecture(t *testing.T) {
	n := 5*eventstore.PageSize + 3
	log := make(logReader, n)
	for i := range log {
		log[i] = ev(uint64(i+1), "partie-1", uint64(i), "partie.tirage", 3, `{"tir`)
	}
	report, err := integrity.Verify(context.Background(), log, integrity.VerifyOptions{GaplessPositions: true})
	require.NoError(t, err)
	assert.Len(t, report.Problems, 1000)
	assert.Equal(t, 1000, report.Events)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range log {
		log[i].Data = json.RawMessage(`{}`)
	}
	report, err = integrity.Verify(ctx, &annulant{logReader: log, pages: 2, cancel: cancel}, integrity.VerifyOptions{GaplessPositions: true})
	require.ErrorIs(t, err, context.Canceled)
	assert.LessOrEqual(t, report.Events, 2*eventstore.PageSize)
	assert.Empty(t, report.Problems)
}
