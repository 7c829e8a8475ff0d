package demo

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // WriteSQLite opens its file itself; PostgreSQL and MySQL callers bring their *sql.DB

	"github.com/clarify-sql/clarify/internal/model"
)

// writer renders a dataset's DDL and INSERTs for one dialect. ns is the
// schema (PostgreSQL) or database (MySQL) that qualifies every table; SQLite
// tables are unqualified and their DDL is exactly the spec's.
type writer struct {
	dialect model.Dialect
	ns      string
}

// maxBatchRows bounds the rows of one multi-row INSERT; the parameter limit
// of the dialect bounds it further.
const maxBatchRows = 500

func (w writer) maxParams() int {
	if w.dialect == model.SQLite {
		return 32766 // SQLITE_MAX_VARIABLE_NUMBER since 3.32
	}
	return 65535 // the protocol limit of both PostgreSQL and MySQL
}

// quote quotes an identifier for PostgreSQL and MySQL; SQLite names stay
// bare, as the spec's DDL writes them.
func (w writer) quote(id string) string {
	if w.dialect == model.SQLite {
		return id
	}
	return w.dialect.QuoteIdent(id)
}

// tableName returns name qualified with the writer's namespace.
func (w writer) tableName(name string) string {
	if w.ns == "" {
		return w.quote(name)
	}
	return w.quote(w.ns) + "." + w.quote(name)
}

func (w writer) typeName(c column) string {
	switch w.dialect {
	case model.Postgres:
		switch c.kind {
		case kindInt:
			return "INTEGER"
		case kindBigInt:
			return "BIGINT"
		case kindReal:
			return "DOUBLE PRECISION"
		}
		return "TEXT"
	case model.MySQL:
		switch c.kind {
		case kindInt:
			return "INT"
		case kindBigInt:
			return "BIGINT"
		case kindReal:
			return "DOUBLE"
		}
		return "VARCHAR(255)"
	}
	switch c.kind {
	case kindInt, kindBigInt:
		return "INTEGER"
	case kindReal:
		return "REAL"
	}
	return "TEXT"
}

func (w writer) quoteList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = w.quote(c)
	}
	return strings.Join(q, ", ")
}

// createTable renders CREATE TABLE for t. Column constraints come in the
// spec's order: PRIMARY KEY, NOT NULL, CHECK, REFERENCES. MySQL ignores
// REFERENCES on a column, so its foreign keys are table constraints.
func (w writer) createTable(ds *dataset, t *table) (string, error) {
	var b strings.Builder
	b.WriteString("CREATE TABLE ")
	b.WriteString(w.tableName(t.name))
	b.WriteString(" (")
	var pk []string
	var fks []string
	for i, c := range t.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w.quote(c.name))
		b.WriteString(" ")
		b.WriteString(w.typeName(c))
		if c.primaryKey {
			if w.dialect == model.MySQL {
				pk = append(pk, c.name)
			} else {
				b.WriteString(" PRIMARY KEY")
			}
		}
		if c.notNull {
			b.WriteString(" NOT NULL")
		}
		if c.check != "" {
			b.WriteString(" CHECK (" + c.check + ")")
		}
		if c.ref == "" {
			continue
		}
		if w.dialect == model.SQLite {
			b.WriteString(" REFERENCES " + c.ref)
			continue
		}
		rt, rc, err := ds.resolveRef(c.ref)
		if err != nil {
			return "", fmt.Errorf("table %s column %s: %w", t.name, c.name, err)
		}
		ref := w.tableName(rt) + " (" + w.quote(rc) + ")"
		if w.dialect == model.MySQL {
			fks = append(fks, "FOREIGN KEY ("+w.quote(c.name)+") REFERENCES "+ref)
		} else {
			b.WriteString(" REFERENCES " + ref)
		}
	}
	pk = append(pk, t.primaryKey...)
	if len(pk) > 0 {
		b.WriteString(", PRIMARY KEY (" + w.quoteList(pk) + ")")
	}
	for _, fk := range fks {
		b.WriteString(", " + fk)
	}
	b.WriteString(")")
	if w.dialect == model.MySQL {
		b.WriteString(" ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin")
	}
	return b.String(), nil
}

func (w writer) createIndexes(t *table) []string {
	stmts := make([]string, 0, len(t.indexes))
	for _, cols := range t.indexes {
		name := t.name + "_" + strings.Join(cols, "_") + "_idx"
		stmts = append(stmts, "CREATE INDEX "+w.quote(name)+" ON "+w.tableName(t.name)+" ("+w.quoteList(cols)+")")
	}
	return stmts
}

func (w writer) dropTable(t *table) string { return "DROP TABLE IF EXISTS " + w.tableName(t.name) }

// insert renders a multi-row INSERT of n rows into t.
func (w writer) insert(t *table, n int) string {
	var b strings.Builder
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = c.name
	}
	b.WriteString("INSERT INTO " + w.tableName(t.name) + " (" + w.quoteList(names) + ") VALUES ")
	p := 0
	for r := 0; r < n; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range t.cols {
			if c > 0 {
				b.WriteString(", ")
			}
			p++
			if w.dialect == model.Postgres {
				b.WriteString("$" + itoa(p))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// execer is what the writer needs of a *sql.Tx or *sql.Conn.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

func execAll(ctx context.Context, ex execer, stmts ...string) error {
	for _, s := range stmts {
		if _, err := ex.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", firstWords(s), err)
		}
	}
	return nil
}

// firstWords shortens a statement for an error message.
func firstWords(stmt string) string {
	if len(stmt) > 80 {
		return stmt[:80] + "…"
	}
	return stmt
}

func (w writer) createTables(ds *dataset) ([]string, error) {
	stmts := make([]string, 0, len(ds.tables))
	for _, t := range ds.tables {
		s, err := w.createTable(ds, t)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, s)
	}
	return stmts, nil
}

func (w writer) dropTables(ds *dataset) []string {
	stmts := make([]string, 0, len(ds.tables))
	for i := len(ds.tables) - 1; i >= 0; i-- {
		stmts = append(stmts, w.dropTable(ds.tables[i]))
	}
	return stmts
}

func (w writer) indexTables(ds *dataset) []string {
	var stmts []string
	for _, t := range ds.tables {
		stmts = append(stmts, w.createIndexes(t)...)
	}
	return stmts
}

// insertRows loads every row of t with multi-row INSERTs: one prepared
// statement for the full batches and one more for the remainder.
func (w writer) insertRows(ctx context.Context, ex execer, t *table) error {
	nc := len(t.cols)
	batch := min(t.rows, maxBatchRows, w.maxParams()/nc)
	if batch == 0 {
		return nil
	}
	args := make([]any, batch*nc)
	full, err := ex.PrepareContext(ctx, w.insert(t, batch))
	if err != nil {
		return fmt.Errorf("prepare insert into %s: %w", t.name, err)
	}
	defer full.Close()
	for start := 0; start < t.rows; start += batch {
		n := min(batch, t.rows-start)
		for i := range n {
			t.row(start+i, args[i*nc:(i+1)*nc:(i+1)*nc])
		}
		if n == batch {
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = ex.ExecContext(ctx, w.insert(t, n), args[:n*nc]...)
		}
		if err != nil {
			return fmt.Errorf("insert into %s (rows %d-%d): %w", t.name, start+1, start+n, err)
		}
	}
	return nil
}

func (w writer) insertAll(ctx context.Context, ex execer, ds *dataset) error {
	for _, t := range ds.tables {
		if err := w.insertRows(ctx, ex, t); err != nil {
			return err
		}
	}
	return nil
}

// sqlitePragmas make the one-off bulk load fast: no rollback journal and no
// fsync (the file is renamed into place only once complete), a page cache
// large enough for building the indexes, and sorting in memory.
const sqlitePragmas = "_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=cache_size(-65536)&_pragma=temp_store(MEMORY)"

// writeSQLite writes ds into the (new, empty) SQLite file at path in one
// transaction, with journaling and syncing off: the caller renames the file
// into place only after a clean close, so a crash costs nothing but the
// temporary file.
func writeSQLite(ctx context.Context, path string, ds *dataset) (err error) {
	db, err := openBuild(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	return writer{dialect: model.SQLite}.loadInTx(ctx, db, ds)
}

// openBuild opens the SQLite file at path to build it: the build's
// pragmas (sqlitePragmas), on one connection.
func openBuild(path string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dsn := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String() + "?" + sqlitePragmas
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// loadPostgres writes ds into schema, creating it if need be and replacing
// the tables of ds it holds, in one transaction.
func loadPostgres(ctx context.Context, db *sql.DB, ds *dataset, schema string) error {
	w := writer{dialect: model.Postgres, ns: schema}
	return w.loadInTx(ctx, db, ds, append([]string{"CREATE SCHEMA IF NOT EXISTS " + w.quote(schema)}, w.dropTables(ds)...)...)
}

// loadInTx writes ds in one transaction: the statements before (a schema
// to create, tables to drop), then its tables, their rows and their
// indexes. MySQL, whose DDL commits on its own, loads outside it
// (loadMySQL).
func (w writer) loadInTx(ctx context.Context, db *sql.DB, ds *dataset, before ...string) error {
	creates, err := w.createTables(ds)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if err := execAll(ctx, tx, append(before, creates...)...); err != nil {
		return err
	}
	if err := w.insertAll(ctx, tx, ds); err != nil {
		return err
	}
	if err := execAll(ctx, tx, w.indexTables(ds)...); err != nil {
		return err
	}
	return tx.Commit()
}

// loadMySQL writes ds into database, creating it if need be and replacing
// the tables of ds it holds: the DDL first (MySQL commits it on its own),
// then the rows in one transaction, then the indexes.
func loadMySQL(ctx context.Context, db *sql.DB, ds *dataset, database string) error {
	w := writer{dialect: model.MySQL, ns: database}
	creates, err := w.createTables(ds)
	if err != nil {
		return err
	}
	ddl := []string{"CREATE DATABASE IF NOT EXISTS " + w.quote(database) + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"}
	ddl = append(ddl, w.dropTables(ds)...)
	ddl = append(ddl, creates...)
	if err := execAll(ctx, db, ddl...); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if err := w.insertAll(ctx, tx, ds); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return execAll(ctx, db, w.indexTables(ds)...)
}
