// Package pipeline runs the read models live: the store's global log is
// published by a feed to a watermill topic and each read model's runner,
// in SQLite or in memory, is a watermill handler on that topic.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/projections/feed"
	"arbitre/projections/projection"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
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
	// Retry bounds how a projection that fails is retried before it is
	// parked (projection.Runner.Garer); DefaultRetry when zero.
	Retry Retry
	// Reprise paces the tries of a parked projection to resume
	// (projection.Runner.Reprendre); DefaultReprise when zero.
	Reprise Reprise
}

// Retry is a bounded exponential backoff: Attempts tries in all, waiting
// First after the first failure and doubling each time.
type Retry struct {
	Attempts int
	First    time.Duration
}

// DefaultRetry gives a failing projection five tries over about a second
// and a half: enough for a busy database, not for an event it cannot apply.
var DefaultRetry = Retry{Attempts: 5, First: 100 * time.Millisecond}

// middleware is watermill's retry middleware for p: Attempts tries in
// all, waiting First then twice as long each time, none once the message's
// context is done.
func (p Retry) middleware() middleware.Retry {
	return middleware.Retry{MaxRetries: p.Attempts - 1, InitialInterval: p.First, Multiplier: 2,
		MaxInterval: p.First << max(p.Attempts-1, 0)}
}

// Reprise is how a parked projection is tried again until it resumes:
// First after it was parked, then twice as long after each failure, at
// most Max (the fault that parked it, a full disk say, may last hours).
type Reprise struct {
	First, Max time.Duration
}

// DefaultReprise tries a parked projection again after a second, then
// at most every minute.
var DefaultReprise = Reprise{First: time.Second, Max: time.Minute}

// run tries r again until it resumes or ctx is done, and logs each try.
func (p Reprise) run(ctx context.Context, r *projection.Runner) {
	wait := p.First
	for essai := 1; ; essai++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		n, err := r.Reprendre(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			r.Log.Info("projection reprise : elle a rattrapé le journal depuis son point de reprise", "projection", r.Name(), "position", r.Position(), "appliques", n, "essai", essai)
			return
		}
		wait = min(2*wait, p.Max)
		r.Log.Warn("projection toujours arrêtée : nouvel essai plus tard", "projection", r.Name(), "essai", essai, "prochain_essai_dans", wait.String(), "erreur", err.Error())
	}
}

// Run catches every runner up from the store, then publishes the log from
// the lowest position they reached and lets the runners follow it live. It
// blocks until ctx is done (returning nil) or something fails; each runner
// then writes the checkpoint it reached passing events its projection does
// not read (projection.Runner.Consigner). ready, when not nil, is
// closed once the runners are caught up and the feed is about to start.
//
// A runner's work, its catch-up at start-up as each live message, goes
// through watermill's middlewares: Recoverer turns a panic into an error,
// Retry tries again with a bounded backoff, and a runner that still fails
// is parked (projection.Runner.Garer), then tried again in the background
// (Reprise) until it resumes. Watermill's poison queue is not used: a read
// model folds the log in order and must not skip an event.
func Run(ctx context.Context, store eventstore.Store, runners []*projection.Runner, cfg Config, ready chan<- struct{}) error {
	if cfg.Logger == nil {
		cfg.Logger = watermill.NopLogger{}
	}
	if cfg.Topic == "" {
		cfg.Topic = feed.Topic
	}
	if cfg.Retry == (Retry{}) {
		cfg.Retry = DefaultRetry
	}
	if cfg.Reprise == (Reprise{}) {
		cfg.Reprise = DefaultReprise
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
	var reprises, fils sync.WaitGroup
	defer reprises.Wait()
	defer fils.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// suivi runs h for r through the middlewares and parks r when it still
	// fails; a runner that was running is then tried again in the
	// background until it resumes or the pipeline stops.
	retry := cfg.Retry.middleware()
	suivi := func(r *projection.Runner, h func(*message.Message) error) message.NoPublishHandlerFunc {
		handler := retry.Middleware(middleware.Recoverer(func(msg *message.Message) ([]*message.Message, error) {
			return nil, h(msg)
		}))
		return func(msg *message.Message) error {
			if _, err := handler(msg); err != nil && msg.Context().Err() == nil && r.Garer(err) {
				reprises.Go(func() { cfg.Reprise.run(ctx, r) })
			}
			return msg.Context().Err()
		}
	}
	router.AddConsumerHandler("lectures", cfg.Topic, cfg.Subscriber, livrer(ctx, &fils, runners, suivi))
	routerDone := make(chan error, 1)
	go func() { routerDone <- router.Run(ctx) }()
	select {
	case <-router.Running():
	case err := <-routerDone:
		return fmt.Errorf("watermill router stopped before running: %w", err)
	}

	from, err := catchUp(ctx, store, runners, suivi)
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
	// A clean stop: once nothing applies the log any more, each runner
	// writes the checkpoint it reached passing the events its projection
	// does not read (projection.Runner.Consigner).
	fils.Wait()
	reprises.Wait()
	for _, r := range runners {
		err = errors.Join(err, r.Consigner(context.WithoutCancel(ctx)))
	}
	return errors.Join(err, routerErr)
}

// livraison is one message for one runner's goroutine (livrer): the
// runner is done with it when fait is.
type livraison struct {
	msg  *message.Message
	l    *feed.Livraison
	err  error
	fait *sync.WaitGroup
}

// livrer is the pipeline's one watermill handler: it reads each message's
// positions once and hands it to every runner at once, each through suivi
// (its retries, its parking), the event decoded by the first runner behind
// it for all of them (feed.Livraison); the message is acknowledged once
// every runner is done with it. Each runner handles the messages on one
// goroutine of its own (fils), started here and ended when ctx is done,
// rather than one per message (issue 34: their stacks grew through
// SQLite's deep frames again at every message).
func livrer(ctx context.Context, fils *sync.WaitGroup, runners []*projection.Runner, suivi func(*projection.Runner, func(*message.Message) error) message.NoPublishHandlerFunc) message.NoPublishHandlerFunc {
	entrees := make([]chan livraison, len(runners))
	for i, r := range runners {
		entrees[i] = make(chan livraison)
		fils.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case d := <-entrees[i]:
					_ = suivi(r, func(msg *message.Message) error {
						if d.err != nil {
							return d.err
						}
						return r.Recevoir(msg.Context(), d.l)
					})(d.msg)
					d.fait.Done()
				}
			}
		})
	}
	return func(msg *message.Message) error {
		l, err := feed.Livrer(msg)
		var fait sync.WaitGroup
		for _, entree := range entrees {
			fait.Add(1)
			select {
			case entree <- livraison{msg: msg, l: l, err: err, fait: &fait}:
			case <-ctx.Done():
				fait.Done()
			}
		}
		fait.Wait()
		return msg.Context().Err()
	}
}

// catchUp applies the stored log to every runner through suivi (which
// parks those that still fail after the retries), and returns the lowest
// position of the others, where the feed starts (the highest checkpoint
// when all are parked). The read models in memory, rebuilt at every
// start-up, first read the log together, in one pass
// (projection.RebuildAll); one that fails there stops before the event and
// meets it again in its own catch-up.
func catchUp(ctx context.Context, store eventstore.Reader, runners []*projection.Runner, suivi func(*projection.Runner, func(*message.Message) error) message.NoPublishHandlerFunc) (uint64, error) {
	enMemoire := slices.DeleteFunc(slices.Clone(runners), func(r *projection.Runner) bool { return !r.EnMemoire() || r.Position() > 0 })
	if len(enMemoire) > 1 {
		_, _ = projection.RebuildAll(ctx, store, nil, enMemoire, nil)
	}
	var lowest, highest uint64
	running := 0
	for _, r := range runners {
		start := message.NewMessage(watermill.NewUUID(), nil)
		start.SetContext(ctx)
		_ = suivi(r, func(msg *message.Message) error {
			_, err := r.CatchUp(msg.Context(), nil)
			return err
		})(start)
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		// How far the runner has applied the log, its checkpoint or the
		// one it reached past it (projection.Runner.Position).
		cp := r.Position()
		highest = max(highest, cp)
		if r.Arret() == nil {
			if running == 0 || cp < lowest {
				lowest = cp
			}
			running++
		}
	}
	if running == 0 {
		return highest, nil
	}
	return lowest, nil
}
