package streamname

import (
	"fmt"
	"strconv"
	"strings"

	"arbitre/domain/eventstore"
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
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("table %d of game %s must be at least 1", table, partie), nil)
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
