package eventstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// A duplicate game keeps the bulletins and corrections of each table in a
// stream of its own beside the game's ("partie-<id>-table-<n>"), so that the
// arbiters of different tables never write the same stream (docs/charge.md).
// The game stream and its table streams are one aggregate: read together in
// global order, and appended to under guards (Guard) that keep the rules
// spanning tables.

// marqueTable separates a game's id from its table number in a table stream.
const marqueTable = "-table-"

// TableStream is the stream of the bulletins and corrections of table n of
// duplicate game partie: "partie-<partie>-table-<n>".
func TableStream(partie string, table int) (string, error) {
	stream, err := PartieStream(partie)
	if err != nil {
		return "", err
	}
	if table < 1 {
		return "", newError(CodeInvalidArgument, fmt.Sprintf("table %d of game %s must be at least 1", table, partie), nil)
	}
	return stream + marqueTable + strconv.Itoa(table), nil
}

// MainStream splits a table stream into its game's stream; ok is false for
// any other name.
// It reads the number from the end rather than searching the name for the
// mark: every event of a rebuild's log goes through it, some several times.
func MainStream(stream string) (principal string, ok bool) {
	chiffres := len(stream)
	for chiffres > 0 && stream[chiffres-1] >= '0' && stream[chiffres-1] <= '9' {
		chiffres--
	}
	numero := stream[chiffres:]
	if _, err := strconv.Atoi(numero); err != nil || numero[0] == '0' || !strings.HasSuffix(stream[:chiffres], marqueTable) ||
		!strings.HasPrefix(stream, string(KindPartie)+"-") {
		return "", false
	}
	return stream[:chiffres-len(marqueTable)], true
}

// SectionBounds are the bounds, both excluded, of the names of a stream's
// sub-streams in byte order: every "<stream>-table-..." sorts between them.
func SectionBounds(stream string) (de, a string) {
	return stream + marqueTable, stream + "-table."
}

// Guard is a condition an append checks in its own transaction: the stream
// Stream (with Sections, its sub-streams instead) holds no event after
// global position After. A command decided on what it read guards what it
// read and did not write.
type Guard struct {
	Stream   string
	Sections bool
	After    uint64
}

// String describes the guard for errors.
func (g Guard) String() string {
	if g.Sections {
		return fmt.Sprintf("the table streams of %s after position %d", g.Stream, g.After)
	}
	return fmt.Sprintf("%s after position %d", g.Stream, g.After)
}

// Sections is a store that keeps an aggregate across a stream and its
// sub-streams atomically: the SQLite store. EventStoreDB has no transaction
// over several streams and does not implement it; there a game keeps every
// event in its own stream (docs/eventstore.md).
type Sections interface {
	// ReadSections returns every event of stream and of its sub-streams
	// whose global position is after the given one (0: all), in global
	// order.
	ReadSections(ctx context.Context, stream string, after uint64) ([]Event, error)
	// AppendGuarded is Append that also checks every guard in the same
	// transaction: a guard that fails is a *ConflictError naming the
	// guarded stream, and nothing is written.
	AppendGuarded(ctx context.Context, stream string, expected ExpectedRevision, gardes []Guard, events ...EventData) (AppendResult, error)
}

// ReadFamily returns the events of stream and of its sub-streams in global
// order on a store that keeps sub-streams (Sections), the stream alone on
// any other.
func ReadFamily(ctx context.Context, r Reader, stream string) ([]Event, error) {
	if s, ok := r.(Sections); ok {
		return s.ReadSections(ctx, stream, 0)
	}
	return ReadWholeStream(ctx, r, stream)
}
