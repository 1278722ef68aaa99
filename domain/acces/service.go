package acces

import (
	"context"
	"fmt"
	"io"

	"github.com/google/uuid"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
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
	// Jetons is the registry of the running server, fed by its runner: Revoquer
	// reads the revoked token's scope there. Only the server revokes.
	Jetons *Registre
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

// Revoquer records that token id no longer works, if issuer may revoke it:
// the token's scope is the one its emission recorded (tournoi, when given,
// must be that one), and the revocation goes to that scope's stream. When
// Revoquer returns, the registry no longer accepts the token.
func (s *Service) Revoquer(ctx context.Context, issuer Habilitation, id, tournoi string, md eventstore.Metadata) error {
	cible, err := s.Jetons.Jeton(ctx, id)
	if err != nil {
		return err
	}
	if err := PeutRevoquer(issuer, cible); err != nil {
		return err
	}
	if tournoi != "" && tournoi != cible.Tournoi {
		return invalide("tournoi", "ce jeton n'appartient pas au tournoi indiqué")
	}
	if err := s.record(ctx, cible.Tournoi, JetonRevoque{ID: id}, md); err != nil {
		return err
	}
	// The revocation is recorded: if this read fails, the registry's
	// subscription applies it moments later all the same.
	_ = s.Jetons.rattraper(ctx)
	return nil
}

func (s *Service) record(ctx context.Context, tournoi string, payload any, md eventstore.Metadata) error {
	scope := tournoi
	if scope == "" {
		scope = ServerScope
	}
	stream, err := streamname.AccesStream(scope)
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
