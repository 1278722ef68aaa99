// Package enginetest gives the engine's tests and benchmarks the licensed
// word lists and reference positions of ../shared when they are present,
// read in place and compiled once per test binary; callers skip otherwise.
package enginetest

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"arbitre/engine/lexicon"
)

// SharedVariable names the environment variable that points the tests at
// another shared folder; unset or empty, the folder is ../shared, beside the
// checkout (relative to the module root, whatever the test's directory).
const SharedVariable = "ARBITRE_SHARED"

// SharedPath locates a file of the shared folder: $ARBITRE_SHARED when set,
// else the folder that sits beside the repository (../shared from the
// module root).
func SharedPath(rel string) string {
	if dir := os.Getenv(SharedVariable); dir != "" {
		return filepath.Join(dir, rel)
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(root, "..", "shared", rel)
}

var (
	odsOnce sync.Once
	ods8    *lexicon.Lexicon
	odsErr  error
)

// ODS8 returns the ODS8 lexicon, compiled once per test binary, or skips the
// test when ../shared/lexicons is absent.
func ODS8(tb testing.TB) *lexicon.Lexicon {
	tb.Helper()
	path := SharedPath("lexicons/ods8.txt.gz")
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("ODS8 word list not available (%v): skipped", err)
	}
	odsOnce.Do(func() { ods8, odsErr = lexicon.Load(path) })
	if odsErr != nil {
		tb.Fatalf("loading ODS8: %v", odsErr)
	}
	return ods8
}

// ListeLivree returns the words of the list Arbitre ships
// (engine/lexicon/libre/words.txt.gz), in its order.
func ListeLivree(tb testing.TB) []string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	f, err := os.Open(filepath.Join(filepath.Dir(file), "..", "lexicon", "libre", "words.txt.gz"))
	if err != nil {
		tb.Fatalf("opening the shipped list: %v", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("reading the shipped list: %v", err)
	}
	list, err := lexicon.ReadWords(z)
	if err != nil {
		tb.Fatalf("reading the shipped list: %v", err)
	}
	return list.Words
}
