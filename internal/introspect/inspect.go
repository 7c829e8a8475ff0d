package introspect

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// metaTable is Clarify's own table in demo databases; it is never drafted.
const metaTable = "clarify_meta"

// Inspect reads the tables of the database behind db: columns with their
// types and nullability, primary keys, single-column unique constraints,
// foreign keys and row counts, and for text and integer columns a bounded
// distinct count, the longest value's length and a few sample values.
//
// Which tables: for SQLite the main schema without sqlite_% tables and
// virtual tables; for PostgreSQL the tables of the schemas on the
// connection's search_path (a name shadowed by an earlier schema is
// skipped); for MySQL those of DATABASE(). Clarify's own clarify_meta is
// skipped everywhere.
//
// Every statistic is bounded: rows are counted up to CountLimit and columns
// are measured over at most SampleRows rows, so a huge table is never
// scanned whole. A table whose rows cannot be read is reported in
// Unreadable rather than failing the whole inspection.
func Inspect(ctx context.Context, db *sql.DB, dialect model.Dialect) (*Schema, error) {
	var (
		r   reader
		err error
	)
	switch dialect {
	case model.SQLite:
		r = sqliteReader{db}
	case model.Postgres:
		r = &postgresReader{db: db}
	case model.MySQL:
		r = mysqlReader{db}
	default:
		return nil, fmt.Errorf("inspect: unknown dialect %q", dialect)
	}
	tables, estimates, err := r.read(ctx)
	if err != nil {
		return nil, fmt.Errorf("inspect %s database: %w", dialect, err)
	}
	s := &Schema{Dialect: dialect}
	for _, t := range tables {
		if t.Name == metaTable {
			continue
		}
		if err := measure(ctx, db, dialect, t, estimates[t.Name]); err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("inspect %s database: %w", dialect, ctx.Err())
			}
			if s.Unreadable == nil {
				s.Unreadable = map[string]string{}
			}
			s.Unreadable[t.Name] = err.Error()
			continue
		}
		s.Tables = append(s.Tables, t)
	}
	sort.Slice(s.Tables, func(i, j int) bool { return s.Tables[i].Name < s.Tables[j].Name })
	return s, nil
}

// reader reads the catalog of one dialect: tables with columns, keys and
// foreign keys, and the catalog's row estimates (where it keeps any).
type reader interface {
	read(ctx context.Context) ([]*Table, map[string]int64, error)
}

// measure counts a table's rows (bounded) and measures its text and integer
// columns over at most SampleRows rows.
func measure(ctx context.Context, db *sql.DB, d model.Dialect, t *Table, estimate int64) error {
	tbl := d.QuoteIdent(t.Name)
	q := fmt.Sprintf("SELECT COUNT(*) FROM (SELECT 1 AS one FROM %s LIMIT %d) s", tbl, CountLimit+1)
	if err := db.QueryRowContext(ctx, q).Scan(&t.Rows); err != nil {
		return fmt.Errorf("count rows: %w", err)
	}
	if t.Rows > CountLimit {
		t.Rows, t.RowsEstimated = max(CountLimit, estimate), true
	}
	for _, c := range t.Columns {
		c.Distinct = -1
	}
	var cols []*Column
	for _, c := range t.Columns {
		if c.Kind.measured() || c.Kind == KindUUID {
			cols = append(cols, c)
		}
	}
	t.Sampled = min(t.Rows, SampleRows)
	if len(cols) == 0 || t.Rows == 0 {
		return nil
	}
	if err := columnStats(ctx, db, d, t, cols); err != nil {
		// one odd column must not cost the others their statistics
		for _, c := range cols {
			if err := columnStats(ctx, db, d, t, []*Column{c}); err != nil {
				c.Distinct = -1
			}
		}
	}
	for _, c := range cols {
		if !c.Kind.measured() {
			continue
		}
		if err := samples(ctx, db, d, t, c); err != nil {
			return err
		}
	}
	for _, c := range t.Columns {
		switch {
		case c.Kind.numeric():
			if err := distribution(ctx, db, d, t, c); err != nil {
				return err
			}
		case c.Kind == KindDate || c.Kind == KindTimestamp || dateKind(c.Samples) != "":
			if err := latest(ctx, db, d, t, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// latest reads the largest value of a date column among the first
// SampleRows rows.
func latest(ctx context.Context, db *sql.DB, d model.Dialect, t *Table, c *Column) error {
	col := d.QuoteIdent(c.Name)
	q := fmt.Sprintf("SELECT MAX(%s) FROM (SELECT %s FROM %s LIMIT %d) s", col, col, d.QuoteIdent(t.Name), SampleRows)
	var v sql.NullString
	if err := db.QueryRowContext(ctx, q).Scan(&v); err != nil {
		return fmt.Errorf("latest %s: %w", c.Name, err)
	}
	c.Latest = v.String
	if len(c.Latest) > 10 && c.Latest[4] == '-' {
		c.Latest = c.Latest[:10] // the day is what "recent" compares
	}
	return nil
}

// distribution reads a numeric column's quantiles and mean from at most
// QuantileRows non-null values of the first SampleRows rows.
func distribution(ctx context.Context, db *sql.DB, d model.Dialect, t *Table, c *Column) error {
	col := d.QuoteIdent(c.Name)
	q := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s LIMIT %d) s WHERE %s IS NOT NULL LIMIT %d",
		col, col, d.QuoteIdent(t.Name), SampleRows, col, QuantileRows)
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("distribution of %s: %w", c.Name, err)
	}
	defer rows.Close()
	var vals []float64
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			return fmt.Errorf("distribution of %s: %w", c.Name, err)
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(v.String), 64); err == nil && v.Valid && !math.IsNaN(f) && !math.IsInf(f, 0) {
			vals = append(vals, f)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("distribution of %s: %w", c.Name, err)
	}
	c.Quantiles, c.Mean = quantiles(vals)
	return nil
}

// quantiles returns the values at quantilePoints (nearest rank) and the
// mean; nil when vals is empty.
func quantiles(vals []float64) ([]float64, float64) {
	if len(vals) == 0 {
		return nil, 0
	}
	sort.Float64s(vals)
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	out := make([]float64, len(quantilePoints))
	for i, p := range quantilePoints {
		out[i] = vals[int(math.Round(p*float64(len(vals)-1)))]
	}
	return out, sum / float64(len(vals))
}

// columnStats measures distinct counts (and text lengths, integer ranges)
// of cols in one pass over at most SampleRows rows.
func columnStats(ctx context.Context, db *sql.DB, d model.Dialect, t *Table, cols []*Column) error {
	length := "LENGTH"
	if d == model.MySQL {
		length = "CHAR_LENGTH"
	}
	var sel, inner []string
	dst := []any{new(sql.NullInt64)}
	for _, c := range cols {
		q := d.QuoteIdent(c.Name)
		inner = append(inner, q)
		sel = append(sel, "COUNT(DISTINCT "+q+")")
		dst = append(dst, new(sql.NullInt64))
		switch c.Kind {
		case KindText, KindUnknown:
			sel = append(sel, "MAX("+length+"("+q+"))")
			dst = append(dst, new(sql.NullInt64))
		case KindInteger:
			sel = append(sel, "MIN("+q+")", "MAX("+q+")")
			dst = append(dst, new(sql.NullInt64), new(sql.NullInt64))
		}
	}
	q := fmt.Sprintf("SELECT COUNT(*), %s FROM (SELECT %s FROM %s LIMIT %d) s",
		strings.Join(sel, ", "), strings.Join(inner, ", "), d.QuoteIdent(t.Name), SampleRows)
	if err := db.QueryRowContext(ctx, q).Scan(dst...); err != nil {
		return fmt.Errorf("measure columns: %w", err)
	}
	i := 1
	for _, c := range cols {
		c.Distinct = dst[i].(*sql.NullInt64).Int64
		i++
		switch c.Kind {
		case KindText, KindUnknown:
			c.MaxLen = dst[i].(*sql.NullInt64).Int64
			i++
		case KindInteger:
			c.Min, c.Max = dst[i].(*sql.NullInt64).Int64, dst[i+1].(*sql.NullInt64).Int64
			i += 2
		}
	}
	return nil
}

// samples reads up to SampleValues distinct values of a column, smallest
// first, from at most SampleScan non-null rows.
func samples(ctx context.Context, db *sql.DB, d model.Dialect, t *Table, c *Column) error {
	col := d.QuoteIdent(c.Name)
	cond := col + " IS NOT NULL"
	if c.Kind == KindText {
		cond += " AND " + col + " <> ''"
	}
	q := fmt.Sprintf("SELECT DISTINCT %s FROM (SELECT %s FROM %s WHERE %s LIMIT %d) s ORDER BY %s LIMIT %d",
		col, col, d.QuoteIdent(t.Name), cond, SampleScan, col, SampleValues)
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("sample %s: %w", c.Name, err)
	}
	defer rows.Close()
	c.Samples = nil
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			return fmt.Errorf("sample %s: %w", c.Name, err)
		}
		if v.Valid {
			c.Samples = append(c.Samples, v.String)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sample %s: %w", c.Name, err)
	}
	return nil
}

// orderForeignKeys sorts foreign keys by the position of their first column.
func orderForeignKeys(t *Table) {
	pos := map[string]int{}
	for i, c := range t.Columns {
		pos[c.Name] = i
	}
	sort.SliceStable(t.ForeignKeys, func(i, j int) bool {
		return pos[t.ForeignKeys[i].Columns[0]] < pos[t.ForeignKeys[j].Columns[0]]
	})
}

// finishTable sets what every reader derives the same way: primary-key
// columns are never nullable, and unique columns and foreign keys are in
// column order.
func finishTable(t *Table) {
	for _, k := range t.PrimaryKey {
		if c := t.Column(k); c != nil {
			c.Nullable = false
		}
	}
	pos := map[string]int{}
	for i, c := range t.Columns {
		pos[c.Name] = i
	}
	sort.SliceStable(t.Unique, func(i, j int) bool { return pos[t.Unique[i]] < pos[t.Unique[j]] })
	orderForeignKeys(t)
}
