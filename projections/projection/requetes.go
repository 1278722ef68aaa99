package projection

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Requetes runs the statements of a batch in one transaction at replay
// speed: the driver parses a statement at every call, so consecutive runs
// of one single-row INSERT (or upsert) whose values are all parameters are
// sent as one INSERT of many rows, which SQLite applies row by row, in
// order, exactly as the separate statements. Rows whose values are all
// integers, valid UTF-8 strings or NULL go as one JSON array read by
// json_each (one parameter: the driver neither parses nor binds per row,
// and SQLite gives back the same INTEGER, TEXT and NULL values); others as
// a multi-row VALUES. Any other statement first sends the rows held, so
// the order of writes is kept. Fin sends the last ones.
type Requetes struct {
	tx      *sql.Tx
	formes  map[string]*forme
	attente *forme
	args    []any
	lignes  int
	// enJSON says whether the rows held go as JSON; json holds them so.
	enJSON bool
	json   []byte
}

// forme is an INSERT split around its one row of parameters, and its
// form that reads the rows from a JSON array.
type forme struct {
	tete, ligne, queue string
	params             int
	depuisJSON         string
}

// maxParams bounds the parameters of one multi-row VALUES: the pure-Go
// driver binds each parameter by looking for its ordinal among all the
// arguments, so binding costs the square of their number, which longer
// statements did not pay back (issue 16, item 10: 256 rows of 8 made
// binding a third of a rebuild's CPU). maxLignesJSON bounds the rows of
// one JSON array.
const (
	maxParams     = 256
	maxLignesJSON = 2048
)

// uneLigne matches the single row of parameters of an INSERT.
var uneLigne = regexp.MustCompile(`(?is)^(INSERT\s.*?\s)(VALUES\s*)(\(\s*\?(?:\s*,\s*\?)*\s*\))(.*)$`)

// NewRequetes runs statements in tx.
func NewRequetes(tx *sql.Tx) *Requetes { return &Requetes{tx: tx, formes: map[string]*forme{}} }

func (q *Requetes) forme(query string) *forme {
	f, ok := q.formes[query]
	if !ok {
		if m := uneLigne.FindStringSubmatch(query); m != nil {
			f = &forme{tete: m[1] + m[2], ligne: m[3], queue: m[4], params: strings.Count(m[3], "?")}
			colonnes := make([]string, f.params)
			for i := range colonnes {
				colonnes[i] = fmt.Sprintf("value->>%d", i)
			}
			// WHERE true: an upsert after a SELECT needs a WHERE clause.
			f.depuisJSON = m[1] + "SELECT " + strings.Join(colonnes, ", ") + " FROM json_each(?) WHERE true " + m[4]
		}
		q.formes[query] = f
	}
	return f
}

// Exec runs query with args, or holds them as a row of a multi-row INSERT.
func (q *Requetes) Exec(ctx context.Context, query string, args ...any) error {
	f := q.forme(query)
	if f == nil || len(args) != f.params {
		if err := q.Fin(ctx); err != nil {
			return err
		}
		_, err := q.tx.ExecContext(ctx, query, args...)
		return err
	}
	ligne, enJSON := appendLigneJSON(q.json, args)
	if q.attente != f || enJSON != q.enJSON || (enJSON && q.lignes == maxLignesJSON) || (!enJSON && len(q.args)+len(args) > maxParams) {
		if err := q.Fin(ctx); err != nil {
			return err
		}
		q.attente, q.enJSON = f, enJSON
		ligne, _ = appendLigneJSON(q.json, args)
	}
	if enJSON {
		q.json = ligne
	} else {
		q.args = append(q.args, args...)
	}
	q.lignes++
	return nil
}

// Fin sends the rows held.
func (q *Requetes) Fin(ctx context.Context) error {
	f, n := q.attente, q.lignes
	if f == nil || n == 0 {
		return nil
	}
	var err error
	if q.enJSON {
		_, err = q.tx.ExecContext(ctx, f.depuisJSON, string(append(q.json, ']')))
	} else {
		var b strings.Builder
		b.WriteString(f.tete)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.ligne)
		}
		b.WriteString(f.queue)
		_, err = q.tx.ExecContext(ctx, b.String(), q.args...)
	}
	q.attente, q.args, q.json, q.lignes = nil, q.args[:0], q.json[:0], 0
	return err
}

// appendLigneJSON appends args to the JSON array b (opening it when empty)
// as one array, and says whether every value has an exact JSON form that
// SQLite reads back as the value the driver would bind: an integer, a
// valid UTF-8 string without NUL, or nil.
func appendLigneJSON(b []byte, args []any) ([]byte, bool) {
	if len(b) == 0 {
		b = append(b, '[')
	} else {
		b = append(b, ',')
	}
	b = append(b, '[')
	for i, v := range args {
		if i > 0 {
			b = append(b, ',')
		}
		switch x := v.(type) {
		case nil:
			b = append(b, "null"...)
		case int:
			b = strconv.AppendInt(b, int64(x), 10)
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case uint64:
			if x > math.MaxInt64 {
				return b, false
			}
			b = strconv.AppendUint(b, x, 10)
		case string:
			if !utf8.ValidString(x) || strings.IndexByte(x, 0) >= 0 {
				return b, false
			}
			b = AppendChaineJSON(b, x)
		default:
			return b, false
		}
	}
	return append(b, ']'), true
}

// AppendChaineJSON appends s, valid UTF-8, as a JSON string.
func AppendChaineJSON(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = fmt.Appendf(b, `\u%04x`, c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
