//go:build linux

package lexicon_test

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/lexicon/libre"
)

// TestArcs_TableSurGrandesPages: the table the walk reads (5.9 MB for the
// shipped list, 8.2 MB for ODS8) starts on a 2 MB boundary, so that it can
// sit on transparent huge pages, a few TLB entries instead of two thousand
// (issue 34 item 4, séance 10); a small list stays on the Go heap.
func TestArcs_TableSurGrandesPages(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	arcs := lex.Arcs()
	require.Greater(t, len(arcs)*8, 2<<20)
	assert.Zero(t, uintptr(unsafe.Pointer(&arcs[0]))%(2<<20), "table des arcs alignée sur 2 Mo")

}
