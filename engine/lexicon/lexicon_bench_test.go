package lexicon_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"arbitre/engine/enginetest"
	"arbitre/engine/lexicon"
)

// BenchmarkLoadCompiledODS8 measures loading a compiled ODS-size lexicon
// (the issue asks for well under 100 ms).
func BenchmarkLoadCompiledODS8(b *testing.B) {
	lex := enginetest.ODS8(b)
	path := filepath.Join(b.TempDir(), "ods8.lex")
	f, err := os.Create(path)
	require.NoError(b, err)
	_, err = lex.WriteTo(f)
	require.NoError(b, err)
	require.NoError(b, f.Close())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := lexicon.Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileODS8 measures compiling the 411,430-word list.
func BenchmarkCompileODS8(b *testing.B) {
	path := enginetest.SharedPath("lexicons/ods8.txt.gz")
	if _, err := os.Stat(path); err != nil {
		b.Skipf("ODS8 word list not available: %v", err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := lexicon.Load(path); err != nil {
			b.Fatal(err)
		}
	}
}
