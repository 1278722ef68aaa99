// Package idempotency makes a client's command apply once: the command a
// use case runs for (Command, carried in the context by WithCommand), the
// check that its mutation id was not used before, on the events of the
// stream it writes (Command.Check, Traces) or on the whole log (Keys: the
// store's lookup where the store binds keys, eventstore.BoundKeys, else a
// read of the log), and the errors a retry gets (ErrAlreadyApplied,
// ErrKeyReused).
package idempotency
