package streamname_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arbitre/domain/eventstore/streamname"
)

// A table stream is "partie-<id>-table-<n>", n written as TableStream
// writes it; any other name is no table's (docs/charge.md).
func TestSousFlux_NomsDeTables(t *testing.T) {
	cases := []struct {
		stream    string
		principal string
		table     bool
	}{
		{"partie-g-table-3", "partie-g", true},
		{"partie-sim-7-11-table-12", "partie-sim-7-11", true},
		{"partie-a-table-1-table-2", "partie-a-table-1", true},
		{"partie-g", "", false},
		{"partie-g-table-", "", false},
		{"partie-g-table-0", "", false},
		{"partie-g-table-03", "", false},
		{"partie-g-table-+3", "", false},
		{"partie-g-table--3", "", false},
		{"partie-g-table-3a", "", false},
		{"partie-g-table-99999999999999999999", "", false},
		{"partie-g-table-9223372036854775807", "partie-g", true},
		{"partie-g-tables-3", "", false},
		{"match-g-table-3", "", false},
		{"-table-3", "", false},
		{"table-3", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		principal, table := streamname.MainStream(c.stream)
		assert.Equal(t, c.table, table, "%q", c.stream)
		assert.Equal(t, c.principal, principal, "%q", c.stream)
	}
}
