package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// WordList is a folded, sorted, deduplicated list of playable words.
type WordList struct {
	Words []string
	// TooLong counts the entries of more than 15 letters, which no 15×15
	// board can hold and which are therefore left out.
	TooLong int
}

// MaxWordLength is the longest word a row or column can hold.
const MaxWordLength = 15

// The bounds of a plain word list (docs/securite.md): ODS8 is 411,430
// words on as many lines, 4.6 MB once inflated, its longest line 25 bytes.
// A list past them, a gzip bomb among others, is refused as soon as it
// crosses one, before it is read further.
const (
	// TailleListeMax bounds the list, inflated.
	TailleListeMax = 32 << 20
	// LignesMax bounds its lines, blank ones included.
	LignesMax = 2_000_000
	// MotsMax bounds its words (before duplicates are removed), LettresMax
	// their letters (ODS8: 4,031,818): the compiled automaton grows with
	// them.
	MotsMax    = 1_000_000
	LettresMax = 5_000_000
	// LigneMax bounds a line, in bytes.
	LigneMax = 1 << 10
)

// errListeTropGrande is what bornee returns past TailleListeMax.
var errListeTropGrande = fmt.Errorf("liste de mots : plus de %d octets une fois décompressée (%d Mio au plus)", TailleListeMax, TailleListeMax>>20)

// bornee reads r and fails once more than TailleListeMax bytes came.
type bornee struct {
	r io.Reader
	n int64
}

func (b *bornee) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if b.n += int64(n); b.n > TailleListeMax {
		return n, errListeTropGrande
	}
	return n, err
}

// ReadWords reads a plain word list (one word per line, any case, accents
// allowed, optionally gzip-compressed), within the bounds above. Blank
// lines are skipped; a line holding anything but letters is an error
// naming the line.
func ReadWords(r io.Reader) (WordList, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, err := br.Peek(2); err == nil && bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return WordList{}, fmt.Errorf("liste de mots : gzip illisible : %w", err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	var list WordList
	lettres := 0
	sc := bufio.NewScanner(&bornee{r: br})
	sc.Buffer(make([]byte, LigneMax), LigneMax)
	line := 1
	for ; sc.Scan(); line++ {
		if line > LignesMax {
			return WordList{}, fmt.Errorf("liste de mots : plus de %d lignes", LignesMax)
		}
		raw := sc.Text()
		if strings.TrimSpace(raw) == "" {
			continue
		}
		w, err := Fold(raw)
		if err != nil {
			return WordList{}, fmt.Errorf("liste de mots, ligne %d (%q) : %w", line, raw, err)
		}
		switch {
		case len(w) > MaxWordLength:
			list.TooLong++
		case len(w) >= 2:
			if len(list.Words) == MotsMax {
				return WordList{}, fmt.Errorf("liste de mots : plus de %d mots", MotsMax)
			}
			if lettres += len(w); lettres > LettresMax {
				return WordList{}, fmt.Errorf("liste de mots : plus de %d lettres dans ses mots de 2 à %d lettres", LettresMax, MaxWordLength)
			}
			list.Words = append(list.Words, w)
		}
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return WordList{}, fmt.Errorf("liste de mots, ligne %d : plus de %d octets", line, LigneMax)
	case errors.Is(err, errListeTropGrande):
		return WordList{}, err
	case err != nil:
		return WordList{}, fmt.Errorf("liste de mots illisible : %w", err)
	}
	sort.Strings(list.Words)
	list.Words = dedupe(list.Words)
	return list, nil
}

// dedupe removes adjacent repeats from a sorted slice, in place.
func dedupe(words []string) []string {
	out := words[:0]
	for i, w := range words {
		if i == 0 || w != words[i-1] {
			out = append(out, w)
		}
	}
	return out
}

// Compile reads a plain word list and builds its lexicon.
func Compile(src io.Reader, label string) (*Lexicon, error) {
	list, err := ReadWords(src)
	if err != nil {
		return nil, err
	}
	return Build(list, label)
}
