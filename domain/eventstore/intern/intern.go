package intern

import (
	"hash/maphash"
	"sync/atomic"
)

// Intern is b as a string, the one given before for the same bytes when
// the cache still holds it: stream names, types, metadata, licences,
// arbiters and words repeat all along a tournament's log, so reading and
// decoding it allocate most of its strings once, and hold them once in
// memory. The cache is a fixed table of atomic pointers shared by every
// goroutine that reads or decodes (issue 16, item 10).
func Intern(b []byte) string {
	entree := &interned[maphash.Bytes(graine, b)%uint64(len(interned))]
	if p := entree.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	entree.Store(&s)
	return s
}

var (
	interned [1 << 16]atomic.Pointer[string]
	graine   = maphash.MakeSeed()
)
