package graphql

import (
	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
)

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// actor is the event metadata of a request made with h.
func actor(h acces.Habilitation) eventstore.Metadata {
	return eventstore.Metadata{Actor: "jeton:" + h.JetonID, Role: string(h.Role)}
}
