package projection

import (
	"arbitre/domain/eventstore"
	"arbitre/projections/feed"

	"github.com/ThreeDotsLabs/watermill/message"
)

// HandleMessage is the runner's watermill handler. A message at or before
// the checkpoint is a duplicate and is acknowledged; a message whose
// previous position is after the checkpoint reveals lost messages, so the
// runner catches up from the store (which includes this event); otherwise
// the event is applied. An error nacks the message for redelivery. A
// parked projection acknowledges every message without applying it.
func (r *Runner) HandleMessage(msg *message.Message) error {
	if r.Arret() != nil {
		return nil
	}
	ctx := msg.Context()
	e, previous, err := feed.Decode(msg)
	if err != nil {
		return err
	}
	checkpoint, err := r.Checkpoint(ctx)
	if err != nil {
		return err
	}
	switch {
	case e.Position <= checkpoint:
		return nil
	case previous > checkpoint:
		_, err = r.CatchUp(ctx, nil)
	default:
		_, err = r.Apply(ctx, []eventstore.Event{e})
	}
	return err
}
