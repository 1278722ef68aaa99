package idempotency_test

import (
	"context"
	"fmt"
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// BenchmarkIssue34_ClesDeCentArbitres checks the keys of commands sent by
// a hundred arbiters at once (b.SetParallelism) against a store of 2,000
// events, each check catching the index up with the log (issue 34).
func BenchmarkIssue34_ClesDeCentArbitres(b *testing.B) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, b.TempDir(), sqlitestore.Options{})
	require.NoError(b, err)
	defer store.Close()
	events := make([]eventstore.EventData, 2000)
	for i := range events {
		events[i] = eventstore.EventData{ID: uuid.New(), Type: "duplicate.bulletin_depose", Version: 1, Data: []byte(`{}`),
			Metadata: eventstore.Metadata{Actor: fmt.Sprint("jeton:", i%100), CausationID: fmt.Sprint("m-", i), Request: "deposer"}}
	}
	_, err = store.Append(ctx, "partie-1", eventstore.Any, events...)
	require.NoError(b, err)
	cles := idempotency.NewKeys(store)
	require.NoError(b, cles.CatchUp(ctx))
	c := idempotency.Command{ID: "m-neuf", Author: "jeton:1", Request: "deposer"}
	b.SetParallelism(50)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := cles.Check(ctx, c); err != nil {
				b.Error(err)
			}
		}
	})
}
