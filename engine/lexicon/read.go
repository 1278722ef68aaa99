package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
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

// ReadWords reads a plain word list (one word per line, any case, accents
// allowed, optionally gzip-compressed). Blank lines are skipped; a line
// holding anything but letters is an error naming the line.
func ReadWords(r io.Reader) (WordList, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, err := br.Peek(2); err == nil && bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return WordList{}, fmt.Errorf("word list: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	var list WordList
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		if strings.TrimSpace(raw) == "" {
			continue
		}
		w, err := Fold(raw)
		if err != nil {
			return WordList{}, fmt.Errorf("word list line %d (%q): %w", line, raw, err)
		}
		switch {
		case len(w) > MaxWordLength:
			list.TooLong++
		case len(w) >= 2:
			list.Words = append(list.Words, w)
		}
	}
	if err := sc.Err(); err != nil {
		return WordList{}, fmt.Errorf("word list: %w", err)
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
