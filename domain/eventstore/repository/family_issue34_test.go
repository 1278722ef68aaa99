package repository

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// salle is the reading of a 2,000-player hall's game: the game's stream
// and its 100 tables', 40 events each.
func salle() FamilyRead {
	l := NewFamilyRead("partie-s").copie()
	l.avancer("partie-s", 40, 40)
	for t := range 100 {
		l.avancer(fmt.Sprintf("partie-s-table-%d", t+1), 40, uint64(80+t))
	}
	return l
}

// Issue 34 item 3: a reading read on or saved (copie, then avancer) counts
// its own events and leaves the reading it came from as it was, which the
// game kept and its copies share; a stream met for the first time is
// counted in its place.
func TestIssue34_LectureDUneFamilleCopieeSansPartage(t *testing.T) {
	l := salle()
	a, b := l.copie(), l.copie()
	a.avancer("partie-s-table-7", 2, 500)
	a.avancer("partie-s-table-0", 1, 501)
	b.avancer("partie-s", 3, 502)
	assert.Equal(t, 4040, l.Version())
	assert.Equal(t, 40, l.Count("partie-s-table-7"))
	assert.Equal(t, 0, l.Count("partie-s-table-0"))
	assert.Equal(t, 40, l.Count("partie-s"))
	assert.Equal(t, 42, a.Count("partie-s-table-7"))
	assert.Equal(t, 1, a.Count("partie-s-table-0"))
	assert.Equal(t, 40, a.Count("partie-s"))
	assert.Equal(t, 4043, a.Version())
	assert.Equal(t, 43, b.Count("partie-s"))
	assert.Equal(t, 40, b.Count("partie-s-table-7"))
	assert.Equal(t, uint64(502), b.Main)
	assert.Equal(t, uint64(501), a.Sections)
}

// BenchmarkIssue34_LectureDUneSalle reads on a 2,000-player hall's game
// by one bulletin, as each command does three times (issue 34).
func BenchmarkIssue34_LectureDUneSalle(b *testing.B) {
	l := salle()
	b.ReportAllocs()
	for range b.N {
		c := l.copie()
		c.avancer("partie-s-table-42", 1, 9000)
	}
}
