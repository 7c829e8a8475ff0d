package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// Scaling the trades source: `clarify bench scale` measures Clarify on a
// trades database N times the demo's size. The demo is generated as usual,
// then its tick tables (trades and quotes) are copied onto themselves N-1
// times inside the database with INSERT … SELECT, one copy per statement:
// copy k gets the keys shifted past those of copy k-1 and its timestamps k
// seconds later. The dates stay those of the demo, so every question — a
// window of the last week as much as all time — reads N times the rows,
// and every answer stays a plausible one (averages and extremes keep their
// values, counts and sums grow N-fold). The symbols and daily bars are
// left as they are.

// scaleKey is the clarify_meta key under which a scaled database records
// its factor.
const scaleKey = "scale_factor"

// tickTable is a table that scaling copies: its key, its timestamp and the
// columns copied as they are. indexes are the table's secondary indexes
// (as in trades.go), dropped while the copies go in and built after.
type tickTable struct {
	name, key, time string
	cols            []string
	indexes         [][]string
}

var tickTables = []tickTable{
	{name: "trades", key: "id", time: "traded_at", cols: []string{"symbol", "price", "quantity", "side", "venue"},
		indexes: [][]string{{"symbol", "traded_at"}}},
	{name: "quotes", key: "id", time: "quoted_at", cols: []string{"symbol", "bid_price", "ask_price", "last_price", "bid_size", "ask_size"},
		indexes: [][]string{{"symbol", "quoted_at"}}},
}

// WriteScaledSQLite writes the trades source, its trades and quotes
// multiplied factor-fold, into a new SQLite file at path: the file is
// built beside path and renamed over it only when complete.
func WriteScaledSQLite(ctx context.Context, path string, opt Options, factor int) (err error) {
	if factor < 1 {
		return fmt.Errorf("scale trades: factor %d is below 1", factor)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("scale trades: %w", err)
	}
	tmp := f.Name()
	if err := f.Close(); err != nil {
		return fmt.Errorf("scale trades: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if err := WriteSQLite(ctx, "trades", tmp, opt); err != nil {
		return err
	}
	if err := scaleSQLiteFile(ctx, tmp, factor); err != nil {
		return fmt.Errorf("scale trades in %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("scale trades: %w", err)
	}
	return nil
}

func scaleSQLiteFile(ctx context.Context, path string, factor int) (err error) {
	db, err := openBuild(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	// one transaction: with the journal off it costs nothing, and the file
	// is thrown away if anything fails
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if err := scale(ctx, tx, writer{dialect: model.SQLite}, factor); err != nil {
		return err
	}
	return tx.Commit()
}

// LoadScaledPostgres loads the trades source into schema of the PostgreSQL
// database db, as LoadPostgres does, then multiplies its trades and quotes
// factor-fold, one copy per transaction, and analyzes the tables (so the
// planner's statistics do not wait for autovacuum). The factor is recorded
// last: a load that stops half-way reads back as unscaled (ScaleFactor).
func LoadScaledPostgres(ctx context.Context, db *sql.DB, schema string, opt Options, factor int) error {
	if factor < 1 {
		return fmt.Errorf("scale trades: factor %d is below 1", factor)
	}
	if err := LoadPostgres(ctx, db, "trades", schema, opt); err != nil {
		return err
	}
	w := writer{dialect: model.Postgres, ns: schema}
	if err := scale(ctx, db, w, factor); err != nil {
		return fmt.Errorf("scale trades in postgres schema %s: %w", schema, err)
	}
	return nil
}

// scale copies the tick tables factor-1 times onto themselves, rebuilds
// their indexes and records the factor in clarify_meta.
func scale(ctx context.Context, ex scaler, w writer, factor int) error {
	for _, t := range tickTables {
		if err := execAll(ctx, ex, w.dropIndexes(t)...); err != nil {
			return err
		}
		var n int64
		row := ex.QueryRowContext(ctx, "SELECT COALESCE(MAX("+w.quote(t.key)+"), 0) FROM "+w.tableName(t.name))
		if err := row.Scan(&n); err != nil {
			return fmt.Errorf("highest key of %s: %w", t.name, err)
		}
		copyStmt := w.copyRows(t)
		for k := 1; k < factor; k++ {
			if _, err := ex.ExecContext(ctx, copyStmt, int64(k)*n, k, n); err != nil {
				return fmt.Errorf("copy %d of %s: %w", k, t.name, err)
			}
		}
		if err := execAll(ctx, ex, w.createIndexes(&table{name: t.name, indexes: t.indexes})...); err != nil {
			return err
		}
		if w.dialect == model.Postgres {
			if err := execAll(ctx, ex, "ANALYZE "+w.tableName(t.name)); err != nil {
				return err
			}
		}
	}
	p1, p2 := "?", "?"
	if w.dialect == model.Postgres {
		p1, p2 = "$1", "$2"
	}
	meta := "INSERT INTO " + w.tableName("clarify_meta") + " (" + w.quote("key") + ", " + w.quote("value") + ") VALUES (" + p1 + ", " + p2 + ")"
	if _, err := ex.ExecContext(ctx, meta, scaleKey, strconv.Itoa(factor)); err != nil {
		return fmt.Errorf("record the scale factor: %w", err)
	}
	return nil
}

// scaler is what scale needs of a *sql.Tx or *sql.DB.
type scaler interface {
	execer
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// dropIndexes renders DROP INDEX for the secondary indexes of t.
func (w writer) dropIndexes(t tickTable) []string {
	var out []string
	for _, s := range w.indexNames(t) {
		out = append(out, "DROP INDEX IF EXISTS "+s)
	}
	return out
}

// indexNames are the qualified names createIndexes gives t's indexes.
func (w writer) indexNames(t tickTable) []string {
	var out []string
	for _, cols := range t.indexes {
		name := w.quote(t.name + "_" + strings.Join(cols, "_") + "_idx")
		if w.ns != "" {
			name = w.quote(w.ns) + "." + name
		}
		out = append(out, name)
	}
	return out
}

// copyRows renders the INSERT … SELECT of one copy of t. Its arguments are
// the key offset, the seconds the timestamps move by, and the highest key
// of the original rows (only those are copied).
func (w writer) copyRows(t tickTable) string {
	cols := w.quote(t.key) + ", " + w.quote(t.time)
	sel := ""
	for _, c := range t.cols {
		cols += ", " + w.quote(c)
		sel += ", " + w.quote(c)
	}
	key, ts := w.quote(t.key), w.quote(t.time)
	if w.dialect == model.Postgres {
		return "INSERT INTO " + w.tableName(t.name) + " (" + cols + ") SELECT " + key + " + CAST($1 AS integer), " +
			"to_char(CAST(" + ts + " AS timestamp) + CAST($2 AS integer) * INTERVAL '1 second', 'YYYY-MM-DD HH24:MI:SS')" + sel +
			" FROM " + w.tableName(t.name) + " WHERE " + key + " <= CAST($3 AS integer) ORDER BY " + key
	}
	return "INSERT INTO " + t.name + " (" + cols + ") SELECT " + key + " + ?1, " +
		"datetime(" + ts + ", '+' || ?2 || ' seconds')" + sel +
		" FROM " + t.name + " WHERE " + key + " <= ?3 ORDER BY " + key
}

// ScaleFactor reads the factor a scaled trades database records (1 for a
// database that was not scaled). ns qualifies the table for PostgreSQL
// ("" for SQLite or the connection's search path).
func ScaleFactor(ctx context.Context, db *sql.DB, d model.Dialect, ns string) (int, error) {
	w := writer{dialect: d, ns: ns}
	var v string
	err := db.QueryRowContext(ctx, "SELECT "+w.quote("value")+" FROM "+w.tableName("clarify_meta")+" WHERE "+w.quote("key")+" = '"+scaleKey+"'").Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the scale factor: %w", err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("read the scale factor: %w", err)
	}
	return n, nil
}
