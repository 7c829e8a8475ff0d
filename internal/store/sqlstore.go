package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// sqlStore implements Store over database/sql for both dialects: the SQL is
// shared, the differences live in dialect.
type sqlStore struct {
	d *dialect
	// w takes every write. For SQLite it holds one connection, so writers
	// queue in the process instead of failing on SQLite's file lock.
	w *sql.DB
	// r serves reads: a pool of query_only connections for SQLite (WAL lets
	// them run beside the writer), the same pool as w for PostgreSQL.
	r *sql.DB
	// wr runs SQLite's writes, grouped, on w's one connection (see
	// writer). database/sql alone would hand the connection to a random
	// waiter, leaving some of a thousand concurrent writers waiting for
	// seconds, and pay a commit per write. nil for PostgreSQL.
	wr *writer
	// slots admits callers to r's connections (and, for PostgreSQL, w's:
	// the same pool) first come first served, for the same reason: one
	// token per connection, so database/sql never has waiters to pick from.
	slots chan struct{}
	// ws and rs hold statements prepared once on w and r. SQLite spends as
	// long parsing a statement as running it; pgx caches prepared
	// statements itself, so for PostgreSQL they are empty.
	ws, rs map[string]*sql.Stmt
	// now is the clock for the times the store assigns.
	now func() time.Time
	// name identifies the store in errors, without credentials.
	name string
	// channel is where PostgreSQL announces new events (notifyChannel of
	// the store's schema); "" for SQLite.
	channel string
	// ann announces new events on channel; nil for SQLite.
	ann *announcer
}

var _ Store = (*sqlStore)(nil)

// prepare prepares the store's statements on its pools (for SQLite).
func (s *sqlStore) prepare(ctx context.Context, writes, reads []string) error {
	s.ws, s.rs = map[string]*sql.Stmt{}, map[string]*sql.Stmt{}
	for _, p := range []struct {
		db *sql.DB
		m  map[string]*sql.Stmt
		qs []string
	}{{s.w, s.ws, writes}, {s.r, s.rs, reads}} {
		for _, q := range p.qs {
			st, err := p.db.PrepareContext(ctx, q)
			if err != nil {
				return fmt.Errorf("prepare %q: %w", q, err)
			}
			p.m[q] = st
		}
	}
	return nil
}

// exec runs one write statement and returns how many rows it changed.
func (s *sqlStore) exec(ctx context.Context, q string, args ...any) (int64, error) {
	if s.wr == nil {
		release, err := s.slot(ctx)
		if err != nil {
			return 0, err
		}
		defer release()
		res, err := s.w.ExecContext(ctx, q, args...)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	}
	var n int64
	err := s.wr.do(ctx, func(t txn) error {
		res, err := t.exec(q, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// slot waits for a connection of the pool to be free for the caller and
// returns its release.
func (s *sqlStore) slot(ctx context.Context) (func(), error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readRow reads one row into dest; sql.ErrNoRows when there is none.
func (s *sqlStore) readRow(ctx context.Context, q string, args []any, dest ...any) error {
	release, err := s.slot(ctx)
	if err != nil {
		return err
	}
	defer release()
	if st := s.rs[q]; st != nil {
		return st.QueryRowContext(ctx, args...).Scan(dest...)
	}
	return s.r.QueryRowContext(ctx, q, args...).Scan(dest...)
}

// readRows calls each for every row a query returns.
func (s *sqlStore) readRows(ctx context.Context, q string, args []any, each func(*sql.Rows) error) error {
	release, err := s.slot(ctx)
	if err != nil {
		return err
	}
	defer release()
	var rows *sql.Rows
	if st := s.rs[q]; st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = s.r.QueryContext(ctx, q, args...)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// txn is a write transaction that uses the store's prepared statements.
type txn struct {
	ctx context.Context
	tx  *sql.Tx
	s   *sqlStore
}

func (t txn) stmt(q string) *sql.Stmt {
	if st := t.s.ws[q]; st != nil {
		return t.tx.StmtContext(t.ctx, st)
	}
	return nil
}

func (t txn) exec(q string, args ...any) (sql.Result, error) {
	if st := t.stmt(q); st != nil {
		return st.ExecContext(t.ctx, args...)
	}
	return t.tx.ExecContext(t.ctx, q, args...)
}

func (t txn) queryRow(q string, args ...any) *sql.Row {
	if st := t.stmt(q); st != nil {
		return st.QueryRowContext(t.ctx, args...)
	}
	return t.tx.QueryRowContext(t.ctx, q, args...)
}

// inTx runs f in a write transaction, committing when f succeeds; it
// returns nil only once the transaction is committed.
func (s *sqlStore) inTx(ctx context.Context, f func(txn) error) error {
	if s.wr != nil {
		return s.wr.do(ctx, f)
	}
	release, err := s.slot(ctx)
	if err != nil {
		return err
	}
	defer release()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(txn{ctx: ctx, tx: tx, s: s}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Ping checks that the store answers.
func (s *sqlStore) Ping(ctx context.Context) error {
	release, err := s.slot(ctx)
	if err != nil {
		return fmt.Errorf("store: ping %s: %w", s.name, err)
	}
	err = s.r.PingContext(ctx)
	release()
	if err != nil {
		return fmt.Errorf("store: ping %s: %w", s.name, err)
	}
	if s.r == s.w {
		return nil
	}
	// SQLite: an empty write transaction checks that the writer runs and
	// can take the file's write lock.
	if err := s.inTx(ctx, func(txn) error { return nil }); err != nil {
		return fmt.Errorf("store: ping %s: %w", s.name, err)
	}
	return nil
}

// Close closes the store's connections.
func (s *sqlStore) Close() error {
	if s.wr != nil {
		s.wr.close()
	}
	if s.ann != nil {
		s.ann.close()
	}
	var errs []error
	for _, m := range []map[string]*sql.Stmt{s.ws, s.rs} {
		for _, st := range m {
			errs = append(errs, st.Close())
		}
	}
	errs = append(errs, s.w.Close())
	if s.r != s.w {
		errs = append(errs, s.r.Close())
	}
	return errors.Join(errs...)
}
