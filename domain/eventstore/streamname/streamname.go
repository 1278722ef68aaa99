package streamname

import (
	"fmt"
	"strings"

	"arbitre/domain/eventstore"
)

// StreamKind is the kind of thing a stream records. The archive is the global
// log itself and has no stream of its own.
type StreamKind string

// The stream kinds of the federation: one stream per duplicate game, per
// classique match, per tournament and per appeal; access tokens have a
// stream per tournament ("acces-<tournoi>") or one for the whole server
// ("acces-serveur"); the federation's events in many centres and twinnings
// have one stream each ("federation-epreuve-<id>", "federation-jumelage-<id>").
const (
	KindPartie  StreamKind = "partie"
	KindMatch   StreamKind = "match"
	KindTournoi StreamKind = "tournoi"
	KindAppel   StreamKind = "appel"
	KindAcces   StreamKind = "acces"
	// KindArchive: the results of one past tournament imported into the
	// archive ("archive-<genre>-<tournoi>").
	KindArchive    StreamKind = "archive"
	KindFederation StreamKind = "federation"
)

var streamKinds = []StreamKind{KindPartie, KindMatch, KindTournoi, KindAppel, KindAcces, KindArchive, KindFederation}

// StreamName returns "<kind>-<id>". The id must be non-empty and made of
// letters, digits, '-' and '_'.
func StreamName(kind StreamKind, id string) (string, error) {
	if !knownKind(kind) {
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("unknown stream kind %q", kind), nil)
	}
	if !validStreamID(id) {
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("stream id %.32q must be non-empty letters, digits, '-' or '_'", id), nil)
	}
	return string(kind) + "-" + id, nil
}

// PartieStream is the stream of one duplicate game: "partie-<id>". An id
// ending in "-table-<n>" is refused: that name is the stream of table n of
// another game (TableStream).
func PartieStream(id string) (string, error) {
	stream, err := StreamName(KindPartie, id)
	if _, table := MainStream(stream); err == nil && table {
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("game id %.32q may not end in %q and a number", id, marqueTable), nil)
	}
	return stream, err
}

// MatchStream is the stream of one classique match: "match-<id>".
func MatchStream(id string) (string, error) { return StreamName(KindMatch, id) }

// classiquePrefix opens the id part of a classique tournament's stream,
// "tournoi-classique-<id>". Duplicate tournament ids may not start with it:
// each tournament stream name then belongs to exactly one kind of
// tournament, and stores written before keep their names.
const classiquePrefix = "classique-"

// TournoiStream is the stream of one duplicate tournament: "tournoi-<id>".
// An id starting with "classique-" is refused: that part of the namespace
// is the classique tournaments' (ClassiqueStream).
func TournoiStream(id string) (string, error) {
	if strings.HasPrefix(id, classiquePrefix) {
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("duplicate tournament id %.32q may not start with %q", id, classiquePrefix), nil)
	}
	return StreamName(KindTournoi, id)
}

// ClassiqueStream is the stream of one classique tournament:
// "tournoi-classique-<id>".
func ClassiqueStream(id string) (string, error) {
	if !validStreamID(id) {
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("stream id %.32q must be non-empty letters, digits, '-' or '_'", id), nil)
	}
	return StreamName(KindTournoi, classiquePrefix+id)
}

// AppelStream is "appel-<id>": the stream of an appeal filed while ids
// were global; appel.Flux names a new one "appel-<n>-<tournoi>-<id>".
func AppelStream(id string) (string, error) { return StreamName(KindAppel, id) }

// AccesStream is the stream of the tokens of one tournament, or of the
// whole server for id "serveur": "acces-<id>".
func AccesStream(id string) (string, error) { return StreamName(KindAcces, id) }

// ArchiveStream is the stream of a past tournament's imported results:
// "archive-<genre>-<tournoi>".
func ArchiveStream(genre, tournoi string) (string, error) {
	return StreamName(KindArchive, genre+"-"+tournoi)
}

// EpreuveStream is the stream of an event played in many centres:
// "federation-epreuve-<id>".
func EpreuveStream(id string) (string, error) { return federationStream("epreuve-", id) }

// JumelageStream is the stream of a twinning: "federation-jumelage-<id>".
func JumelageStream(id string) (string, error) { return federationStream("jumelage-", id) }

func federationStream(prefix, id string) (string, error) {
	if !validStreamID(id) {
		return "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("stream id %.32q must be non-empty letters, digits, '-' or '_'", id), nil)
	}
	return StreamName(KindFederation, prefix+id)
}

// ParseStream splits a stream name into its kind and id. A game's table
// stream belongs to the game: "partie-<id>-table-<n>" gives the game's id.
func ParseStream(name string) (StreamKind, string, error) {
	if principal, table := MainStream(name); table {
		name = principal
	}
	kind, id, ok := strings.Cut(name, "-")
	if !ok || !knownKind(StreamKind(kind)) || !validStreamID(id) {
		return "", "", eventstore.NewError(eventstore.CodeInvalidArgument, fmt.Sprintf("stream name %q is not <partie|match|tournoi|appel|acces|archive|federation>-<id>", name), nil)
	}
	return StreamKind(kind), id, nil
}

// famille is the prefix of the event types a stream holds ("" for a name
// that is not one of ours): each kind of aggregate records its own family.
func famille(stream string) string {
	kind, id, err := ParseStream(stream)
	switch {
	case err != nil:
		return ""
	case kind == KindMatch:
		return "classique.match."
	case kind == KindTournoi && strings.HasPrefix(id, classiquePrefix):
		return "classique.tournoi."
	}
	return string(kind) + "."
}

// familles are the event type families of the aggregates.
var familles = []string{"partie.", "tournoi.", "appel.", "acces.", "archive.", "classique.match.", "classique.tournoi.", "federation."}

// Foreign reports an event of one aggregate's family recorded in the
// stream of another kind of aggregate (types of no known family, as in
// tests, are not judged).
func Foreign(stream, typ string) bool {
	f := famille(stream)
	if f == "" || strings.HasPrefix(typ, f) {
		return false
	}
	for _, autre := range familles {
		if strings.HasPrefix(typ, autre) {
			return true
		}
	}
	return false
}

func knownKind(kind StreamKind) bool {
	for _, k := range streamKinds {
		if k == kind {
			return true
		}
	}
	return false
}

func validStreamID(id string) bool {
	if id == "" {
		return false
	}
	for _, r := range id {
		ok := r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}
