package projection

import (
	"container/list"
	"sync"
)

// Memo keeps a read model's answers between reads, each until its runner
// moves on: a hall of displays asking 200 times a second costs one read per
// change of the read model, not one per request. It is the one cache of
// the read side; a read type decides what it keeps in it (standings.Lecteur
// and parties.Lecteur do; the archive's reads, rare and paged, do not).
//
// Concurrent askers of one key share one read. Only answers worth keeping
// are kept (a game or standings that exist), at most max, the least
// recently read dropped first: an id a client names keeps no memory past
// its request unless what it names exists. It is safe for concurrent use.
type Memo[V any] struct {
	// position is how far the read model has applied the log (its
	// runner's Position): an answer read at or after it is current.
	position func() uint64
	max      int
	mu       sync.Mutex
	entrees  map[string]*entreeMemo[V]
	recence  list.List // of the kept entries, most recently read first
}

type entreeMemo[V any] struct {
	cle string
	// el is the entry's place in recence once kept (Memo.mu held).
	el *list.Element
	mu sync.Mutex
	// valide says v, read at position, is kept.
	valide   bool
	position uint64
	v        V
}

// NewMemo returns an empty memo of at most max answers (max > 0) of a read
// model whose runner has applied the log up to position().
func NewMemo[V any](position func() uint64, max int) *Memo[V] {
	return &Memo[V]{position: position, max: max, entrees: map[string]*entreeMemo[V]{}}
}

// Lire answers cle from the memo when its answer is as recent as the read
// model, and otherwise reads it once while concurrent askers of cle wait:
// lire gets the answer kept, when there is one, so it may read only what
// changed, and says whether its answer is worth keeping. The position is
// taken before reading, so the answer is at least that recent. Errors are
// not kept.
func (m *Memo[V]) Lire(cle string, lire func(ancien V, connu bool) (v V, garder bool, err error)) (V, error) {
	pos := m.position()
	m.mu.Lock()
	e := m.entrees[cle]
	if e == nil {
		e = &entreeMemo[V]{cle: cle}
		m.entrees[cle] = e
	} else if e.el != nil {
		m.recence.MoveToFront(e.el)
	}
	m.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.valide && e.position >= pos {
		return e.v, nil
	}
	v, garder, err := lire(e.v, e.valide)
	if err != nil || !garder {
		m.oublier(e)
		return v, err
	}
	e.valide, e.position, e.v = true, pos, v
	m.garder(e)
	return v, nil
}

// garderPoint keeps e, unless another entry of its key replaced it, and drops
// the least recently read beyond the bound.
func (m *Memo[V]) garder(e *entreeMemo[V]) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if autre, ok := m.entrees[e.cle]; ok && autre != e {
		return
	}
	m.entrees[e.cle] = e
	if e.el == nil {
		e.el = m.recence.PushFront(e)
	}
	for m.recence.Len() > m.max {
		ancien := m.recence.Remove(m.recence.Back()).(*entreeMemo[V])
		ancien.el = nil
		if m.entrees[ancien.cle] == ancien {
			delete(m.entrees, ancien.cle)
		}
	}
}

// oublier drops e, unless another entry of its key replaced it.
func (m *Memo[V]) oublier(e *entreeMemo[V]) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entrees[e.cle] == e {
		delete(m.entrees, e.cle)
	}
	if e.el != nil {
		m.recence.Remove(e.el)
		e.el = nil
	}
}

// Len is the number of keys the memo holds an entry for.
func (m *Memo[V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entrees)
}

// Garde tells whether the memo keeps an answer for cle.
func (m *Memo[V]) Garde(cle string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.entrees[cle]
	return ok
}
