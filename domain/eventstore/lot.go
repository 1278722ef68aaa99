package eventstore

import "context"

// Ajout is one stream's part of a batch: the events to append at the end of
// Stream if it satisfies Expected.
type Ajout struct {
	Stream   string
	Expected ExpectedRevision
	Events   []EventData
}

// Lots is a store that appends to several streams in one transaction: the
// SQLite store. A batch is written all or nothing and in the order given:
// one conflict (a *ConflictError naming its stream), one invalid part or
// one failure writes nothing. It costs one commit instead of one per
// stream, which is what a simulation saving a round's matches needs
// (docs/charge.md).
type Lots interface {
	// AppendLot appends every part of the batch in one transaction and
	// returns each part's result, in the batch's order.
	AppendLot(ctx context.Context, ajouts []Ajout) ([]AppendResult, error)
}

// AppendLot appends the batch in one transaction on a store that can
// (Lots), one part after the other on any other (EventStoreDB has no
// transaction over several streams): there a failure leaves the parts
// before it written.
func AppendLot(ctx context.Context, store Store, ajouts []Ajout) ([]AppendResult, error) {
	if l, ok := store.(Lots); ok {
		return l.AppendLot(ctx, ajouts)
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

// EnregistrerLot saves the new events of several aggregates, each in its
// own stream (streams[i] for aggs[i]) as Enregistrer does, in one batch
// (AppendLot); once the batch is stored each aggregate is told so. On an
// error the events stay new (on a store without Lots, those of the
// aggregates stored before the failing one are stored all the same).
func (d Depot[A]) EnregistrerLot(ctx context.Context, streams []string, aggs []A, md Metadata) error {
	ajouts := make([]Ajout, 0, len(aggs))
	saved := make([]A, 0, len(aggs))
	for i, a := range aggs {
		nouveaux := a.Nouveaux()
		if len(nouveaux) == 0 {
			continue
		}
		data, expected, err := d.Flux.donnees(ctx, streams[i], a.Version()-len(nouveaux), nouveaux, md)
		if err != nil {
			return err
		}
		ajouts = append(ajouts, Ajout{Stream: streams[i], Expected: expected, Events: data})
		saved = append(saved, a)
	}
	if len(ajouts) == 0 {
		return nil
	}
	res, err := AppendLot(ctx, d.Flux.Store, ajouts)
	for _, a := range saved[:len(res)] {
		a.Sauves()
	}
	return err
}
