package graphql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	gql "github.com/99designs/gqlgen/graphql"

	"arbitre/domain/acces"
	"arbitre/domain/eventstore/idempotency"
)

// CodeIdempotencyKeyReused refuses a clientMutationId its token already
// used for another request.
const CodeIdempotencyKeyReused Code = "IDEMPOTENCY_KEY_REUSED"

// avecCommande attaches the command envelope of the mutation being
// resolved for the token h: the client's id is scoped to the token (the
// events' actor) and bound to the request's fingerprint, so that only a
// true retry is answered as done.
func avecCommande(ctx context.Context, h acces.Habilitation, version *int, clientMutationID *string) (context.Context, error) {
	requete, err := empreinte(ctx)
	if err != nil {
		return ctx, err
	}
	return idempotency.WithCommand(ctx, idempotency.Command{
		ID: deref(clientMutationID), Version: version, Author: actor(h).Actor, Request: requete,
	}), nil
}

// empreinte fingerprints the mutation being resolved: its field name and
// its arguments but the client's id, as canonical JSON (sorted keys).
func empreinte(ctx context.Context) (string, error) {
	fc := gql.GetFieldContext(ctx)
	if fc == nil {
		return "", nil
	}
	args := make(map[string]any, len(fc.Args))
	for k, v := range fc.Args {
		if k != "clientMutationId" {
			args[k] = v
		}
	}
	data, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(fc.Field.Name+"\n"), data...))
	return fc.Field.Name + ":" + hex.EncodeToString(sum[:16]), nil
}
