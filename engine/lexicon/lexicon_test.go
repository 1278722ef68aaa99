package lexicon

import (
	"bytes"
	"encoding/binary"
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
	var walk func(list uint32, prefix []byte)
	walk = func(list uint32, prefix []byte) {
		for i := list + 1; list != 0; i++ {
			a := lex.nodes[i]
			sym := byte('^')
			if ArcSymbol(a) != Separator {
				sym = 'A' + ArcSymbol(a) - 1
			}
			p := append(append([]byte{}, prefix...), sym)
			if ArcAccepts(a) {
				got = append(got, string(p))
			}
			walk(ArcChild(a), p)
			if ArcLast(a) {
				break
			}
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
