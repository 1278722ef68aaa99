// Package compilation checks that the binary cross-compiles without cgo.
// It is a package of its own so that its work has its own test timeout
// beside cmd/arbitre's tests.
package compilation

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// targets are the directors' laptops (Windows, macOS on Apple silicon) and
// the servers (Linux amd64 and arm64), each with the lock file of its
// system.
var targets = []struct{ goos, goarch, lock string }{
	{"windows", "amd64", "lock_windows.go"},
	{"darwin", "arm64", "lock_unix.go"},
	{"linux", "amd64", "lock_unix.go"},
	{"linux", "arm64", "lock_unix.go"},
}

// TestBuild_CrossCompileSansCgo: the binary builds without cgo for every
// target. Compiling four targets from an empty Go cache took 4–5 minutes
// of the README's first `go test ./...` on 2 cores (issue 26 item 1), so
// each target is type-checked from source instead, every package of the
// binary with its dependencies, as the compiler's front end does with
// CGO_ENABLED=0 and the target's GOOS/GOARCH (about 10 s of CPU each, no
// code generation): a package that needs cgo, has no file for the target
// or does not type-check there (a system call of one system in a file
// built for all) fails the test. Then the host's binary is built and run:
// it carries the version, commit and date given by -ldflags -X.
func TestBuild_CrossCompileSansCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compilation of four targets: skipped under -short")
	}
	racine, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	ctx := context.Background()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	t.Run("targets", func(t *testing.T) {
		for _, cible := range targets {
			t.Run(cible.goos+"-"+cible.goarch, func(t *testing.T) {
				t.Parallel()
				typeCheck(t, ctx, racine, cible.goos, cible.goarch, cible.lock)
			})
		}
	})

	sortie := filepath.Join(t.TempDir(), "arbitre")
	ldflags := "-X main.version=v9.9.9 -X main.commit=cafe123 -X main.buildDate=2026-11-23T07:00:00Z"
	build := exec.CommandContext(ctx, "go", "build", "-ldflags", ldflags, "-o", sortie, "./cmd/arbitre")
	build.Dir = racine
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.CommandContext(ctx, sortie, "version").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "arbitre v9.9.9\ncommit : cafe123\nconstruit le : 2026-11-23T07:00:00Z\n", string(out))
}

// typeCheck loads ./cmd/arbitre and every package it imports from source
// for goos/goarch without cgo, type-checks them all and fails on any
// error; cmd/arbitre must hold the target's lock file.
func typeCheck(t *testing.T, ctx context.Context, racine, goos, goarch, lock string) {
	cfg := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps |
			packages.NeedTypes | packages.NeedSyntax,
		Dir: racine,
		Env: append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch),
	}
	pkgs, err := packages.Load(cfg, "./cmd/arbitre")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	checked := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		checked++
		for _, e := range p.Errors {
			t.Errorf("%s/%s: %s: %s", goos, goarch, p.PkgPath, e)
		}
		assert.True(t, p.Types != nil && p.Types.Complete(), "%s/%s: %s is type-checked", goos, goarch, p.PkgPath)
	})
	assert.Greater(t, checked, 100, "the binary's dependencies were checked too")
	var files []string
	for _, f := range pkgs[0].GoFiles {
		files = append(files, filepath.Base(f))
	}
	assert.True(t, slices.Contains(files, lock), "%s/%s builds %s: %v", goos, goarch, lock, files)
}
