package sqlitestore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
)

// ecrivain is the writer's driver connection and the statements of an
// append, prepared on it once. A write transaction drives it directly
// (Store.transaction) rather than through database/sql, which wrapped
// each statement again for the transaction (Tx.StmtContext), converted its
// arguments, watched each query's rows from a goroutine of their own (a
// Tx's context can always be cancelled) and had the driver compile BEGIN
// and COMMIT again at every transaction: about a third of the CPU of an
// append under a hall's group commits (issue 34, docs/charge.md). Used
// under the store's write lock only.
type ecrivain struct {
	conn any
	ctx  context.Context
	// args is the arguments of the statement being run, dest the columns
	// of the row read, reused.
	args []driver.NamedValue
	dest [3]driver.Value

	begin, commit, rollback        driver.Stmt
	savepoint, release, rollbackTo driver.Stmt
	insert, revision, evenement    driver.Stmt
	tete, gardeFlux, gardeSousFlux driver.Stmt
	suite, cles                    driver.Stmt
}

// instruction is one statement the writer prepares.
type instruction struct {
	stmt *driver.Stmt
	sql  string
}

func (w *ecrivain) instructions() []instruction {
	return []instruction{
		// IMMEDIATE: the write lock between processes is taken at once,
		// before the transaction reads what it writes after.
		{&w.begin, `BEGIN IMMEDIATE`},
		{&w.commit, `COMMIT`},
		{&w.rollback, `ROLLBACK`},
		{&w.insert, `INSERT INTO events (` + eventColumns + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`},
		{&w.savepoint, `SAVEPOINT ajout`},
		{&w.release, `RELEASE ajout`},
		{&w.rollbackTo, `ROLLBACK TO ajout`},
		{&w.revision, `SELECT MAX(revision) FROM events WHERE stream = ?`},
		{&w.evenement, `SELECT stream, revision FROM events WHERE event_id = ?`},
		{&w.tete, `SELECT position, hash FROM events ORDER BY position DESC LIMIT 1`},
		{&w.gardeSousFlux, `SELECT MAX(position) FROM events WHERE stream > ? AND stream < ?`},
		{&w.gardeFlux, `SELECT MAX(position) FROM events WHERE stream = ? AND revision = (SELECT MAX(revision) FROM events WHERE stream = ?)`},
		{&w.suite, `SELECT event_id, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`},
		{&w.cles, lectureCles},
	}
}

// ecrivain is the writer for dc, the writer's driver connection: the one
// prepared before, or a new one when database/sql opened another
// connection (the previous one failed).
func (s *Store) ecrivain(ctx context.Context, dc any) (*ecrivain, error) {
	if s.ecriture != nil && s.ecriture.conn == dc {
		return s.ecriture, nil
	}
	conn, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("the driver's connection %T prepares no statement", dc)
	}
	w := &ecrivain{conn: dc}
	for _, p := range w.instructions() {
		var err error
		if *p.stmt, err = conn.PrepareContext(ctx, p.sql); err != nil {
			return nil, errors.Join(classify("preparing "+p.sql, err), w.fermer())
		}
	}
	s.ecriture = w
	return w, nil
}

// fermer closes the statements w prepared.
func (w *ecrivain) fermer() error {
	var errs []error
	for _, p := range w.instructions() {
		if *p.stmt != nil {
			errs = append(errs, (*p.stmt).Close())
			*p.stmt = nil
		}
	}
	return errors.Join(errs...)
}

// preparerEcrivain prepares the writer's statements when the store opens:
// a statement SQLite refuses fails the opening, not the first append.
func (s *Store) preparerEcrivain(ctx context.Context) error {
	conn, err := s.writer.Conn(ctx)
	if err != nil {
		return classify("opening "+s.path, err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		_, err := s.ecrivain(ctx, dc)
		return err
	})
}

// fermerEcrivain closes the writer's statements, on its connection.
func (s *Store) fermerEcrivain() error {
	if s.ecriture == nil || s.writer == nil {
		return nil
	}
	conn, err := s.writer.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		w := s.ecriture
		s.ecriture = nil
		if w.conn != dc {
			// database/sql discarded their connection without the
			// writer knowing (a connection SQLite left interrupted is not
			// valid, driver.Validator): the driver freed it, finalizing
			// them now would crash the process.
			return nil
		}
		return w.fermer()
	})
}

// transaction runs f in one write transaction (BEGIN IMMEDIATE) on the
// writer's connection, and commits it when f returns true and no error;
// otherwise, or when the commit fails, it rolls it back. quoi names the
// transaction in errors ("starting "+quoi, "committing "+quoi). A
// connection left in a transaction it could not roll back is given back
// to database/sql as broken (driver.ErrBadConn), which closes it: the next
// transaction opens another. The statements run under ctx (a caller that
// gives up interrupts them), the rollback whatever ctx. Under the write
// lock.
func (s *Store) transaction(ctx context.Context, quoi string, f func(w *ecrivain) (bool, error)) error {
	conn, err := s.writer.Conn(ctx)
	if err != nil {
		return classify("starting "+quoi, err)
	}
	defer conn.Close()
	var resultat error
	err = conn.Raw(func(dc any) error {
		w, err := s.ecrivain(ctx, dc)
		if err != nil {
			resultat = err
			return nil
		}
		w.ctx = ctx
		if err := w.executer(w.begin); err != nil {
			resultat = classify("starting "+quoi, err)
			return nil
		}
		// A panic in f: database/sql discards the connection (Raw), which
		// SQLite would keep open, transaction and write lock included,
		// while statements are prepared on it (sqlite3_close_v2): it is
		// rolled back and its statements closed first.
		fini := false
		defer func() {
			if !fini {
				w.ctx = context.WithoutCancel(ctx)
				_ = w.executer(w.rollback)
				_ = w.fermer()
				s.ecriture = nil
			}
		}()
		valider, err := f(w)
		fini = true
		if err == nil && valider {
			if err = w.executer(w.commit); err == nil {
				return nil
			}
			err = classify("committing "+quoi, err)
		}
		resultat = err
		// Rolled back even when the caller gave up. A failed COMMIT may
		// have ended the transaction already, as may an I/O error in f:
		// ROLLBACK then fails, and the connection, whose state is
		// unknown, is closed.
		w.ctx = context.WithoutCancel(ctx)
		if w.executer(w.rollback) != nil {
			s.ecriture = nil
			return errors.Join(w.fermer(), driver.ErrBadConn)
		}
		return nil
	})
	if resultat == nil && err != nil && !errors.Is(err, driver.ErrBadConn) {
		resultat = classify("starting "+quoi, err)
	}
	return resultat
}

// valeurs makes vals the arguments of the next statement.
func (w *ecrivain) valeurs(vals ...any) []driver.NamedValue {
	w.args = w.args[:0]
	for i, v := range vals {
		w.args = append(w.args, driver.NamedValue{Ordinal: i + 1, Value: v})
	}
	return w.args
}

// executer runs st, which returns no row, with args.
func (w *ecrivain) executer(st driver.Stmt, args ...any) error {
	_, err := st.(driver.StmtExecContext).ExecContext(w.ctx, w.valeurs(args...))
	return err
}

// lignes runs the query st with args and hands each row to ligne, its
// columns in dest (nil for NULL, int64, string or a []byte of its own).
func (w *ecrivain) lignes(st driver.Stmt, dest []driver.Value, ligne func() error, args ...any) error {
	rows, err := st.(driver.StmtQueryContext).QueryContext(w.ctx, w.valeurs(args...))
	if err != nil {
		return err
	}
	for {
		if err = rows.Next(dest); err != nil {
			break
		}
		if err = ligne(); err != nil {
			break
		}
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return errors.Join(err, rows.Close())
}

// ligne runs the query st with args and reads its first row into dest;
// false when it returns none.
func (w *ecrivain) ligne(st driver.Stmt, dest []driver.Value, args ...any) (bool, error) {
	lue := false
	err := w.lignes(st, dest, func() error {
		lue = true
		return io.EOF
	}, args...)
	return lue, err
}

// colonnes is room for the n columns of the next row read, reused by
// each statement.
func (w *ecrivain) colonnes(n int) []driver.Value {
	clear(w.dest[:])
	return w.dest[:n]
}

// entier is a column read as an integer: false for NULL.
func entier(v driver.Value) (int64, bool) {
	n, ok := v.(int64)
	return n, ok
}
