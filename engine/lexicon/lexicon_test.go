package lexicon

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFold(t *testing.T) {
	cases := []struct {
		in, want string
		err      bool
	}{
		{"élève", "ELEVE", false},
		{"Garçon", "GARCON", false},
		{"cœur", "COEUR", false},
		{"Ægypan", "AEGYPAN", false},
		{"  naïf \r", "NAIF", false},
		{"aujourd'hui", "", true},
		{"peut-être", "", true},
		{"abc1", "", true},
	}
	for _, c := range cases {
		got, err := Fold(c.in)
		if c.err {
			assert.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got)
	}
}

func TestReadWordsNamesTheBadLine(t *testing.T) {
	_, err := ReadWords(strings.NewReader("abc\n\nde-f\n"))
	assert.ErrorContains(t, err, "ligne 3")
	list, err := ReadWords(strings.NewReader("zoo\nABC\nabc\nA\nanticonstitutionnellement\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"ABC", "ZOO"}, list.Words)
	assert.Equal(t, 1, list.TooLong)
}

func small(t *testing.T, words ...string) *Lexicon {
	t.Helper()
	list, err := ReadWords(strings.NewReader(strings.Join(words, "\n")))
	require.NoError(t, err)
	lex, err := Build(list, "test")
	require.NoError(t, err)
	return lex
}

func TestContains(t *testing.T) {
	lex := small(t, "CARE", "CARES", "CAR", "SCARE", "ACRE", "RACE", "AS")
	for _, w := range []string{"CARE", "CARES", "CAR", "SCARE", "ACRE", "RACE", "AS"} {
		assert.True(t, lex.ContainsString(w), w)
	}
	for _, w := range []string{"CA", "ARE", "SCAR", "CARESS", "A", "", "ECAR", "RAC"} {
		assert.False(t, lex.ContainsString(w), w)
	}
	assert.Equal(t, 7, lex.Words())
}

// Every path of the GADDAG spells a word with a pivot: enumerate them all and
// check they are exactly the expected ones.
func TestGaddagPaths(t *testing.T) {
	words := []string{"AB", "ABC", "BC"}
	lex := small(t, words...)
	var got []string
	var walk func(node Arc, prefix []byte)
	walk = func(node Arc, prefix []byte) {
		for m := node.Symbols(); m != 0; m &= m - 1 {
			bit := m & -m
			a := lex.nodes[node.At(bit)]
			sym := byte('^')
			if bit != 1<<Separator {
				sym = 'A' + byte(bits.TrailingZeros32(bit)) - 1
			}
			p := append(append([]byte{}, prefix...), sym)
			if a.Accepts() {
				got = append(got, string(p))
			}
			walk(a, p)
		}
	}
	walk(lex.Root(), nil)
	assert.ElementsMatch(t, []string{"A^B", "BA", "A^BC", "BA^C", "CBA", "B^C", "CB"}, got)
}

func TestCompiledRoundTrip(t *testing.T) {
	lex := small(t, "ZYTHUM", "ZYTHON", "ZEBU", "ZEBRE", "ZEN")
	var buf bytes.Buffer
	_, err := lex.WriteTo(&buf)
	require.NoError(t, err)
	back, err := Decode(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, lex.disk, back.disk)
	assert.Equal(t, lex.nodes, back.nodes)
	assert.Equal(t, "test", back.Label())
	assert.True(t, back.ContainsString("zebre"))

	damaged := append([]byte{}, buf.Bytes()...)
	damaged[len(damaged)-3] ^= 0xff
	_, err = Decode(damaged)
	assert.ErrorIs(t, err, ErrCorrupt)
	_, err = Decode(buf.Bytes()[:buf.Len()-4])
	assert.ErrorIs(t, err, ErrCorrupt)
	future := append([]byte{}, buf.Bytes()...)
	future[8] = 9
	_, err = Decode(future)
	assert.ErrorContains(t, err, "version 9")
}

// TestIdentite_StableAuTravers: the identity is the same built in memory and
// read back from the compiled file, equal to the file header's checksum, and
// differs between two lists.
func TestIdentite_StableAuTravers(t *testing.T) {
	a := small(t, "CARE", "CARES")
	var buf bytes.Buffer
	_, err := a.WriteTo(&buf)
	require.NoError(t, err)
	relu, err := Decode(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, a.Identite(), relu.Identite())
	assert.Equal(t, Identite{Label: "test", Mots: 2, Somme: binary.LittleEndian.Uint32(buf.Bytes()[24:])}, a.Identite())
	assert.NotEqual(t, a.Identite(), small(t, "CARE", "RACE").Identite())
}

// TestFormeDeMarche_ChaqueArcPorteLesSymbolesDeSaListe: the walking form
// (Arc) is the compiled form read again: each arc carries exactly the
// symbols of its child's compiled list and its "accepts", and the arc At a
// symbol is the one of that symbol, on a list whose words share prefixes
// and suffixes as a language's do.
func TestFormeDeMarche_ChaqueArcPorteLesSymbolesDeSaListe(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 4))
	words := make([]string, 0, 3000)
	for range cap(words) {
		w := make([]byte, 2+rng.IntN(7))
		for i := range w {
			w[i] = "AEIRSTNLZ"[rng.IntN(9)]
		}
		words = append(words, string(w))
	}
	lex := small(t, words...)
	seen := map[uint32]Arc{}
	arcs := 0
	var compare func(list uint32, node Arc)
	compare = func(list uint32, node Arc) {
		if list == 0 {
			require.Zero(t, node.Symbols())
			return
		}
		if earlier, ok := seen[list]; ok {
			require.Equal(t, earlier, node, "list %d reached by two different arcs", list)
			return
		}
		seen[list] = node
		var symbols uint32
		for i := list; ; i++ {
			a := lex.disk[i]
			bit := uint32(1) << arcSymbol(a)
			symbols |= bit
			arcs++
			require.NotZero(t, node.Symbols()&bit, "symbol %d of list %d", arcSymbol(a), list)
			w := lex.nodes[node.At(bit)]
			require.Equal(t, arcAccepts(a), w.Accepts(), "arc %d", i)
			compare(arcChild(a), w)
			if arcLast(a) {
				break
			}
		}
		require.Equal(t, symbols, node.Symbols(), "list %d", list)
	}
	compare(arcChild(lex.disk[0]), lex.Root())
	assert.Equal(t, len(lex.disk)-1, arcs, "every compiled arc reached once")
}
