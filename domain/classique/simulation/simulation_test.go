package simulation_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"testing"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/simulation"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulated is one simulated tournament: its summary, its whole event log
// and its final standings.
type simulated struct {
	bilan      simulation.Bilan
	log        []eventstore.Event
	classement []tournoiclassique.Ligne
}

// simuler plays cfg into a new SQLite store with a step clock, with
// GOMAXPROCS set to procs for the run.
func simuler(t *testing.T, procs int, cfg simulation.Config) simulated {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	ctx := context.Background()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	defer store.Close()
	cfg.Comportement = simulation.ComportementParDefaut()
	var s simulated
	s.bilan, err = simulation.Simuler(ctx, store, lex, cfg)
	require.NoError(t, err)
	s.log, err = store.ReadAll(ctx, 1, 1_000_000)
	require.NoError(t, err)
	reg, err := adapters.Registre()
	require.NoError(t, err)
	tournoi, err := adapters.NewTournois(store, reg).Charger(ctx, cfg.Tournoi)
	require.NoError(t, err)
	s.classement = tournoi.Classement()
	return s
}

// empreinte is the hash of what a log says: every event's stream, type and
// payload in global order (the ids derive from them).
func empreinte(log []eventstore.Event) string {
	h := sha256.New()
	for _, e := range log {
		fmt.Fprintf(h, "%d %s %s %s\n", e.Position, e.Stream, e.Type, e.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestSimulation_MemeTournoiQuelsQueLesCoeurs: a seed gives the same
// tournament whatever the scheduling — one robot on one core, or one robot
// per core on two — the same event log (ids, streams, positions, payloads,
// recording times) and the same standings.
func TestSimulation_MemeTournoiQuelsQueLesCoeurs(t *testing.T) {
	cfg := simulation.Config{Tournoi: "t", Joueurs: 41, Rondes: 4, Seed: 5}
	var runs []simulated
	for _, procs := range []int{1, 2} {
		c := cfg
		c.Workers = procs
		runs = append(runs, simuler(t, procs, c))
	}
	assert.Equal(t, 80, runs[0].bilan.Parties)
	assert.Equal(t, 4, runs[0].bilan.Exempts, "odd count: one bye per round")
	require.NotEmpty(t, runs[0].classement)
	assert.Equal(t, runs[0].classement, runs[1].classement)
	require.Equal(t, len(runs[0].log), len(runs[1].log))
	for i := range runs[0].log {
		a, b := runs[0].log[i], runs[1].log[i]
		assert.Equal(t, [6]any{a.ID, a.Stream, a.Type, string(a.Data), a.Position, a.Metadata.RecordedAt},
			[6]any{b.ID, b.Stream, b.Type, string(b.Data), b.Position, b.Metadata.RecordedAt})
	}
}

// TestSimulation_MemesPartiesQuAvant: the robots play exactly the games
// they played before their search was made cheaper. The fingerprint is
// that of the log written by the simulation of commit aff4976 for this
// seed (the speed-ups change how much is computed, never what is played),
// but for the results of issue 30: a game ended by contesting a valid last
// play counts the contester's 5 points (§7), which changes those games'
// results and the pairings after them; and for issue 31: each match records
// the shipped list's identity, whose label is now French (the same games:
// with the former libre.lex, the log's fingerprint was
// ab6eaf96df83417e84d07aa6d9e4ef717c2532527719e5c40a9d2687c87d5949).
func TestSimulation_MemesPartiesQuAvant(t *testing.T) {
	s := simuler(t, 2, simulation.Config{Tournoi: "golden", Joueurs: 24, Rondes: 4, Seed: 11, Workers: 2})
	assert.Equal(t, 48, s.bilan.Parties)
	assert.Equal(t, "6d5e6bf68386867bc382ada4c10d698b35495e910e576d9776837c135c61ac1a", empreinte(s.log))
}

// lots counts the appends a store receives: one batch per transaction.
type lots struct {
	eventstore.Store
	appends int
	batches [][]string
}

func (l *lots) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	l.appends++
	return l.Store.Append(ctx, stream, expected, events...)
}

func (l *lots) AppendBatch(ctx context.Context, ajouts []eventstore.BatchPart) ([]eventstore.AppendResult, error) {
	var streams []string
	for _, a := range ajouts {
		streams = append(streams, a.Stream)
	}
	l.batches = append(l.batches, streams)
	return l.Store.(eventstore.Batches).AppendBatch(ctx, ajouts)
}

// TestSimulation_MatchsEnregistresParLots: a round's matches reach the
// store in batches of consecutive tables, one transaction each, instead of
// one transaction per match; only the tournament's saves are single
// appends.
func TestSimulation_MatchsEnregistresParLots(t *testing.T) {
	ctx := context.Background()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	inner, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	defer inner.Close()
	store := &lots{Store: inner}
	_, err = simulation.Simuler(ctx, store, lex, simulation.Config{Tournoi: "t", Joueurs: 40, Rondes: 2, Seed: 3, Workers: 2, Lot: 8,
		Comportement: simulation.ComportementParDefaut()})
	require.NoError(t, err)
	assert.Equal(t, 3, store.appends, "the tournament: rounds 1 and 2 published, then closed")
	var tailles []int
	for _, b := range store.batches {
		tailles = append(tailles, len(b))
	}
	assert.Equal(t, []int{8, 8, 4, 8, 8, 4}, tailles, "20 tables a round in batches of 8")
	assert.Equal(t, []string{"match-t-r1-t1", "match-t-r1-t2"}, store.batches[0][:2], "in table order")
}
