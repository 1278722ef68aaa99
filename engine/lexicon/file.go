package lexicon

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// The compiled form: an 8-byte magic, then little-endian uint32 fields
// (format version, word count, arc count, label length, CRC-32C of the label
// and the arcs), the label, and the arcs.
var magic = [8]byte{'A', 'R', 'B', 'L', 'E', 'X', 'G', 'D'}

// FormatVersion is the version of the compiled form this build reads and writes.
const FormatVersion = 1

const headerSize = 8 + 5*4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by every error about a damaged compiled lexicon.
var ErrCorrupt = errors.New("compiled lexicon is damaged")

// WriteTo writes the compiled form.
func (l *Lexicon) WriteTo(w io.Writer) (int64, error) {
	body := corps(l.disk, l.label)
	var head [headerSize]byte
	copy(head[:], magic[:])
	binary.LittleEndian.PutUint32(head[8:], FormatVersion)
	binary.LittleEndian.PutUint32(head[12:], uint32(l.words))
	binary.LittleEndian.PutUint32(head[16:], uint32(len(l.disk)))
	binary.LittleEndian.PutUint32(head[20:], uint32(len(l.label)))
	binary.LittleEndian.PutUint32(head[24:], crc32.Checksum(body, castagnoli))
	n, err := w.Write(head[:])
	if err != nil {
		return int64(n), err
	}
	m, err := w.Write(body)
	return int64(n + m), err
}

// corps is the checksummed part of the compiled form: the label, then the arcs.
func corps(disk []uint32, label string) []byte {
	body := make([]byte, len(label)+4*len(disk))
	copy(body, label)
	for i, a := range disk {
		binary.LittleEndian.PutUint32(body[len(label)+4*i:], a)
	}
	return body
}

// IsCompiled reports whether data starts like a compiled lexicon.
func IsCompiled(data []byte) bool { return bytes.HasPrefix(data, magic[:]) }

// Decode reads the compiled form, checking version, sizes and checksum.
func Decode(data []byte) (*Lexicon, error) {
	if !IsCompiled(data) || len(data) < headerSize {
		return nil, fmt.Errorf("%w: no compiled-lexicon header", ErrCorrupt)
	}
	version := binary.LittleEndian.Uint32(data[8:])
	if version != FormatVersion {
		return nil, fmt.Errorf("compiled lexicon format version %d, this build reads version %d: recompile it with `arbitre lexicon compile`", version, FormatVersion)
	}
	words := binary.LittleEndian.Uint32(data[12:])
	arcCount := uint64(binary.LittleEndian.Uint32(data[16:]))
	labelLen := uint64(binary.LittleEndian.Uint32(data[20:]))
	sum := binary.LittleEndian.Uint32(data[24:])
	body := data[headerSize:]
	if uint64(len(body)) != labelLen+4*arcCount || arcCount < 2 || arcCount > maxArcs {
		return nil, fmt.Errorf("%w: %d bytes after the header, the header announces %d", ErrCorrupt, len(body), labelLen+4*arcCount)
	}
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	arcs := make([]uint32, arcCount)
	raw := body[labelLen:]
	for i := range arcs {
		arcs[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	for i, a := range arcs {
		if c := arcChild(a); c >= uint32(arcCount) || (i > 0 && arcSymbol(a) > 26) {
			return nil, fmt.Errorf("%w: arc %d is out of range", ErrCorrupt, i)
		}
	}
	return newLexicon(arcs, int(words), string(body[:labelLen])), nil
}

// tailleCompileeMax bounds a compiled file: its header, a label of at most
// 64 KiB and maxArcs arcs.
const tailleCompileeMax = headerSize + 64<<10 + 4*maxArcs

// Load reads a lexicon from a file in either form: compiled (by `arbitre
// lexicon compile`) or a plain word list, gzip-compressed or not, read as
// it goes within ReadWords' bounds; a file of more than tailleCompileeMax
// bytes is neither.
func Load(path string) (*Lexicon, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	defer f.Close()
	// No lexicon, compiled or plain, is that large: refused unread.
	if st, err := f.Stat(); err == nil && st.Size() > tailleCompileeMax {
		return nil, fmt.Errorf("lexique %s : plus de %d octets", path, tailleCompileeMax)
	}
	br := bufio.NewReader(f)
	if debut, _ := br.Peek(len(magic)); !IsCompiled(debut) {
		// Labelled with the file's name, as `arbitre lexicon compile`
		// does: never a path of the server on the pages. Games recorded
		// under the path it went by before keep their list.
		lex, err := Compile(br, NomDeFichier(path))
		if err != nil {
			return nil, fmt.Errorf("lexicon %s: %w", path, err)
		}
		return lex.ConnuAussi(path), nil
	}
	data, err := io.ReadAll(io.LimitReader(br, tailleCompileeMax+1))
	if err != nil {
		return nil, fmt.Errorf("lexicon %s: %w", path, err)
	}
	if len(data) > tailleCompileeMax {
		return nil, fmt.Errorf("lexique %s : plus de %d octets", path, tailleCompileeMax)
	}
	lex, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("lexicon %s: %w", path, err)
	}
	return lex, nil
}
