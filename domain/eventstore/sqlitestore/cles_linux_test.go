package sqlitestore

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
)

// octetsEcrits is what this process wrote so far (wchar of /proc/self/io).
func octetsEcrits(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err)
			return n
		}
	}
	t.Fatal("no wchar in /proc/self/io")
	return 0
}

// Issue 34 item 3: a command's key costs its commit no byte. An index of
// the keys on the table (actor, causation id, request) wrote one more page
// of it for each bulletin, a key landing anywhere in it: 22.8 KB per
// append against 15.3 KB without (2,000 appends of 100 arbiters' keys).
// The keys are kept in memory instead: an append under a key writes what
// the same append without one does, within 10 %.
func TestIssue34_CleSansOctetEcrit(t *testing.T) {
	ctx := context.Background()
	s, err := OpenDir(ctx, t.TempDir(), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	const ajouts = 600
	ecrire := func(coup int, cle bool) int64 {
		avant := octetsEcrits(t)
		for i := range ajouts {
			e := sousCle(fmt.Sprintf("jeton:%d", i%100), "", "")
			if cle {
				e.Metadata.CausationID, e.Metadata.Request = fmt.Sprintf("saisie-L%d-c%d", i, coup), fmt.Sprintf("deposerBulletin:%032x", i*coup)
			}
			_, err := s.Append(ctx, fmt.Sprintf("partie-s-table-%d", i%100), eventstore.Any, e)
			require.NoError(t, err)
		}
		return octetsEcrits(t) - avant
	}
	ecrire(1, true) // the tables' pages, the first time
	sans, avec := ecrire(2, false), ecrire(3, true)
	assert.LessOrEqual(t, float64(avec), 1.1*float64(sans), "bytes written: %d per append with a key, %d without", avec/ajouts, sans/ajouts)
}
