package graphql

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// Issue 32: a read never answers a game's view older than the events
// recorded when it arrived. With the parties projection held behind a
// tirage just acknowledged, `partie` waits for it as long as the request
// may last and answers the tirage once the projection applies it; held
// past the request's deadline, it answers UNAVAILABLE, never the game as
// it stood before the tirage (it used to answer that after 2 s).
func TestFiabilite_LectureDUnePartieJamaisPerimee(t *testing.T) {
	t.Run("projection released while the read waits", func(t *testing.T) {
		r, app := vuesResolver(t, "p1")
		ctx := context.Background()
		require.NoError(t, app.Tirer(ctx, command.Tirer{Partie: "p1"}))
		liberee := make(chan struct{})
		go func() {
			// The projection is held beyond the old 2-second bound.
			time.Sleep(3 * time.Second)
			_, _ = r.PartiesRunner.CatchUp(ctx, nil)
			close(liberee)
		}()
		lecture, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		p, err := r.Query().Partie(lecture, "p1")
		<-liberee
		require.NoError(t, err)
		assert.Equal(t, duplicate.StatutTirage, p.Statut, "the read shows the tirage acknowledged before it")
		assert.NotNil(t, p.Tirage)
	})
	t.Run("projection held past the deadline", func(t *testing.T) {
		r, app := vuesResolver(t, "p1")
		ctx := context.Background()
		require.NoError(t, app.Tirer(ctx, command.Tirer{Partie: "p1"}))
		lecture, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		p, err := r.Query().Partie(lecture, "p1")
		require.Error(t, err, "answered %+v", p)
		assert.Equal(t, CodeUnavailable, erreur.CodeOf(err))
		assert.Contains(t, PresentError(ctx, err).Message, "pas encore à jour")
	})
}

// Issue 32, a full disk: an append the store could not commit (the error
// reaches the presenter wrapped by gqlgen with its path, as every resolver
// error does) is UNAVAILABLE, to send again; it was INVALID_INPUT « vérifier
// les arguments », which no client retries.
func TestFiabilite_DisquePleinNEstPasUneErreurDuClient(t *testing.T) {
	ctx := context.Background()
	plein := eventstore.NewError(eventstore.CodeUnavailable, "committing appends", errors.New("disk I/O error (778)"))
	for _, err := range []error{plein, gqlerror.WrapPath(ast.Path{ast.PathName("creerTournoi")}, plein)} {
		e := PresentError(ctx, err)
		assert.Equal(t, string(CodeUnavailable), e.Extensions["code"], "%v", err)
		assert.Contains(t, e.Message, "rien n'est enregistré")
	}
}

// Issue 32 item 3: a commit whose fsync failed may be found recorded when
// the store is reopened (TestFiabilite_FsyncEnEchec): the client is told
// the outcome is not certain and to send the same clientMutationId again,
// never that nothing is recorded.
func TestFiabilite_FsyncEnEchecIssueIncertaine(t *testing.T) {
	incertaine := eventstore.NewError(eventstore.CodeUnavailable, "committing appends",
		fmt.Errorf("%w: %w", eventstore.ErrOutcomeUnknown, errors.New("disk I/O error (1034)")))
	e := PresentError(context.Background(), gqlerror.WrapPath(ast.Path{ast.PathName("tirer")}, incertaine))
	assert.Equal(t, string(CodeUnavailable), e.Extensions["code"])
	assert.Contains(t, e.Message, "n'est pas certain")
	assert.Contains(t, e.Message, "même clientMutationId")
	assert.NotContains(t, e.Message, "rien n'est enregistré")
}
