package enginetest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDocs_SharedPathVariable: one variable points the tests at another
// shared folder; without it the folder is ../shared beside the checkout.
func TestDocs_SharedPathVariable(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	moduleRoot := filepath.Join(filepath.Dir(file), "..", "..")
	autre := t.TempDir()
	tests := []struct {
		name, env, want string
	}{
		{"beside the checkout", "", filepath.Join(moduleRoot, "..", "shared", "oracle", "x.jsonl")},
		{"ARBITRE_SHARED", autre, filepath.Join(autre, "oracle", "x.jsonl")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(SharedVariable, tt.env)
			assert.Equal(t, filepath.Clean(tt.want), filepath.Clean(SharedPath("oracle/x.jsonl")))
		})
	}
}
