package graphql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	darchive "arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/graphql/model"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// lecturesComptees is a read pool on a projection database that counts the
// queries its connections run.
type lecturesComptees struct {
	dsn      string
	pilote   driver.Driver
	requetes atomic.Int64
}

func (l *lecturesComptees) Connect(context.Context) (driver.Conn, error) {
	c, err := l.pilote.Open(l.dsn)
	if err != nil {
		return nil, err
	}
	return connComptee{Conn: c, l: l}, nil
}

func (l *lecturesComptees) Driver() driver.Driver { return l.pilote }

type connComptee struct {
	driver.Conn
	l *lecturesComptees
}

func (c connComptee) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	c.l.requetes.Add(1)
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, q, args)
}

// TestIssue34_HistoriqueDUnJoueurEnUneRequete: a player's history, each
// game with its result (a classique meeting, an imported duplicate line),
// is read in one query whatever the page's length. It asked one query per
// game (101 for a page of 100: most of the query's CPU at 200 queries/s
// during an import, each statement contending with the fold's connection
// on SQLite's process-wide page cache and allocator locks).
func TestIssue34_HistoriqueDUnJoueurEnUneRequete(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), projection.FileName)
	db, err := projection.OpenDB(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	vues, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	run, err := projection.NewRunner(ctx, db, vues, store)
	require.NoError(t, err)
	archive := repository.Streams{Store: store, Registry: reg}
	const parTournoi = 3
	for n := range parTournoi {
		classique := "tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres\n" +
			strings.NewReplacer("T", fmt.Sprintf("c%d", n), "S", fmt.Sprint(400+n)).Replace(
				"T;Open;2018-03-10;1;T-1;L1;Joueur L1;Lyon;L2;S;380;3;1500;1512\n"+
					"T;Open;2018-03-10;1;T-1;L2;Joueur L2;Vichy;L1;380;S;1;1450;1438\n")
		for f, contenu := range []string{classique, fichierDuplicate2019(fmt.Sprintf("d%d", n), "L2", "L1")} {
			_, err = darchive.Importer(ctx, archive, fmt.Sprintf("%d-%d.csv", n, f), []byte(contenu), eventstore.Metadata{Actor: "test"})
			require.NoError(t, err)
		}
	}
	_, err = run.CatchUp(ctx, nil)
	require.NoError(t, err)

	pilote := db.Driver()
	lectures := &lecturesComptees{dsn: "file:" + path + "?mode=ro&_pragma=query_only(1)", pilote: pilote}
	lecture := sql.OpenDB(lectures)
	t.Cleanup(func() { lecture.Close() })
	projection.LireDans([]*projection.Runner{run}, lecture)
	r := &Resolver{Journal: store, Registry: reg, Archives: historique.NewLecteur(run), Lectures: []*projection.Runner{run}}

	conn, err := (&joueurArchiveResolver{r}).Historique(ctx, &model.JoueurArchive{ID: "L1"}, nil, nil)
	require.NoError(t, err)
	assert.EqualValues(t, 1, lectures.requetes.Load(), "one query for a page of %d games", 2*parTournoi)
	require.Len(t, conn.Edges, 2*parTournoi)
	for n := range parTournoi {
		c, d := conn.Edges[2*n].Node, conn.Edges[2*n+1].Node
		assert.Equal(t, fmt.Sprintf("c%d-1", n), c.Partie)
		require.NotNil(t, c.Score)
		assert.Equal(t, []any{400 + n, 380, 3, "L2"}, []any{*c.Score, *c.ScoreAdversaire, *c.PointsDeMatch, *c.Adversaire})
		assert.Equal(t, fmt.Sprintf("d%d-1", n), d.Partie)
		require.NotNil(t, d.Score)
		assert.Equal(t, []any{850, 920, 2}, []any{*d.Score, *d.Top, *d.Rang})
	}
}
