package projection

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lectureCompteur reads a constant answer and counts its reads.
type lectureCompteur struct {
	lectures atomic.Int64
	garder   bool
	err      error
}

func (l *lectureCompteur) lire(string) func(int, bool) (int, bool, error) {
	return func(int, bool) (int, bool, error) {
		l.lectures.Add(1)
		return 42, l.garder, l.err
	}
}

// The read side's one cache: an answer is read again only when the read
// model moved on, only answers worth keeping are kept, errors never, and
// at most max of them, the least recently read dropped first.
func TestMemo_UneLectureParPositionBornee(t *testing.T) {
	cas := []struct {
		nom        string
		garder     bool
		err        error
		avance     bool // the read model applies an event between the two reads
		lectures   int64
		gardeApres bool
	}{
		{"kept and current: read once", true, nil, false, 1, true},
		{"the read model moved on: read again", true, nil, true, 2, true},
		{"not worth keeping (an unknown id): read each time, nothing kept", false, nil, false, 2, false},
		{"an error is not kept", true, errors.New("lecture impossible"), false, 2, false},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			var pos atomic.Uint64
			m := NewMemo[int](pos.Load, 4)
			l := &lectureCompteur{garder: c.garder, err: c.err}
			for range 2 {
				v, err := m.Lire("p1", l.lire("p1"))
				if c.err != nil {
					require.ErrorIs(t, err, c.err)
				} else {
					require.NoError(t, err)
					assert.Equal(t, 42, v)
				}
				if c.avance {
					pos.Add(1)
				}
			}
			assert.Equal(t, c.lectures, l.lectures.Load())
			assert.Equal(t, c.gardeApres, m.Garde("p1"))
		})
	}
}

func TestMemo_LeMoinsRecemmentLuSortLePremier(t *testing.T) {
	var pos atomic.Uint64
	m := NewMemo[int](pos.Load, 2)
	l := &lectureCompteur{garder: true}
	for _, cle := range []string{"a", "b", "a", "c"} {
		_, err := m.Lire(cle, l.lire(cle))
		require.NoError(t, err)
	}
	assert.True(t, m.Garde("a"), "read again after b: kept")
	assert.False(t, m.Garde("b"), "the least recently read goes first")
	assert.True(t, m.Garde("c"))
	assert.Equal(t, 2, m.Len())
}

// Concurrent askers of one key share one read.
func TestMemo_DemandesSimultaneesUneLecture(t *testing.T) {
	var pos atomic.Uint64
	m := NewMemo[int](pos.Load, 4)
	debut := make(chan struct{})
	var lectures atomic.Int64
	lire := func(int, bool) (int, bool, error) {
		lectures.Add(1)
		<-debut
		return 7, true, nil
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			v, err := m.Lire("p", lire)
			assert.NoError(t, err)
			assert.Equal(t, 7, v)
		})
	}
	close(debut)
	wg.Wait()
	assert.Equal(t, int64(1), lectures.Load())
}
