package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// AppliedMigrations lists the rows of s's store_migrations table as
// "version name applied_at".
func AppliedMigrations(ctx context.Context, s Store) ([]string, error) {
	ss := sqlOf(s)
	rows, err := ss.r.QueryContext(ctx, `SELECT version, name, applied_at FROM store_migrations ORDER BY version`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var (
			v       int
			n, when string
		)
		if err := rows.Scan(&v, &n, &when); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%04d %s %s", v, n, when))
	}
	return out, rows.Err()
}

// Write runs one write statement on s, as the store's own writes run.
func Write(ctx context.Context, s Store, q string, args ...any) error {
	_, err := sqlOf(s).exec(ctx, q, args...)
	return err
}

// WriterCacheKiB is the page cache of SQLite's write connection.
const WriterCacheKiB = writerCacheKiB

// MigrationVersions lists the embedded migration versions of a dialect.
func MigrationVersions(dialect string) ([]int, error) {
	d := &sqliteDialect
	if dialect == "postgres" {
		d = &postgresDialect
	}
	ms, err := migrations(d)
	if err != nil {
		return nil, err
	}
	var vs []int
	for _, m := range ms {
		vs = append(vs, m.version)
	}
	return vs, nil
}

// WriteTx runs f in one of s's write transactions (for SQLite, as one
// write of a group); exec runs a statement in it.
func WriteTx(ctx context.Context, s Store, f func(exec func(q string, args ...any) error) error) error {
	return sqlOf(s).inTx(ctx, func(t txn) error {
		return f(func(q string, args ...any) error {
			_, err := t.exec(q, args...)
			return err
		})
	})
}

// WriterPragmas returns the settings of s's SQLite write connection.
func WriterPragmas(ctx context.Context, s Store) (map[string]string, error) {
	out := map[string]string{}
	err := sqlOf(s).inTx(ctx, func(t txn) error {
		for _, p := range []string{"journal_mode", "synchronous", "foreign_keys", "busy_timeout"} {
			var v string
			if err := t.tx.QueryRowContext(t.ctx, "PRAGMA "+p).Scan(&v); err != nil {
				return err
			}
			out[p] = v
		}
		return nil
	})
	return out, err
}

// TimeArg encodes t as s stores times.
func TimeArg(s Store, t time.Time) any { return sqlOf(s).d.timeArg(t) }

// MigrateTo brings the store a DSN names to schema version (and no
// further), as a binary of that version would have left it, then runs
// stmts on it: how tests check that a newer binary upgrades an older store.
func MigrateTo(ctx context.Context, dsn string, version int, stmts ...string) error {
	kind, target, err := parseDSN(dsn)
	if err != nil {
		return err
	}
	d := &sqliteDialect
	var db *sql.DB
	if kind == "sqlite" {
		db, err = sqliteDB(target, time.Second, true)
	} else {
		d = &postgresDialect
		var pc *pgx.ConnConfig
		if pc, err = pgx.ParseConfig(target); err == nil {
			db = stdlib.OpenDB(*pc)
		}
	}
	if err != nil {
		return err
	}
	defer db.Close()
	ms, err := migrations(d)
	if err != nil {
		return err
	}
	var keep []migration
	for _, m := range ms {
		if m.version <= version {
			keep = append(keep, m)
		}
	}
	if err := applyAll(ctx, db, d, keep); err != nil {
		return err
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// sqlOf returns the sqlStore under either dialect's Store.
func sqlOf(s Store) *sqlStore {
	if n, ok := s.(*pgNotifier); ok {
		return n.sqlStore
	}
	return s.(*sqlStore)
}

// RoundTrips counts the requests a PostgreSQL store's connections send
// and wait on: each statement run alone, each batch of statements sent
// together. The announcements of new events (sent after the commit, by
// another goroutine) are not counted.
type RoundTrips struct{ n atomic.Int64 }

// Count is how many round trips were counted.
func (r *RoundTrips) Count() int64 { return r.n.Load() }

func (r *RoundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if d.SQL != postgresDialect.notifySQL {
		r.n.Add(1)
	}
	return ctx
}

func (*RoundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *RoundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}

func (*RoundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (*RoundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// OpenCounting opens the PostgreSQL store dsn names with its round trips
// counted in rt.
func OpenCounting(ctx context.Context, dsn string, rt *RoundTrips) (Store, error) {
	pc, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	pc.Tracer = rt
	return openPostgresConfig(ctx, pc, "postgres", Config{DSN: dsn, Now: time.Now})
}

// WriterPragma reads a PRAGMA of SQLite's write connection, in one of its
// write transactions.
func WriterPragma(ctx context.Context, s Store, name string) (string, error) {
	var v string
	err := sqlOf(s).inTx(ctx, func(t txn) error { return t.queryRow("PRAGMA " + name).Scan(&v) })
	return v, err
}
