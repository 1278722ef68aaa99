package graphql

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
	"arbitre/graphql/model"
)

// Issue 11 item 4: resoudre stops when its request ends, and says so with
// a code instead of an internal error.
func TestSecurite_ResoudreInterrompu(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("ZEN\nEN\nNE\n"), "test")
	require.NoError(t, err)
	q := (&Resolver{Engine: solve.NewPool(lex)}).Query()
	pos := model.PositionInput{Grille: strings.Split(strings.TrimSuffix(strings.Repeat("...............\n", 15), "\n"), "\n"), Tirage: "ZEN??NE"}

	ended, cancel := context.WithCancel(context.Background())
	cancel()
	sol, err := q.Resoudre(ended, pos, nil)
	assert.Nil(t, sol)
	var apiErr *Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, codeCancelled, apiErr.Code)
	assert.ErrorIs(t, err, context.Canceled)

	sol, err = q.Resoudre(context.Background(), pos, nil)
	require.NoError(t, err)
	assert.Positive(t, sol.ScoreTop)
}
