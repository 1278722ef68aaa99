package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVersion_VersionCommitDate: the build facts come from the VCS settings
// the toolchain records, and what it does not know says so.
func TestVersion_VersionCommitDate(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want buildFacts
	}{
		{"tagged module with VCS facts", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-23T06:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			true, buildFacts{"v1.4.0", "0123abcd", "2026-11-23T06:00:00Z"}},
		{"local build of a modified checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-23T06:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			true, buildFacts{"inconnue", "0123abcd (modifié)", "2026-11-23T06:00:00Z"}},
		{"no build info", nil, false, buildFacts{"inconnue", "inconnu", "inconnue"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, factsOf(tt.info, tt.ok))
		})
	}
}
