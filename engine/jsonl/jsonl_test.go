package jsonl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/jsonl"
)

// TestJSONL_LigneBlancheIgnoree: a blank line, empty or white space only,
// gets no answer; every other line gets one, in order, HTML unescaped.
func TestJSONL_LigneBlancheIgnoree(t *testing.T) {
	in := "a\n\n   \n\t\r\nb<c>\n"
	var out bytes.Buffer
	require.NoError(t, jsonl.Run(strings.NewReader(in), &out, func(line []byte) any { return string(line) }))
	assert.Equal(t, "\"a\"\n\"b<c>\"\n", out.String())
}
