// Package projections groups the read side of Arbitre: the events of the
// store's global log are delivered to every read model through watermill
// (docs/architecture.md, « The read side »).
//
//   - feed publishes the global log to a watermill topic, one message per
//     event, from a checkpoint (history, then live): the only subscription
//     to the store.
//   - projection is the framework: a Runner applies events to one read
//     model, in SQLite (its checkpoint stored in the same transaction as
//     its state) or in memory (EnMemoire: rebuilt from the head at every
//     start-up), skips what it has already applied, fills gaps from the
//     store, and rebuilds from position zero with a byte-identical result.
//   - pipeline wires a store, a watermill Pub/Sub (in-process gochannel by
//     default) and the runners together, each runner a router handler
//     behind watermill's Recoverer and Retry middlewares, parked when it
//     still fails.
//   - readmodels lists the read models in SQLite; the others are each
//     beside the code that reads them.
//
// # Another transport or a second node
//
// The store is the source of truth and messages are only a delivery
// mechanism: every message carries the event and the position of the event
// before it in the global log. A runner applies a message only if it follows
// its checkpoint; a duplicate (position at or before the checkpoint) is
// acknowledged and ignored, and a gap (previous position after the
// checkpoint) makes the runner read the missing events from the store first.
// So any at-least-once watermill transport works: pass its Publisher and
// Subscriber in pipeline.Config instead of the gochannel default (for
// instance watermill-sql on a shared database, NATS JetStream or Kafka with
// one partition for the topic, which keeps order).
//
// A second node runs the same pipeline against the same EventStoreDB cluster
// (esdbstore) with its own projection database: each node's runners keep
// their own checkpoints, so nodes never coordinate. To share one feed
// between nodes instead, run the feed on one node only, publishing to a
// networked transport, and subscribe the runners of every node to it; a node
// that starts late catches up from the store before taking live messages.
package projections
