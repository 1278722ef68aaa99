package acces

import (
	"context"
	"fmt"
	"io"

	"github.com/google/uuid"

	"arbitre/domain/eventstore"
)

// Event type names, versioned explicitly (a Go rename never changes them).
const (
	TypeJetonEmis    = "acces.jeton_emis"
	TypeJetonRevoque = "acces.jeton_revoque"
)

// RegisterEvents declares the access events.
func RegisterEvents(r *eventstore.Registry) error {
	if err := eventstore.Register[JetonEmis](r, TypeJetonEmis, 1); err != nil {
		return err
	}
	return eventstore.Register[JetonRevoque](r, TypeJetonRevoque, 1)
}

// ServerScope is the stream id of tokens valid for every tournament.
const ServerScope = "serveur"

// Service issues and revokes tokens by recording events.
type Service struct {
	Store    eventstore.Store
	Registry *eventstore.Registry
	Clock    eventstore.Clock
	// Entropy draws secrets; nil means crypto/rand.
	Entropy io.Reader
}

// Emettre issues a token and records it; the secret is returned once.
func (s *Service) Emettre(ctx context.Context, d Demande, md eventstore.Metadata) (string, JetonEmis, error) {
	secret, ev, err := Emettre(s.Entropy, s.Clock.Now(), d)
	if err != nil {
		return "", JetonEmis{}, err
	}
	if err := s.record(ctx, d.Tournoi, ev, md); err != nil {
		return "", JetonEmis{}, err
	}
	return secret, ev, nil
}

// Revoquer records that a token no longer works.
func (s *Service) Revoquer(ctx context.Context, tournoi, id string, md eventstore.Metadata) error {
	return s.record(ctx, tournoi, JetonRevoque{ID: id}, md)
}

func (s *Service) record(ctx context.Context, tournoi string, payload any, md eventstore.Metadata) error {
	scope := tournoi
	if scope == "" {
		scope = ServerScope
	}
	stream, err := eventstore.AccesStream(scope)
	if err != nil {
		return err
	}
	data, err := s.Registry.NewEventData(uuid.New(), payload, md)
	if err != nil {
		return err
	}
	if _, err := s.Store.Append(ctx, stream, eventstore.Any, data); err != nil {
		return fmt.Errorf("recording %s: %w", data.Type, err)
	}
	return nil
}

// Suivre feeds reg with the access events of the store, history then live,
// until ctx is done.
func Suivre(ctx context.Context, store eventstore.Store, registry *eventstore.Registry, reg *Registre) error {
	return store.Subscribe(ctx, 0, func(_ context.Context, e eventstore.Event) error {
		if e.Type != TypeJetonEmis && e.Type != TypeJetonRevoque {
			return nil
		}
		payload, err := registry.Decode(e)
		if err != nil {
			return err
		}
		reg.Appliquer(payload)
		return nil
	})
}
