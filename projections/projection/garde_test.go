package projection_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/projections/projection"
)

// lecturesDePoints counts the reads of a checkpoint through the driver
// "sqlite-points" (the projections' driver, counting).
var lecturesDePoints atomic.Int64

var enregistrerPilote sync.Once

// piloteCompte is the sqlite driver counting the queries that read a
// checkpoint.
type piloteCompte struct{ driver.Driver }

func (p piloteCompte) Open(name string) (driver.Conn, error) {
	c, err := p.Driver.Open(name)
	if err != nil {
		return nil, err
	}
	return connCompte{c}, nil
}

type connCompte struct{ driver.Conn }

func (c connCompte) Prepare(query string) (driver.Stmt, error) {
	s, err := c.Conn.Prepare(query)
	if err != nil {
		return nil, err
	}
	return stmtCompte{Stmt: s, lecture: strings.HasPrefix(query, "SELECT position, hash, magasin FROM projection_checkpoints")}, nil
}

type stmtCompte struct {
	driver.Stmt
	lecture bool
}

//nolint:staticcheck // database/sql calls Query on a driver statement without QueryContext
func (s stmtCompte) Query(args []driver.Value) (driver.Rows, error) {
	if s.lecture {
		lecturesDePoints.Add(1)
	}
	return s.Stmt.Query(args) //nolint:staticcheck // the wrapped driver's own Query
}

// salleComptee is a salle whose projections' database counts the reads of
// the checkpoints (lecturesDePoints).
func salleComptee(t *testing.T, n int) *salle {
	t.Helper()
	enregistrerPilote.Do(func() {
		db, err := sql.Open("sqlite", ":memory:")
		require.NoError(t, err)
		sql.Register("sqlite-points", piloteCompte{db.Driver()})
		require.NoError(t, db.Close())
	})
	s := nouvelleSalle(t, 0)
	require.NoError(t, s.db.Close())
	db, err := sql.Open("sqlite-points", "file:"+filepath.Join(s.dir, "comptee.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_txlock=immediate")
	require.NoError(t, err)
	s.db = db // closed with the store (nouvelleSalle)
	avance := projection.NewAvance(s.store, nil)
	for i := range n {
		r, err := projection.NewRunner(context.Background(), db, releve(string(rune('a'+i))), s.store)
		require.NoError(t, err)
		r.Avance = avance
		s.runners = append(s.runners, r)
	}
	return s
}

// Issue 34 item 3: a runner keeps the checkpoint it committed and its next
// batch takes it rather than reading it (before, every batch of every read
// model began with a query of its checkpoint: five batches, five reads a
// runner); its write checks it still is the database's.
func TestIssue34_PointDeRepriseGardeEntreDeuxLots(t *testing.T) {
	s := salleComptee(t, 2)
	s.ajouter(t, 1)
	for _, err := range s.livrer(t, 1) {
		require.NoError(t, err)
	}
	avant := lecturesDePoints.Load()
	for p := 2; p <= 6; p++ {
		s.ajouter(t, 1)
		for _, err := range s.livrer(t, p) {
			require.NoError(t, err)
		}
	}
	assert.Zero(t, lecturesDePoints.Load()-avant, "checkpoint reads for 5 batches of 2 runners")
	for _, r := range s.runners {
		cp, err := r.Checkpoint(context.Background())
		require.NoError(t, err)
		assert.EqualValues(t, 6, cp)
	}
}

// Issue 34 item 3: a checkpoint moved in the database behind the runner's
// back (another writer) is never taken for the one it kept: the batch
// that finds another at its write is applied again from the one it reads,
// as before, and the read model stays its rebuild's.
func TestIssue34_PointDeRepriseDeplaceParUnAutre(t *testing.T) {
	s := nouvelleSalle(t, 1)
	r := s.runners[0]
	s.ajouter(t, 3)
	for p := 1; p <= 3; p++ {
		for _, err := range s.livrer(t, p) {
			require.NoError(t, err)
		}
	}
	// Another writer applied event 4 and moved the checkpoint on.
	s.ajouter(t, 1)
	autre, err := projection.NewRunner(context.Background(), s.db, releve(r.Name()), s.store)
	require.NoError(t, err)
	quatre, err := s.store.ReadAllAfter(context.Background(), 3, 1)
	require.NoError(t, err)
	_, err = autre.Apply(context.Background(), quatre)
	require.NoError(t, err)

	s.ajouter(t, 1)
	for _, err := range s.livrer(t, 5) {
		require.NoError(t, err)
	}
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	assert.EqualValues(t, 5, cp)
	assert.EqualValues(t, 5, r.Position())
	var n int
	require.NoError(t, s.db.QueryRow(`SELECT COUNT(*) FROM `+r.Name()).Scan(&n))
	assert.Equal(t, 5, n, "each event applied once")
}

// Issue 34 item 3: a checkpoint whose hash was changed in the database
// behind the runner's back (at the position it kept) is found at the
// batch's write: the batch is applied again from the checkpoint it reads,
// whose hash the next event does not extend, and stops there, as it did
// when every batch read it.
func TestIssue34_PointDeRepriseAltereDerriereLeRunner(t *testing.T) {
	s := nouvelleSalle(t, 1)
	r := s.runners[0]
	s.ajouter(t, 3)
	for p := 1; p <= 3; p++ {
		for _, err := range s.livrer(t, p) {
			require.NoError(t, err)
		}
	}
	_, err := s.db.Exec(`UPDATE projection_checkpoints SET hash = x'00' WHERE projection = ?`, r.Name())
	require.NoError(t, err)
	s.ajouter(t, 1)
	for _, err := range s.livrer(t, 4) {
		require.ErrorIs(t, err, eventstore.ErrTampered)
	}
	cp, err := r.Checkpoint(context.Background())
	require.NoError(t, err)
	assert.EqualValues(t, 3, cp)
	var n int
	require.NoError(t, s.db.QueryRow(`SELECT COUNT(*) FROM `+r.Name()).Scan(&n))
	assert.Equal(t, 3, n)
}
