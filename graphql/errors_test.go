package graphql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/acces"
	"arbitre/domain/appel"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/erreur/francais"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/tournoi"
)

// Issue 13 item 2 and issue 12 items 5 and 6: every error reaches the
// client through one path, with one code syntax, a French message and the
// extensions a client acts on.
func TestErreurs_PresenterUnSeulChemin(t *testing.T) {
	conflit := &eventstore.ConflictError{Stream: "partie-p1", Current: 4, StreamExists: true}
	version := 2
	avecVersion := idempotency.WithCommand(context.Background(), idempotency.Command{ID: "c1", Version: &version})
	tests := []struct {
		name     string
		ctx      context.Context
		err      error
		code     string
		contient string
		ext      map[string]any
	}{
		{"refusal of a domain package", context.Background(),
			fmt.Errorf("chargement : %w", erreur.Refus(appel.CodeDeadlinePassed, "Le délai est passé")),
			"DEADLINE_PASSED", "Le délai est passé", nil},
		{"classique refusal, detail in extensions", context.Background(),
			(&erreur.Erreur{Code: matchclassique.CodeInvalidPlacement, Message: "Placement invalide : ZOO en H8"}).Avec("detail", "NOT_IN_RACK"),
			"INVALID_PLACEMENT", "Placement invalide : ZOO en H8", map[string]any{"detail": "NOT_IN_RACK"}},
		{"access refusal", context.Background(), acces.Autoriser(acces.Habilitation{Role: acces.Arbitre}, []acces.Role{acces.Directeur}, acces.Portee{}),
			"FORBIDDEN", "action réservée", nil},
		{"conflict without the client's version: resend", context.Background(),
			fmt.Errorf("enregistrement : %w", conflit), "CONFLICT", "même clientMutationId", map[string]any{"version": 5}},
		{"domain conflict without the client's version: resend", context.Background(),
			(&erreur.Erreur{Code: duplicate.CodeConflict, Message: "modifiée", Err: conflit}).Avec("version", 7),
			"CONFLICT", "même clientMutationId", map[string]any{"version": 7}},
		{"conflict on the client's version: reload", avecVersion, conflit, "CONFLICT", "recharger", map[string]any{"version": 5}},
		{"reused clientMutationId", context.Background(), idempotency.ErrKeyReused, "IDEMPOTENCY_KEY_REUSED", "clientMutationId", nil},
		{"gqlgen validation", context.Background(),
			&gqlerror.Error{Message: `Cannot query field "x" on type "Query".`, Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}},
			"GRAPHQL_VALIDATION_FAILED", "non conforme au schéma", map[string]any{"detail": `Cannot query field "x" on type "Query".`}},
		{"gqlgen parsing", context.Background(),
			&gqlerror.Error{Message: `Expected Name, found <EOF>`, Extensions: map[string]any{"code": "GRAPHQL_PARSE_FAILED"}},
			"GRAPHQL_PARSE_FAILED", "illisible", map[string]any{"detail": `Expected Name, found <EOF>`}},
		{"argument gqlgen cannot read", context.Background(),
			&gqlerror.Error{Message: "invalid value", Err: errors.New("invalid value")}, "INVALID_INPUT", "vérifier les arguments", nil},
		{"recovered panic", context.Background(), gqlerror.Errorf("internal system error"), "INTERNAL", "Erreur interne", nil},
		{"anything else", context.Background(), errors.New("disk full"), "INTERNAL", "Erreur interne", nil},
		{"a renamed code keeps its old name beside it for one release (issue 33 item 4)", context.Background(),
			erreur.Refus(tournoi.CodeInvalidTournoi, "Le tournoi existe déjà"), "INVALID_TOURNAMENT", "existe déjà",
			map[string]any{"ancienCode": "INVALID_TOURNOI"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PresentError(tt.ctx, tt.err)
			assert.Equal(t, tt.code, got.Extensions["code"])
			assert.Contains(t, got.Message, tt.contient)
			assert.Empty(t, francais.Anglais(got.Message), got.Message)
			assert.NotContains(t, got.Message, "disk full", "the cause stays in the logs")
			for k, v := range tt.ext {
				assert.EqualValues(t, v, got.Extensions[k], k)
			}
		})
	}
}

// Issue 12 item 6: the API's own message constructors speak French, and an
// INVALID_INPUT names its field.
func TestErreurs_ConstructeursEnFrancais(t *testing.T) {
	cause := errors.New("cause")
	tests := []struct {
		name  string
		err   *erreur.Erreur
		champ string
	}{
		{"invalidInput", invalidInput("tirage", erreur.Refus(erreur.CodeInvalidInput, "« Ã » n'est pas une lettre")), "tirage"},
		{"invalidInput of a parser's error", invalidInput("reference", errors.New("reference \"Z99\": column must be 1-15")), "reference"},
		{"refusal", refusal("grille", "15 lignes de 15 cases", cause), "grille"},
		{"refusEntree", func() *erreur.Erreur {
			racine := Racine("creerPartie")
			return refusEntree(racine.Champ("partie"), "au plus %d caractères", 64)
		}(), "creerPartie.partie"},
		{"cancelled", cancelled(context.Canceled), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEmpty(t, tt.err.Message)
			assert.Empty(t, francais.Anglais(tt.err.Message), tt.err.Message)
			if tt.champ != "" {
				assert.Equal(t, CodeInvalidInput, tt.err.Code)
				assert.Equal(t, tt.champ, tt.err.Details["champ"])
			}
		})
	}
}

// Issue 33 item 4: an error code is machinery, in English; the
// federation's words stay in the messages. A code renamed keeps its old
// name, deprecated, in the schema for one release, and the server reads an
// older server's old name as the new code (the federation link).
func TestCodes_EnAnglaisAnciensNomsDeprecies(t *testing.T) {
	francais := []string{"TIRAGE", "REJET", "PARTIE", "TOURNOI", "DEPARTAGE", "DOSSIER", "DEJA", "RECU", "JOURNAL",
		"ALTERE", "JUMELAGE", "INVALIDE", "INVALIDES", "LIAISON", "COUPEE", "PAQUET", "CORROMPU", "RESULTATS", "LEXIQUE",
		"ABSENT", "ANNULATION", "COUP", "JETON", "APPEL", "RONDE", "SAC", "RELIQUAT", "BULLETIN_", "ERREUR"}
	codes := introspected().Types["CodeErreur"]
	require.NotNil(t, codes)
	anciens := map[erreur.Code]bool{}
	for _, a := range erreur.AnciensNoms() {
		anciens[a] = true
	}
	for _, v := range codes.EnumValues {
		code := erreur.Code(v.Name)
		if dep := v.Directives.ForName("deprecated"); dep != nil {
			assert.True(t, anciens[code], "%s is deprecated but is no renamed code's old name", code)
			assert.Contains(t, dep.Arguments.ForName("reason").Value.Raw, string(erreur.Actuel(code)), "%s's reason names its new code", code)
			continue
		}
		assert.False(t, anciens[code], "%s is an old name: deprecated in the schema", code)
		for _, mot := range strings.Split(v.Name, "_") {
			assert.NotContains(t, francais, mot, "code %s: %s is French; codes are English (docs/architecture.md, Naming)", v.Name, mot)
		}
	}
	for a := range anciens {
		v := codes.EnumValues.ForName(string(a))
		require.NotNil(t, v, "the old name %s stays in the schema for one release", a)
		assert.NotNil(t, codes.EnumValues.ForName(string(erreur.Actuel(a))), "%s's new code is in the schema", a)
	}
}
