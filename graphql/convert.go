package graphql

import (
	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
)

func deref[T ~string | ~bool](s *T) T {
	if s == nil {
		var zero T
		return zero
	}
	return *s
}

func optional[T ~string](s T) *T {
	if s == "" {
		return nil
	}
	return &s
}

// actor is the event metadata of a request made with h.
func actor(h acces.Habilitation) eventstore.Metadata {
	return eventstore.Metadata{Actor: "jeton:" + h.JetonID, Role: string(h.Role)}
}
