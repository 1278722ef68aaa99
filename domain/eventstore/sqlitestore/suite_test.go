package sqlitestore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	zsqlite "zombiezen.com/go/sqlite"
)

// TestIssue34_SuiteDUnePartieParLeJournal: a repository's kept game reads
// on from its last position (ReadSections after > 0) by walking the global
// log from there, a few events. SQLite planned it over the streams' index
// instead (stream = ? OR stream range), every event of the game and its
// tables sorted again at each read: a 2,000-player hall's bulletins read
// 4,000 events per bulletin by the end of a coup, 34 ms per read of the
// simulated game of 90,000.
func TestIssue34_SuiteDUnePartieParLeJournal(t *testing.T) {
	s, err := OpenDir(context.Background(), t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	conn, err := zsqlite.OpenConn(s.Path(), zsqlite.OpenReadOnly)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	stmt, _, err := conn.PrepareTransient("EXPLAIN QUERY PLAN " + lectureSuite)
	require.NoError(t, err)
	defer stmt.Finalize()
	var plan []string
	for {
		ok, err := stmt.Step()
		require.NoError(t, err)
		if !ok {
			break
		}
		plan = append(plan, stmt.ColumnText(3))
	}
	require.NotEmpty(t, plan)
	assert.Equal(t, "SEARCH events USING INTEGER PRIMARY KEY (rowid>?)", plan[0], strings.Join(plan, "; "))
	assert.NotContains(t, strings.Join(plan, "; "), "TEMP B-TREE", "the log is in position order already")
}
