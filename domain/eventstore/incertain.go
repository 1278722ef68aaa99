package eventstore

import "errors"

// ErrOutcomeUnknown is an append whose events were written but could not
// be made durable (the fsync of the commit failed): the store refuses it
// and does not show it to its reads, but a process that dies before its
// next write may find it recorded when the store is reopened (the log
// holds the commit; only its flush failed). A backend wraps it in its
// CodeUnavailable error. The client learns the outcome by sending the same
// command again with the same clientMutationId, which is never applied
// twice.
var ErrOutcomeUnknown = errors.New("outcome unknown: the commit was written but could not be flushed to disk")
