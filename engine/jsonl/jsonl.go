// Package jsonl is the one batch runner of the command-line contracts
// (`engine solve`, `bulletin correct`): one JSON answer per input line, in
// order.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
)

// MaxLine is the longest input line answered, in bytes (16 MiB). A longer
// line gets a Failure of its own and the run goes on: the lines before and
// after it are answered.
const MaxLine = 1 << 24

// Failure is the output line of an input line that gets no answer: its id
// (null when unknown) and why, in French.
type Failure struct {
	ID    json.RawMessage `json:"id"`
	Error string          `json:"error"`
}

// Tally counts the lines a run answered and those answered by a Failure.
type Tally struct {
	Lines, Failures int
}

// Err is nil when every line was answered, else an error (in French) that
// gives the count: the commands return it so that their exit status is not
// zero, once every line has its answer.
func (t Tally) Err() error {
	if t.Failures == 0 {
		return nil
	}
	return fmt.Errorf("%d ligne(s) sur %d en erreur : chacune a sa ligne « error » dans la sortie", t.Failures, t.Lines)
}

// Run reads lines from r and writes answer(line) to w as one JSON line
// each, HTML characters unescaped. A blank line (empty or only white space)
// is skipped and gets no answer. answer turns a bad line into its own
// Failure: only I/O errors stop the run.
func Run(r io.Reader, w io.Writer, answer func(line []byte) any) (Tally, error) {
	return RunWorkers(r, w, []func(line []byte) any{answer})
}

// batchLines is how many lines the workers share out at a time.
const batchLines = 256

// tooLong stands in the batch for a line over MaxLine.
var tooLong = Failure{ID: json.RawMessage("null"),
	Error: fmt.Sprintf("ligne de plus de %d octets (16 Mio) : non lue, les autres lignes ont leur réponse", MaxLine)}

// RunWorkers is Run with the lines answered by len(answers) goroutines, one
// answer function each (answers[i] is only ever called by one goroutine at a
// time). The output is the same as Run's, line for line, in input order.
func RunWorkers(r io.Reader, w io.Writer, answers []func(line []byte) any) (Tally, error) {
	var tally Tally
	in := bufio.NewReaderSize(r, 1<<16)
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
					if lines[i] != nil {
						results[i] = answer(lines[i])
					}
				}
			})
		}
		wg.Wait()
		for i := range lines {
			res := results[i]
			if lines[i] == nil {
				res = tooLong
			}
			tally.Lines++
			if _, failed := res.(Failure); failed {
				tally.Failures++
			}
			if err := enc.Encode(res); err != nil {
				return err
			}
		}
		lines = lines[:0]
		return nil
	}
	for {
		line, long, err := readLine(in)
		if err != nil && !errors.Is(err, io.EOF) {
			return tally, err
		}
		switch {
		case long:
			lines = append(lines, nil)
		case len(bytes.TrimSpace(line)) > 0:
			lines = append(lines, line)
		}
		if len(lines) == batchLines {
			if ferr := flush(); ferr != nil {
				return tally, ferr
			}
		}
		if err != nil { // io.EOF
			break
		}
	}
	if err := flush(); err != nil {
		return tally, err
	}
	return tally, out.Flush()
}

// readLine reads one line without its end of line, in a buffer of its own.
// A line over MaxLine is read to its end and dropped: long is then true. At
// the end of the input it returns io.EOF with the last line, if any.
func readLine(in *bufio.Reader) (line []byte, long bool, err error) {
	for {
		part, err := in.ReadSlice('\n')
		if !long {
			if len(line)+len(part) > MaxLine+2 { // room for "\r\n"
				long, line = true, nil
			} else {
				line = append(line, part...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimRight(line, "\r\n")
		if long || len(line) > MaxLine {
			return nil, true, err
		}
		return line, false, err
	}
}

// Decode reads one JSON object into v strictly: a field v does not have, a
// value of the wrong type or data after the object is an error that names
// the field, in French. fields lists v's fields for the message.
func Decode(line []byte, v any, fields string) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil && dec.More():
		return errors.New("des données suivent l'objet JSON sur la ligne")
	case err == nil:
		return nil
	case errors.As(err, &typ):
		return fmt.Errorf("champ « %s » : valeur %s, attendu %s", typ.Field, typ.Value, typeName(typ.Type.String()))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("champ « %s » inconnu : les champs sont %s", strings.Trim(name, `"`), fields)
	}
	return fmt.Errorf("la ligne n'est pas un objet JSON : %v", err)
}

// typeName says a Go type of the contracts in words.
func typeName(goType string) string {
	switch {
	case goType == "string" || goType == "*string":
		return "une chaîne"
	case strings.HasPrefix(goType, "[]"):
		return "une liste"
	case strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "*int"):
		return "un entier"
	case goType == "bool" || goType == "*bool":
		return "un booléen"
	}
	return goType
}
