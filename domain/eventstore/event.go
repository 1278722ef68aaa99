package eventstore

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Metadata is who recorded an event, why and when.
type Metadata struct {
	// Actor identifies the person or process that caused the event (a licence
	// number, a user id, "system").
	Actor string `json:"actor,omitempty"`
	// Role is the role the actor acted in (arbitre, directeur, joueur...).
	Role string `json:"role,omitempty"`
	// CorrelationID ties together every event caused by one request.
	CorrelationID string `json:"correlationId,omitempty"`
	// CausationID is the id of the command or event that caused this one.
	CausationID string `json:"causationId,omitempty"`
	// Request fingerprints the client request that caused the event (see
	// Command); empty for events recorded before requests were
	// fingerprinted, and for events no client request caused.
	Request string `json:"requete,omitempty"`
	// RecordedAt is set by the store from its clock when the event is appended;
	// any value given on append is replaced.
	RecordedAt time.Time `json:"recordedAt"`
}

// EventData is an event proposed for appending.
type EventData struct {
	// ID is chosen by the caller and makes retries idempotent. It must not be
	// the nil UUID.
	ID uuid.UUID
	// Type is the registered, versioned event type name, e.g. "partie.tirage".
	Type string
	// Version is the schema version of Data, starting at 1.
	Version int
	// Data is the JSON payload.
	Data json.RawMessage
	// Metadata describes the actor and the causal chain.
	Metadata Metadata
}

// Event is a recorded event as read back from the store.
type Event struct {
	ID       uuid.UUID       `json:"id"`
	Stream   string          `json:"stream"`
	Revision uint64          `json:"revision"`
	Position uint64          `json:"position"`
	Type     string          `json:"type"`
	Version  int             `json:"version"`
	Data     json.RawMessage `json:"data"`
	Metadata Metadata        `json:"metadata"`
	// Hash chains the event to the one before it in the global log (see
	// ChainHash); empty on a store that does not chain (EventStoreDB).
	Hash []byte `json:"hash,omitempty"`
}

// AppendResult tells where the last event of an append landed.
type AppendResult struct {
	// Revision is the stream revision of the last appended event; pass it as
	// Exact(Revision) to append next.
	Revision uint64
	// Position is the global position of the last appended event.
	Position uint64
}

// expectationKind enumerates the optimistic concurrency checks.
type expectationKind uint8

const (
	expectAny expectationKind = iota
	expectNoStream
	expectStreamExists
	expectExact
)

// ExpectedRevision is the optimistic concurrency check of an append.
type ExpectedRevision struct {
	kind     expectationKind
	revision uint64
}

var (
	// Any appends whatever the state of the stream.
	Any = ExpectedRevision{kind: expectAny}
	// NoStream appends only if the stream has no event yet.
	NoStream = ExpectedRevision{kind: expectNoStream}
	// StreamExists appends only if the stream has at least one event.
	StreamExists = ExpectedRevision{kind: expectStreamExists}
)

// Exact appends only if the last event of the stream has this revision.
func Exact(revision uint64) ExpectedRevision {
	return ExpectedRevision{kind: expectExact, revision: revision}
}

// IsAny, IsNoStream and IsStreamExists report the symbolic expectations;
// Exact reports the expected revision when there is one.
func (e ExpectedRevision) IsAny() bool          { return e.kind == expectAny }
func (e ExpectedRevision) IsNoStream() bool     { return e.kind == expectNoStream }
func (e ExpectedRevision) IsStreamExists() bool { return e.kind == expectStreamExists }

// Exact returns the expected revision and true when the expectation is an
// exact revision.
func (e ExpectedRevision) Exact() (uint64, bool) {
	return e.revision, e.kind == expectExact
}

// Check tells whether a stream in the given state satisfies the expectation.
// exists is false for a stream without events, current is then ignored.
func (e ExpectedRevision) Check(current uint64, exists bool) bool {
	switch e.kind {
	case expectNoStream:
		return !exists
	case expectStreamExists:
		return exists
	case expectExact:
		return exists && current == e.revision
	default:
		return true
	}
}

// String renders the expectation for error messages.
func (e ExpectedRevision) String() string {
	switch e.kind {
	case expectNoStream:
		return "no stream"
	case expectStreamExists:
		return "stream exists"
	case expectExact:
		return "revision " + uitoa(e.revision)
	default:
		return "any"
	}
}

func uitoa(v uint64) string { return strconv.FormatUint(v, 10) }
