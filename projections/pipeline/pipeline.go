// Package pipeline runs projections live: the store's global log is
// published by a feed to a watermill topic and each projection runner is a
// watermill handler on that topic.
package pipeline

import (
	"context"
	"errors"
	"fmt"

	"arbitre/domain/eventstore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// Config chooses the transport. The zero value uses an in-process gochannel
// that blocks each publish until every runner has acknowledged it, which
// keeps the global order.
type Config struct {
	Publisher  message.Publisher
	Subscriber message.Subscriber
	Topic      string
	Logger     watermill.LoggerAdapter
}

// Run catches every runner up from the store, then publishes the log from
// the lowest checkpoint and lets the runners follow it live. It blocks until
// ctx is done (returning nil) or something fails. ready, when not nil, is
// closed once the runners are caught up and the feed is about to start.
func Run(ctx context.Context, store eventstore.Store, runners []*projection.Runner, cfg Config, ready chan<- struct{}) error {
	if cfg.Logger == nil {
		cfg.Logger = watermill.NopLogger{}
	}
	if cfg.Topic == "" {
		cfg.Topic = feed.Topic
	}
	if cfg.Publisher == nil || cfg.Subscriber == nil {
		pubsub := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, cfg.Logger)
		defer pubsub.Close()
		cfg.Publisher, cfg.Subscriber = pubsub, pubsub
	}
	router, err := message.NewRouter(message.RouterConfig{}, cfg.Logger)
	if err != nil {
		return fmt.Errorf("creating watermill router: %w", err)
	}
	for _, r := range runners {
		router.AddConsumerHandler(r.Name(), cfg.Topic, cfg.Subscriber, r.HandleMessage)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	routerDone := make(chan error, 1)
	go func() { routerDone <- router.Run(ctx) }()
	select {
	case <-router.Running():
	case err := <-routerDone:
		return fmt.Errorf("watermill router stopped before running: %w", err)
	}

	from, err := catchUp(ctx, runners)
	if err == nil {
		if ready != nil {
			close(ready)
		}
		err = feed.Run(ctx, store, cfg.Publisher, cfg.Topic, from)
	}
	cancel()
	routerErr := <-routerDone
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return errors.Join(err, routerErr)
}

// catchUp applies the stored log to every runner and returns the lowest
// checkpoint, where the feed starts.
func catchUp(ctx context.Context, runners []*projection.Runner) (uint64, error) {
	var lowest uint64
	for i, r := range runners {
		if _, err := r.CatchUp(ctx, nil); err != nil {
			return 0, err
		}
		cp, err := r.Checkpoint(ctx)
		if err != nil {
			return 0, err
		}
		if i == 0 || cp < lowest {
			lowest = cp
		}
	}
	return lowest, nil
}
