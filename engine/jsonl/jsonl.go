// Package jsonl is the one batch runner of the command-line contracts
// (`engine solve`, `bulletin correct`): one JSON answer per input line, in
// order.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"
)

// MaxLine is the longest input line read, in bytes.
const MaxLine = 1 << 24

// Run reads lines from r and writes answer(line) to w as one JSON line
// each, HTML characters unescaped. A blank line (empty or only white space)
// is skipped and gets no answer. answer turns a bad line into its own
// failure line: only I/O errors stop the run.
func Run(r io.Reader, w io.Writer, answer func(line []byte) any) error {
	return RunWorkers(r, w, []func(line []byte) any{answer})
}

// batchLines is how many lines the workers share out at a time.
const batchLines = 256

// RunWorkers is Run with the lines answered by len(answers) goroutines, one
// answer function each (answers[i] is only ever called by one goroutine at a
// time). The output is the same as Run's, line for line, in input order.
func RunWorkers(r io.Reader, w io.Writer, answers []func(line []byte) any) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), MaxLine)
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	lines := make([][]byte, 0, batchLines)
	results := make([]any, batchLines)
	flush := func() error {
		var next atomic.Int64
		var wg sync.WaitGroup
		for _, answer := range answers {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(lines); i = int(next.Add(1) - 1) {
					results[i] = answer(lines[i])
				}
			})
		}
		wg.Wait()
		for i := range lines {
			if err := enc.Encode(results[i]); err != nil {
				return err
			}
		}
		lines = lines[:0]
		return nil
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines = append(lines, bytes.Clone(line))
		if len(lines) == batchLines {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	return out.Flush()
}
