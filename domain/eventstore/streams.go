package eventstore

import (
	"fmt"
	"strings"
)

// StreamKind is the kind of thing a stream records. The archive is the global
// log itself and has no stream of its own.
type StreamKind string

// The stream kinds of the federation: one stream per duplicate game, per
// classique match, per tournament and per appeal; access tokens have a
// stream per tournament ("acces-<tournoi>") or one for the whole server
// ("acces-serveur").
const (
	KindPartie  StreamKind = "partie"
	KindMatch   StreamKind = "match"
	KindTournoi StreamKind = "tournoi"
	KindAppel   StreamKind = "appel"
	KindAcces   StreamKind = "acces"
)

var streamKinds = []StreamKind{KindPartie, KindMatch, KindTournoi, KindAppel, KindAcces}

// StreamName returns "<kind>-<id>". The id must be non-empty and made of
// letters, digits, '-' and '_'.
func StreamName(kind StreamKind, id string) (string, error) {
	if !knownKind(kind) {
		return "", newError(CodeInvalidArgument, fmt.Sprintf("unknown stream kind %q", kind), nil)
	}
	if !validStreamID(id) {
		return "", newError(CodeInvalidArgument, fmt.Sprintf("stream id %q must be non-empty letters, digits, '-' or '_'", id), nil)
	}
	return string(kind) + "-" + id, nil
}

// PartieStream is the stream of one duplicate game: "partie-<id>".
func PartieStream(id string) (string, error) { return StreamName(KindPartie, id) }

// MatchStream is the stream of one classique match: "match-<id>".
func MatchStream(id string) (string, error) { return StreamName(KindMatch, id) }

// TournoiStream is the stream of one tournament: "tournoi-<id>".
func TournoiStream(id string) (string, error) { return StreamName(KindTournoi, id) }

// AppelStream is the stream of one appeal: "appel-<id>".
func AppelStream(id string) (string, error) { return StreamName(KindAppel, id) }

// AccesStream is the stream of the tokens of one tournament, or of the
// whole server for id "serveur": "acces-<id>".
func AccesStream(id string) (string, error) { return StreamName(KindAcces, id) }

// ParseStream splits a stream name into its kind and id.
func ParseStream(name string) (StreamKind, string, error) {
	kind, id, ok := strings.Cut(name, "-")
	if !ok || !knownKind(StreamKind(kind)) || !validStreamID(id) {
		return "", "", newError(CodeInvalidArgument, fmt.Sprintf("stream name %q is not <partie|match|tournoi|appel|acces>-<id>", name), nil)
	}
	return StreamKind(kind), id, nil
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
