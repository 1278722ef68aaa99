// Package cpuprofile runs a step of a CLI command under a CPU profile, the
// --profile DIR of the benchmarks, the simulations and the rebuild.
package cpuprofile

import (
	"os"
	"path/filepath"
	"runtime/pprof"
)

// Run runs f under a CPU profile written to dir/name.pprof (no profile
// without dir).
func Run(dir, name string, f func() error) error {
	if dir == "" {
		return f()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	file, err := os.Create(filepath.Join(dir, name+".pprof"))
	if err != nil {
		return err
	}
	defer file.Close()
	if err := pprof.StartCPUProfile(file); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	return f()
}
