// Package eventstore is the event store contract of Arbitre: the one interface
// the domain appends to and reads from, the recorded event types, typed errors
// with stable codes, the event type registry (explicit versioned names and
// upcasters), what a store may do besides (Sections, Batches, Ranges) and an
// injected clock.
//
// Two backends implement Store: sqlitestore (embedded, the default) and
// esdbstore (EventStoreDB / KurrentDB for clusters). eventstoretest holds the
// conformance suite that both must pass. Beside the contract, one package a
// job: repository (loading and saving aggregates), idempotency (a command
// applied once), integrity (hash chain, seals, verify), streamname (the
// streams' names), parallel and intern (the log's readers' tools),
// sqlitefile (the private SQLite files).
//
// Semantics shared by every backend:
//   - Stream revisions start at 0 and are contiguous within a stream.
//   - Global positions strictly increase along the global log (the archive).
//     The SQLite backend makes them gapless starting at 1; EventStoreDB uses
//     commit positions, which increase but have gaps.
//   - Append is all-or-nothing. A writer whose expected revision is stale gets
//     a *ConflictError carrying the current revision and nothing is written.
//   - Appending a batch whose event ids are already stored in the same stream
//     at the place the expected revision points to is an idempotent retry: it
//     succeeds, writes nothing and returns the original result.
//   - Subscribe delivers every event after a checkpoint, history first and then
//     live events, in global order, without gaps or duplicates at the boundary.
package eventstore
