//go:build linux

package lexicon

import (
	"runtime"
	"syscall"
	"unsafe"
)

// grandePage is the size of an x86-64 (and arm64) transparent huge page.
const grandePage = 2 << 20

// tableArcs returns a table of n arcs for the walk. From one huge page up it
// is mapped outside the Go heap, aligned on huge pages and advised as such
// (MADV_HUGEPAGE; the kernel falls back to small pages when it has none):
// the walk jumps across the whole table (8 MB for ODS8), and with 4 KB pages
// about every list it reads misses the TLB as well as the cache (issue 34
// item 4, séance 10). The mapping is unmapped once owner is unreachable;
// the table must not be used without owner.
func tableArcs(n int, owner *Lexicon) []Arc {
	octets := n * int(unsafe.Sizeof(Arc(0)))
	if octets < grandePage {
		return make([]Arc, n)
	}
	taille := (octets+grandePage-1)/grandePage*grandePage + grandePage
	m, err := syscall.Mmap(-1, 0, taille, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]Arc, n)
	}
	debut := (grandePage - int(uintptr(unsafe.Pointer(unsafe.SliceData(m))))%grandePage) % grandePage
	alignee := m[debut : taille-grandePage+debut]
	// Advice only: without huge pages the table works the same.
	_ = syscall.Madvise(alignee, syscall.MADV_HUGEPAGE)
	runtime.AddCleanup(owner, func(m []byte) { _ = syscall.Munmap(m) }, m)
	return unsafe.Slice((*Arc)(unsafe.Pointer(unsafe.SliceData(alignee))), n)
}
