package eventstore

import "context"

// BatchPart is one stream's part of a batch: the events to append at the end of
// Stream if it satisfies Expected.
type BatchPart struct {
	Stream   string
	Expected ExpectedRevision
	Events   []EventData
}

// Batches is a store that appends to several streams in one transaction: the
// SQLite store. A batch is written all or nothing and in the order given:
// one conflict (a *ConflictError naming its stream), one invalid part or
// one failure writes nothing. It costs one commit instead of one per
// stream, which is what a simulation saving a round's matches needs
// (docs/charge.md).
type Batches interface {
	// AppendBatch appends every part of the batch in one transaction and
	// returns each part's result, in the batch's order.
	AppendBatch(ctx context.Context, ajouts []BatchPart) ([]AppendResult, error)
}

// AppendBatch appends the batch in one transaction on a store that can
// (Batches), one part after the other on any other (EventStoreDB has no
// transaction over several streams): there a failure leaves the parts
// before it written.
func AppendBatch(ctx context.Context, store Store, ajouts []BatchPart) ([]AppendResult, error) {
	if l, ok := store.(Batches); ok {
		return l.AppendBatch(ctx, ajouts)
	}
	res := make([]AppendResult, len(ajouts))
	for i, a := range ajouts {
		var err error
		if res[i], err = store.Append(ctx, a.Stream, a.Expected, a.Events...); err != nil {
			return res[:i], err
		}
	}
	return res, nil
}
