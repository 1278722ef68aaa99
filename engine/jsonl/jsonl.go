// Package jsonl is the one batch runner of the command-line contracts
// (`engine solve`, `bulletin correct`): one JSON answer per input line, in
// order.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// MaxLine is the longest input line read, in bytes.
const MaxLine = 1 << 24

// Run reads lines from r and writes answer(line) to w as one JSON line
// each, HTML characters unescaped. A blank line (empty or only white space)
// is skipped and gets no answer. answer turns a bad line into its own
// failure line: only I/O errors stop the run.
func Run(r io.Reader, w io.Writer, answer func(line []byte) any) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), MaxLine)
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := enc.Encode(answer(line)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return out.Flush()
}
