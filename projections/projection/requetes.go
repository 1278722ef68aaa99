package projection

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Requetes runs the statements of a batch in one transaction at replay
// speed: the driver parses a statement at every call, so each statement
// is prepared once for the batch and run again for each row, in order,
// exactly as the separate statements. A row's statement is short: the
// context is checked between rows rather than watched by the driver
// during each (which starts a goroutine per statement). Fin closes the
// statements.
type Requetes struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	ordre []*sql.Stmt
}

// NewRequetes runs statements in tx.
func NewRequetes(tx *sql.Tx) *Requetes { return &Requetes{tx: tx, stmts: map[string]*sql.Stmt{}} }

// Exec runs query with args.
func (q *Requetes) Exec(ctx context.Context, query string, args ...any) error {
	st, err := q.prepare(ctx, query)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(context.WithoutCancel(ctx), args...)
	return err
}

// Query runs query with args, a read of the batch's rows; the rows must be
// closed before query runs again.
func (q *Requetes) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := q.prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(context.WithoutCancel(ctx), args...)
}

// prepare is query's statement, prepared at its first run in the batch,
// once ctx is checked.
func (q *Requetes) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if st, ok := q.stmts[query]; ok {
		return st, nil
	}
	st, err := q.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	q.stmts[query] = st
	q.ordre = append(q.ordre, st)
	return st, nil
}

// Fin closes the statements; the Requetes may run others after.
func (q *Requetes) Fin(context.Context) error {
	var errs []error
	for _, st := range q.ordre {
		errs = append(errs, st.Close())
	}
	clear(q.stmts)
	q.ordre = q.ordre[:0]
	return errors.Join(errs...)
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
