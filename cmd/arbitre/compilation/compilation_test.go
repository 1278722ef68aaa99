// Package compilation checks that the binary cross-compiles without cgo.
// It is a package of its own so that its builds, slow on a machine whose
// Go cache is cold, have their own test timeout beside cmd/arbitre's tests.
package compilation

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuild_CrossCompileSansCgo: the binary builds without cgo for the
// directors' laptops (Windows, macOS on Apple silicon) and the servers
// (Linux amd64 and arm64), one target after the other; the host's build
// carries the version, commit and date given by -ldflags -X and prints them.
func TestBuild_CrossCompileSansCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compilation of four targets: skipped under -short")
	}
	racine, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	ldflags := "-X main.version=v9.9.9 -X main.commit=cafe123 -X main.buildDate=2026-11-23T07:00:00Z"
	for _, cible := range []struct{ goos, goarch string }{
		{"windows", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"},
	} {
		sortie := filepath.Join(dir, "arbitre-"+cible.goos+"-"+cible.goarch)
		build := exec.Command("go", "build", "-ldflags", ldflags, "-o", sortie, "./cmd/arbitre")
		build.Dir = racine
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+cible.goos, "GOARCH="+cible.goarch)
		out, err := build.CombinedOutput()
		require.NoError(t, err, "%s/%s:\n%s", cible.goos, cible.goarch, out)
		if cible.goos == runtime.GOOS && cible.goarch == runtime.GOARCH {
			out, err := exec.Command(sortie, "version").CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Equal(t, "arbitre v9.9.9\ncommit : cafe123\nconstruit le : 2026-11-23T07:00:00Z\n", string(out))
		}
	}
}
