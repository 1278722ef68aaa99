package projection

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Requetes runs the statements of a batch in one transaction at replay
// speed: the driver parses a statement at every call, so each statement
// is prepared once for the batch and run again for each row, in order,
// exactly as the separate statements. A row's statement is short: the
// context is checked between rows rather than watched by the driver
// during each (which starts a goroutine per statement). Rows inserted by
// Inserer are sent by groups of RangeesParInsert in one statement. Fin
// closes the statements.
type Requetes struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	ordre []*sql.Stmt
	// attentes are the rows Inserer holds, by statement, in the order
	// their statements were first held.
	attentes  []*attente
	parInsert map[[2]string]*attente
}

// attente are the rows held for one insert statement.
type attente struct {
	insert, suite string
	colonnes      int
	rangees       int
	args          []any
	// requetes are the statement's texts by number of rows.
	requetes map[int]string
}

// RangeesParInsert is how many rows Inserer sends in one statement: each
// call into SQLite costs here about what inserting a row does, a group of
// 16 rows about half as much a row as one row alone.
const RangeesParInsert = 16

// NewRequetes runs statements in tx.
func NewRequetes(tx *sql.Tx) *Requetes {
	return &Requetes{tx: tx, stmts: map[string]*sql.Stmt{}, parInsert: map[[2]string]*attente{}}
}

// Inserer inserts a row with the statement insert, what comes before its
// VALUES ("INSERT INTO t (a, b)"), and suite, what follows them (an ON
// CONFLICT clause, or nothing): args are the row's values, as many for
// each row of insert. The row is held and sent with the next ones of the
// same statement, up to RangeesParInsert in one statement, which SQLite
// runs row after row exactly as the separate statements. Every other
// statement (Exec, Query), Envoyer and Fin send the rows held first, so
// that the statements run in the order given, but for one: the rows of
// different insert statements are sent by statement, each statement's in
// order, so those held at the same time must commute (insert into
// different tables, with no trigger between them).
func (q *Requetes) Inserer(ctx context.Context, insert, suite string, args ...any) error {
	a, ok := q.parInsert[[2]string{insert, suite}]
	if !ok {
		a = &attente{insert: insert, suite: suite, colonnes: len(args), requetes: map[int]string{}}
		q.parInsert[[2]string{insert, suite}] = a
		q.attentes = append(q.attentes, a)
	}
	if len(args) != a.colonnes {
		return fmt.Errorf("%s: %d values for a row of %d", insert, len(args), a.colonnes)
	}
	a.args = append(a.args, args...)
	if a.rangees++; a.rangees == RangeesParInsert {
		return q.envoyer(ctx, a)
	}
	return nil
}

// Envoyer sends the rows Inserer holds, before a statement that reads
// their tables outside q.
func (q *Requetes) Envoyer(ctx context.Context) error {
	for _, a := range q.attentes {
		if err := q.envoyer(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// envoyer sends the rows held for a's statement in one statement.
func (q *Requetes) envoyer(ctx context.Context, a *attente) error {
	if a.rangees == 0 {
		return nil
	}
	query, ok := a.requetes[a.rangees]
	if !ok {
		ligne := "(?" + strings.Repeat(", ?", a.colonnes-1) + ")"
		query = a.insert + " VALUES " + ligne + strings.Repeat(", "+ligne, a.rangees-1) + " " + a.suite
		a.requetes[a.rangees] = query
	}
	err := q.exec(ctx, query, a.args...)
	clear(a.args)
	a.args, a.rangees = a.args[:0], 0
	return err
}

// Exec runs query with args.
func (q *Requetes) Exec(ctx context.Context, query string, args ...any) error {
	if err := q.Envoyer(ctx); err != nil {
		return err
	}
	return q.exec(ctx, query, args...)
}

// exec runs query with args, the rows held aside.
func (q *Requetes) exec(ctx context.Context, query string, args ...any) error {
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
	if err := q.Envoyer(ctx); err != nil {
		return nil, err
	}
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

// Fin sends the rows held and closes the statements; the Requetes may run
// others after.
func (q *Requetes) Fin(ctx context.Context) error {
	errs := []error{q.Envoyer(ctx)}
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
