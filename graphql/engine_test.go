package graphql

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql/model"
)

// directeurSansTournoi is a request with a token @acces lets through to the
// engine and that may analyse any position: a director without tournament.
func directeurSansTournoi() context.Context {
	reg := acces.NewRegistre()
	reg.Appliquer(acces.JetonEmis{ID: "d", Empreinte: "e", Role: acces.Directeur, Expire: time.Now().Add(time.Hour)})
	hab := acces.Habilitation{JetonID: "d", Role: acces.Directeur, Expire: time.Now().Add(time.Hour)}
	return context.WithValue(context.Background(), authKey{}, authState{hab: &hab, reg: reg, now: time.Now})
}

// Issue 11 item 4: resoudre stops when its request ends, and says so with
// a code instead of an internal error.
func TestSecurite_ResoudreInterrompu(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	q := (&Resolver{Engine: solve.NewPool(lex)}).Query()
	pos := model.PositionInput{Grille: strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n"), Tirage: "ZEN??NE"}

	directeur := directeurSansTournoi()
	ended, cancel := context.WithCancel(directeur)
	cancel()
	sol, err := q.Resoudre(ended, pos, nil)
	assert.Nil(t, sol)
	var apiErr *erreur.Erreur
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, codeCancelled, apiErr.Code)
	assert.ErrorIs(t, err, context.Canceled)

	sol, err = q.Resoudre(directeur, pos, nil)
	require.NoError(t, err)
	assert.Positive(t, sol.ScoreTop)
}

// Issue 27: past its operation's deadline (server.Delais), resoudre
// stops and the answer says TIMEOUT.
func TestSecurite_ResoudreDelaiDepasse(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	q := (&Resolver{Engine: solve.NewPool(lex)}).Query()
	pos := model.PositionInput{Grille: strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n"), Tirage: "ZEN??NE"}

	passe, cancel := context.WithDeadline(directeurSansTournoi(), time.Now())
	defer cancel()
	sol, err := q.Resoudre(passe, pos, nil)
	assert.Nil(t, sol)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, string(CodeTimeout), PresentError(passe, err).Extensions["code"])
}

// Issue 12 item 6: a placement the rules allow but whose word is not in the
// lexicon is not playable, and says why with a problem code.
func TestErreurs_VerifierCoupMotHorsLexique(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	q := (&Resolver{Engine: solve.NewPool(lex)}).Query()
	pos := model.PositionInput{Grille: strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n"), Tirage: "ZEN??NE"}
	tests := []struct {
		mot, probleme string
		jouable       bool
	}{
		{"ZEN", "OK", true},
		{"NEZ", string(duplicate.CodeInvalidWord), false},
	}
	for _, tt := range tests {
		v, err := q.VerifierCoup(directeurSansTournoi(), pos, tt.mot, "H8")
		require.NoError(t, err)
		assert.Equal(t, tt.probleme, string(v.Probleme), tt.mot)
		assert.Equal(t, tt.jouable, v.Jouable, tt.mot)
	}
}
