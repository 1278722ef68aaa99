package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/graphql/server"
)

// lecturesDuJournal is the store, counting the reads of the whole log.
type lecturesDuJournal struct {
	*sqlitestore.Store
	n atomic.Int64
}

func (s *lecturesDuJournal) ReadAll(ctx context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	s.n.Add(1)
	return s.Store.ReadAll(ctx, from, limit)
}

func (s *lecturesDuJournal) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	s.n.Add(1)
	return s.Store.ReadAllAfter(ctx, after, limit)
}

// Issue 34 item 3 (« clés d'idempotence ») : a command with a
// clientMutationId no longer reads the log to learn whether its key served
// another request — each bulletin of the hall read it once (0.04–0.12 s of
// the server per phase of 2,000 bulletins). The store keeps the keys in
// memory and binds each to its request in the append's own transaction,
// and the rules hold: a retry is done, the same key for another bulletin
// (on another table's stream) is refused, another arbiter's same key is
// his.
func TestIssue34_CleIdempotenceSansLectureDuJournal(t *testing.T) {
	const joueurs = 8
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbitre := apiToken(t, data, "--role", "arbiter", "--tables", fmt.Sprintf("1-%d", joueurs), "--tournoi", "T1")
	autre := apiToken(t, data, "--role", "arbiter", "--tables", fmt.Sprintf("1-%d", joueurs), "--tournoi", "T1")
	journal := &lecturesDuJournal{}
	s := startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), func(c *server.Config) {
		c.Limits = server.DefaultLimits
		c.Limits.Rate = 0
		journal.Store = c.Resolver.Journal.(*sqlitestore.Store)
		c.Resolver.Cles = idempotency.NewKeys(journal)
	})
	defer s.stop()
	inscrireJoueursT1(t, s, director, joueurs)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	deposer := `mutation($l: ID!, $id: String!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}, clientMutationId:$id) { licence } }`

	journal.n.Store(0)
	for i := 1; i < joueurs; i++ {
		require.Empty(t, s.gql(arbitre, deposer, map[string]any{"l": fmt.Sprintf("L%d", i), "id": fmt.Sprintf("b-%d", i)}).Errors)
	}
	assert.Zero(t, journal.n.Load(), "reads of the log for %d bulletins with a clientMutationId", joueurs-1)

	cases := []struct {
		name, jeton, licence, id, code string
	}{
		{"a retry", arbitre, "L1", "b-1", ""},
		{"the key of L1's bulletin for L8's", arbitre, "L8", "b-1", "IDEMPOTENCY_KEY_REUSED"},
		{"another arbiter's same key", autre, "L8", "b-1", ""},
		{"the other arbiter's retry", autre, "L8", "b-1", ""},
		{"his key for another bulletin", autre, "L2", "b-1", "IDEMPOTENCY_KEY_REUSED"},
	}
	for _, c := range cases {
		assert.Equal(t, c.code, s.gql(c.jeton, deposer, map[string]any{"l": c.licence, "id": c.id}).code(), c.name)
	}
	var bulletins []struct{ Licence string }
	s.gql(director, `query { bulletins(partie:"T1-1", coup:1) { licence } }`, nil).into(t, "bulletins", &bulletins)
	assert.Len(t, bulletins, joueurs, "each bulletin once, none under a reused key")
}
