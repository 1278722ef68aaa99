package repository

import (
	"context"

	"arbitre/domain/eventstore"
)

// SaveBatch saves the new events of several aggregates, each in its
// own stream (streams[i] for aggs[i]) as Save does, in one batch
// (AppendBatch); once the batch is stored each aggregate is told so. On an
// error the events stay new (on a store without Batches, those of the
// aggregates stored before the failing one are stored all the same).
func (d Repository[A]) SaveBatch(ctx context.Context, streams []string, aggs []A, md eventstore.Metadata) error {
	ajouts := make([]eventstore.BatchPart, 0, len(aggs))
	saved := make([]A, 0, len(aggs))
	for i, a := range aggs {
		nouveaux := a.Pending()
		if len(nouveaux) == 0 {
			continue
		}
		data, expected, err := d.Streams.donnees(ctx, streams[i], a.Version()-len(nouveaux), nouveaux, md)
		if err != nil {
			return err
		}
		ajouts = append(ajouts, eventstore.BatchPart{Stream: streams[i], Expected: expected, Events: data})
		saved = append(saved, a)
	}
	if len(ajouts) == 0 {
		return nil
	}
	res, err := eventstore.AppendBatch(ctx, d.Streams.Store, ajouts)
	for _, a := range saved[:len(res)] {
		a.MarkSaved()
	}
	return err
}
