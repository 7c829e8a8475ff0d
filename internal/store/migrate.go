package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The schema of each dialect, as numbered files NNNN_name.sql, applied in
// order. A released file is never edited: a change is a new file.
//
//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFiles embed.FS

// migration is one embedded schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// The table recording applied migrations, in the store's own schema.
const (
	createMigrationsTable = `CREATE TABLE IF NOT EXISTS store_migrations (
    version    integer PRIMARY KEY,
    name       text    NOT NULL,
    applied_at text    NOT NULL
)`
	migrationApplied = `SELECT count(*) FROM store_migrations WHERE version = $1`
	recordMigration  = `INSERT INTO store_migrations (version, name, applied_at) VALUES ($1, $2, $3)`
	latestMigration  = `SELECT coalesce(max(version), 0) FROM store_migrations`
)

// migrations lists a dialect's migrations in version order.
func migrations(d *dialect) ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, d.migrations)
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", e.Name())
		}
		b, err := migrationFiles.ReadFile(path.Join(d.migrations, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migration version %d twice", ms[i].version)
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no migrations in %s", d.migrations)
	}
	return ms, nil
}

// migrate applies the migrations db lacks, each in a transaction that first
// checks it is still missing. On PostgreSQL the whole run holds an advisory
// lock keyed by the schema, so processes starting together take turns; on
// SQLite each transaction begins IMMEDIATE (see sqliteDB), which does the same.
func migrate(ctx context.Context, db *sql.DB, d *dialect) error {
	ms, err := migrations(d)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return applyAll(ctx, db, d, ms)
}

// applyAll applies the migrations of ms that db lacks, as migrate says; a
// schema newer than the last of ms is refused.
func applyAll(ctx context.Context, db *sql.DB, d *dialect, ms []migration) (err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if d.lock != "" {
		key, err := lockKey(ctx, conn)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if _, err := conn.ExecContext(ctx, d.lock, key); err != nil {
			return fmt.Errorf("migrate: take lock: %w", err)
		}
		defer func() {
			// Released even when ctx is done; a connection that cannot
			// release the lock is discarded, which releases it.
			_, uerr := conn.ExecContext(context.WithoutCancel(ctx), d.unlock, key)
			if uerr != nil {
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
				err = errors.Join(err, fmt.Errorf("migrate: release lock: %w", uerr))
			}
		}()
	}
	if _, err := conn.ExecContext(ctx, createMigrationsTable); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, m := range ms {
		if err := apply(ctx, conn, d, m); err != nil {
			return fmt.Errorf("migrate %04d_%s: %w", m.version, m.name, err)
		}
	}
	var latest int
	if err := conn.QueryRowContext(ctx, latestMigration).Scan(&latest); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if known := ms[len(ms)-1].version; latest > known {
		return fmt.Errorf("migrate: the store's schema is at version %d, newer than this binary's %d", latest, known)
	}
	return nil
}

func apply(ctx context.Context, conn *sql.Conn, d *dialect, m migration) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var n int
	if err := tx.QueryRowContext(ctx, migrationApplied, m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	// No arguments: both drivers then run every statement of the file.
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	at := time.Now().UTC().Format(time.RFC3339Nano)
	if _, err := tx.ExecContext(ctx, recordMigration, m.version, m.name, at); err != nil {
		return err
	}
	return tx.Commit()
}

// lockKey derives the advisory lock key from the schema the tables go to,
// so stores in different schemas of one database do not wait for each other.
func lockKey(ctx context.Context, conn *sql.Conn) (int64, error) {
	var schema sql.NullString
	if err := conn.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return 0, err
	}
	if !schema.Valid {
		return 0, errors.New("no schema of the search_path exists (create it, or fix ?search_path=)")
	}
	h := fnv.New64a()
	h.Write([]byte("clarify/store/migrate:" + schema.String))
	return int64(h.Sum64()), nil
}
