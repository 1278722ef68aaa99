// Package feed publishes the store's global log to watermill: one message
// per event, in global order, from a checkpoint (history, then live).
package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"arbitre/domain/eventstore"

	"github.com/ThreeDotsLabs/watermill/message"
)

// Topic is the default topic of the global log.
const Topic = "arbitre.events"

// Message metadata keys.
const (
	MetaPosition         = "position"
	MetaPreviousPosition = "previous_position"
	MetaStream           = "stream"
	MetaType             = "type"
)

// Run subscribes to the store after checkpoint and publishes every event to
// topic. It blocks until ctx is done, the store fails or publishing fails.
func Run(ctx context.Context, store eventstore.Store, publisher message.Publisher, topic string, checkpoint uint64) error {
	previous := checkpoint
	return store.Subscribe(ctx, checkpoint, func(ctx context.Context, e eventstore.Event) error {
		msg, err := NewMessage(e, previous)
		if err != nil {
			return err
		}
		if err := publisher.Publish(topic, msg); err != nil {
			return fmt.Errorf("publishing position %d to %s: %w", e.Position, topic, err)
		}
		previous = e.Position
		return nil
	})
}

// NewMessage wraps an event; previous is the position of the event before
// it in the global log (the checkpoint for the first one), which lets
// consumers detect gaps.
func NewMessage(e eventstore.Event, previous uint64) (*message.Message, error) {
	payload, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encoding event at position %d: %w", e.Position, err)
	}
	msg := message.NewMessage(e.ID.String(), payload)
	msg.Metadata.Set(MetaPosition, strconv.FormatUint(e.Position, 10))
	msg.Metadata.Set(MetaPreviousPosition, strconv.FormatUint(previous, 10))
	msg.Metadata.Set(MetaStream, e.Stream)
	msg.Metadata.Set(MetaType, e.Type)
	return msg, nil
}

// Positions returns the global position of a message's event and the
// position before it, from its metadata: a consumer that already holds the
// event (a read model past it) acknowledges the message without decoding
// it (issue 34).
func Positions(msg *message.Message) (position, previous uint64, err error) {
	if position, err = strconv.ParseUint(msg.Metadata.Get(MetaPosition), 10, 64); err != nil {
		return 0, 0, eventstore.NewError(eventstore.CodeMalformedPayload, "message "+msg.UUID+" has no position", err)
	}
	if previous, err = strconv.ParseUint(msg.Metadata.Get(MetaPreviousPosition), 10, 64); err != nil {
		return 0, 0, eventstore.NewError(eventstore.CodeMalformedPayload, "message "+msg.UUID+" has no previous position", err)
	}
	return position, previous, nil
}

// Livraison is a message as the pipeline hands it to every read model: its
// positions, read from its metadata, and its event, decoded at most once,
// when a read model first asks for it (issue 34: each read model behind
// the message decoded it again; one already past it decodes nothing).
// Every read model that asks gets the same event, shared and read only, as
// every page of the log read ahead for them all; its payload is decoded
// once for all of them too (projection.Avance).
type Livraison struct {
	Position, Previous uint64
	msg                *message.Message
	once               sync.Once
	event              eventstore.Event
	err                error
}

// Livrer reads a message's positions; its event is decoded by Event.
func Livrer(msg *message.Message) (*Livraison, error) {
	position, previous, err := Positions(msg)
	if err != nil {
		return nil, err
	}
	return &Livraison{Position: position, Previous: previous, msg: msg}, nil
}

// Event is the message's event, decoded by the first caller for all of
// them, who share it, read only. An event that is not at the position its
// message's metadata gives is refused.
func (l *Livraison) Event() (*eventstore.Event, error) {
	l.once.Do(func() { l.event, l.err = l.decoder() })
	return &l.event, l.err
}

func (l *Livraison) decoder() (eventstore.Event, error) {
	var e eventstore.Event
	if err := json.Unmarshal(l.msg.Payload, &e); err != nil {
		return e, eventstore.NewError(eventstore.CodeMalformedPayload, "message "+l.msg.UUID+" does not hold an event", err)
	}
	if e.Position != l.Position {
		return e, eventstore.NewError(eventstore.CodeMalformedPayload, fmt.Sprintf("message %s holds the event at position %d, not %d", l.msg.UUID, e.Position, l.Position), nil)
	}
	return e, nil
}
