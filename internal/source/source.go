package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/clarify-sql/clarify/internal/model"
)

// Options tune a source.
type Options struct {
	// QueryTimeout bounds each statement (default 15s).
	QueryTimeout time.Duration
	// RowCap bounds the rows an answer returns (default 1000).
	RowCap int
	// ValueTTL is how long database values stay fresh (default 10m; a
	// column's values.ttl overrides it).
	ValueTTL time.Duration
	// ValueLoadTimeout bounds the first load of a column's values (default
	// 30s). Understanding does not wait for it: until it ends, a question's
	// own words are probed in the column (values.go); a load that fails or
	// times out is retried after 30s.
	ValueLoadTimeout time.Duration
	// MaxIndexedValues caps the distinct values loaded per column for
	// matching (default 100,000).
	MaxIndexedValues int
	// Clock returns the current time for cache expiry (default time.Now).
	Clock func() time.Time
	// Concurrency caps and orders the statements running at once
	// (limiter.go); the zero value means the defaults.
	Concurrency Concurrency
	// Log receives warnings of the execution path (default slog.Default()).
	Log *slog.Logger
}

func (o *Options) defaults() {
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = 15 * time.Second
	}
	if o.RowCap <= 0 {
		o.RowCap = 1000
	}
	if o.ValueTTL <= 0 {
		o.ValueTTL = 10 * time.Minute
	}
	if o.ValueLoadTimeout <= 0 {
		o.ValueLoadTimeout = 30 * time.Second
	}
	if o.MaxIndexedValues <= 0 {
		o.MaxIndexedValues = 100_000
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
}

// Source is one database with its model.
type Source struct {
	Name    string
	Target  Target
	Model   *model.Model
	db      *sql.DB
	opt     Options
	values  *valueCache
	closeMu sync.Mutex
	closed  bool

	// exec is the hardened pool statements run on (the second wall behind
	// the guard), opened on first use; db is kept for metadata.
	execOnce sync.Once
	exec     *execPool
	execErr  error
}

// New wraps an open database. The source owns db and closes it. db serves
// metadata (schema checks); statements run on a separate hardened pool
// the source opens from t on first use.
func New(name string, t Target, db *sql.DB, m *model.Model, opt Options) *Source {
	opt.defaults()
	s := &Source{Name: name, Target: t, Model: m, db: db, opt: opt}
	s.values = newValueCache(s)
	return s
}

// Open parses a DSN, connects and wraps the database.
func Open(ctx context.Context, name, dsn string, m *model.Model, opt Options) (*Source, error) {
	t, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	db, err := OpenDB(ctx, t)
	if err != nil {
		return nil, err
	}
	return New(name, t, db, m, opt), nil
}

// Dialect returns the source's SQL dialect.
func (s *Source) Dialect() model.Dialect { return s.Target.Dialect }

// RowCap returns the row cap of answers.
func (s *Source) RowCap() int { return s.opt.RowCap }

// Catalog returns the source's cached values, for understanding.
func (s *Source) Catalog() *valueCache { return s.values }

// errClosed is returned for work asked of a closed source.
var errClosed = errors.New("source is closed")

// Close stops the source's background work (value refreshes and loads, an
// analyzer's index rebuilds), waits for it, and closes the database.
func (s *Source) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	s.closeMu.Unlock()
	// stopped outside closeMu: a job may be opening the execution pool,
	// which takes closeMu (and, seeing closed, fails at once)
	s.values.bg.close()
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	err := s.db.Close()
	if s.exec != nil {
		err = errors.Join(err, s.exec.close())
	}
	return err
}

// execPool returns the hardened pool, opening it on first use.
func (s *Source) execPool() (*execPool, error) {
	s.execOnce.Do(func() {
		s.closeMu.Lock()
		defer s.closeMu.Unlock()
		if s.closed {
			s.execErr = errClosed
			return
		}
		s.exec, s.execErr = openExec(s.Name, s.Target, s.opt)
	})
	return s.exec, s.execErr
}

// Result is the outcome of a statement.
type Result struct {
	Columns   []string
	Types     []string
	Rows      [][]any
	Truncated bool
	Duration  time.Duration
}

// ErrTimeout is returned when a statement runs past the query timeout.
var ErrTimeout = errors.New("query timed out")

// serverTimeout reports whether err is the database stopping a statement
// at its own time limit. The server's limit is set to the client's
// deadline, so either may fire first; both mean the same to the caller.
func serverTimeout(err error) bool {
	var my *mysql.MySQLError
	if errors.As(err, &my) {
		// MariaDB's ER_STATEMENT_TIMEOUT, MySQL's ER_QUERY_TIMEOUT.
		return my.Number == 1969 || my.Number == 3024
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// query_canceled: statement_timeout; a user's cancel is a canceled
		// context, handled before this is asked.
		return pg.Code == "57014"
	}
	return false
}

// QueryError is a statement the database refused or failed.
type QueryError struct {
	Err error
}

func (e *QueryError) Error() string { return "query failed: " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

// Query runs a statement on the hardened read-only path with the source's
// timeout, keeping at most maxRows rows (0: the row cap) and flagging a
// truncated result. Canceling ctx stops the query on the database. The
// statement should have passed the guard; this path holds if it did not.
func (s *Source) Query(ctx context.Context, query string, args []any, maxRows int) (*Result, error) {
	if maxRows <= 0 {
		maxRows = s.opt.RowCap
	}
	p, err := s.execPool()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.QueryTimeout)
	defer cancel()
	start := time.Now()
	end := s.values.statement(ctx) // an answer's end lets deferred value scans start
	res, err := p.run(ctx, s, query, args, maxRows)
	end()
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || serverTimeout(err) {
			return nil, fmt.Errorf("%w after %s", ErrTimeout, s.opt.QueryTimeout)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &QueryError{Err: err}
	}
	res.Duration = time.Since(start)
	return res, nil
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// metaQuery runs one of Clarify's own catalog queries on the metadata
// pool, read-only, with the source's timeout.
func (s *Source) metaQuery(ctx context.Context, query string, args []any, maxRows int) (*Result, error) {
	var res *Result
	err := s.metaRead(ctx, func(ctx context.Context, q queryer) (err error) {
		res, err = collect(ctx, func() {}, q, query, args, maxRows)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// metaEach runs one of Clarify's own catalog queries as metaQuery does,
// handing each row's values, normalized as collect's, to f as they come
// rather than keeping them: a read of many rows that only counts them. f
// must not keep vals, which the next row reuses.
func (s *Source) metaEach(ctx context.Context, query string, args []any, f func(vals []any)) error {
	return s.metaRead(ctx, func(ctx context.Context, q queryer) error {
		return eachRow(ctx, func() {}, q, query, args, nil, func(vals []any) bool { f(vals); return true })
	})
}

// metaRead runs read on the metadata pool, read-only, with the source's
// timeout, and returns its error as ErrTimeout or a QueryError.
func (s *Source) metaRead(ctx context.Context, read func(context.Context, queryer) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.opt.QueryTimeout)
	defer cancel()
	_, err := s.readOnly(ctx, func(q queryer) (*Result, error) { return nil, read(ctx, q) })
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || serverTimeout(err) {
			return fmt.Errorf("%w after %s", ErrTimeout, s.opt.QueryTimeout)
		}
		return &QueryError{Err: err}
	}
	return nil
}

// readOnly runs f in a read-only transaction (PostgreSQL, MySQL) or on the
// read-only SQLite metadata pool.
func (s *Source) readOnly(ctx context.Context, f func(queryer) (*Result, error)) (*Result, error) {
	if s.Target.Dialect == model.SQLite {
		return f(s.db)
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
	if s.Target.Dialect == model.Postgres {
		ms := strconv.FormatInt(s.opt.QueryTimeout.Milliseconds(), 10)
		if _, err := tx.ExecContext(ctx, "SELECT set_config('statement_timeout', $1, true)", ms); err != nil {
			return nil, err
		}
	}
	return f(tx)
}

// collect runs a query and reads at most maxRows rows, flagging a result
// with more as truncated. stop cancels the statement on the server, for
// results too large to drain.
func collect(ctx context.Context, stop func(), q queryer, query string, args []any, maxRows int) (*Result, error) {
	res := &Result{}
	var rows rowArena
	err := eachRow(ctx, stop, q, query, args, func(cts []*sql.ColumnType, types []string) {
		for _, ct := range cts {
			res.Columns = append(res.Columns, ct.Name())
		}
		res.Types = types
	}, func(vals []any) bool {
		if len(res.Rows) == maxRows {
			res.Truncated = true
			return false
		}
		row := rows.next(len(vals))
		copy(row, vals)
		res.Rows = append(res.Rows, row)
		return true
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// eachRow runs query on q and hands each row's values, normalized, to f as
// they come, after head has the result's columns and their database types
// in upper case (head may be nil); vals is reused for the next row, so f
// must not keep it. f returning false
// ends the read: closing the rows drains what the server still sends, and
// when that takes long (a huge result) stop cancels the statement on the
// server.
func eachRow(ctx context.Context, stop func(), q queryer, query string, args []any, head func([]*sql.ColumnType, []string), f func(vals []any) bool) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	types := make([]string, len(cts))
	for i, ct := range cts {
		types[i] = strings.ToUpper(ct.DatabaseTypeName())
	}
	if head != nil {
		head(cts, types)
	}
	vals, cells, ptrs := make([]any, len(cts)), make([]cell, len(cts)), make([]any, len(cts))
	for i := range cells {
		cells[i].typ = types[i]
		ptrs[i] = &cells[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i := range cells {
			vals[i] = cells[i].v
		}
		if !f(vals) {
			t := time.AfterFunc(50*time.Millisecond, stop)
			rows.Close()
			t.Stop()
			return nil
		}
	}
	return rows.Err()
}

// cell receives one column's value straight from the driver (it is a
// sql.Scanner), normalized: a []byte the driver lends is copied once, into
// the string normalize makes of it, where scanning into an *any copied
// it twice (database/sql's clone, then the string).
type cell struct {
	v   any
	typ string // the column's database type, upper case
}

func (c *cell) Scan(src any) error {
	c.v = normalize(src, c.typ)
	return nil
}

// normalize converts driver values to JSON-friendly Go values: text as
// string, integers as int64, decimals and floats as float64. JSON has no
// NaN or infinity, so those (PostgreSQL's 'NaN'::float8, SQLite's 1e999)
// become the strings "NaN", "Infinity" and "-Infinity" rather than a
// result that cannot be sent.
func normalize(v any, dbType string) any {
	out := convert(v, dbType)
	if f, ok := out.(float64); ok {
		switch {
		case math.IsNaN(f):
			return "NaN"
		case math.IsInf(f, 1):
			return "Infinity"
		case math.IsInf(f, -1):
			return "-Infinity"
		}
	}
	return out
}

func convert(v any, dbType string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		return convert(string(x), dbType)
	case string:
		switch dbType {
		case "NUMERIC", "DECIMAL", "NEWDECIMAL", "FLOAT", "DOUBLE", "REAL", "FLOAT4", "FLOAT8":
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
		case "INT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "MEDIUMINT", "INT2", "INT4", "INT8", "UNSIGNED BIGINT", "UNSIGNED INT":
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				return n
			}
		}
		return v // x again, without boxing it anew
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case uint64:
		return int64(x)
	case float32:
		return float64(x)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.DateTime)
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	}
	return v
}

// CheckSchema verifies that every table and column of the model exists in
// the database; problems name the model's file and line.
func (s *Source) CheckSchema(ctx context.Context) error {
	var probs []model.Problem
	for i, e := range s.Model.Entities {
		cols, err := s.columns(ctx, e.TableName())
		if err != nil {
			return err
		}
		field := fmt.Sprintf("entities[%d]", i)
		if len(cols) == 0 {
			probs = append(probs, model.Problem{File: s.Model.File(), Line: s.Model.Line(field), Field: field + ".table", Msg: fmt.Sprintf("table %q not found in the database", e.TableName())})
			continue
		}
		for j, c := range e.Columns {
			if !c.Computed() && !cols[strings.ToLower(c.Name)] {
				f := fmt.Sprintf("%s.columns[%d]", field, j)
				probs = append(probs, model.Problem{File: s.Model.File(), Line: s.Model.Line(f), Field: f + ".name", Msg: fmt.Sprintf("column %q not found in table %q", c.Name, e.TableName())})
			}
		}
	}
	if len(probs) > 0 {
		return &model.Error{Problems: probs}
	}
	return nil
}

// columns returns the lower-case column names of a table (empty when the
// table does not exist).
func (s *Source) columns(ctx context.Context, table string) (map[string]bool, error) {
	var q string
	var args []any
	switch s.Target.Dialect {
	case model.SQLite:
		q, args = "SELECT name FROM pragma_table_info(?)", []any{table}
	case model.Postgres:
		q, args = "SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = ANY (current_schemas(false))", []any{table}
	default:
		q, args = "SELECT column_name FROM information_schema.columns WHERE table_name = ? AND table_schema = DATABASE()", []any{table}
	}
	res, err := s.metaQuery(ctx, q, args, 10_000)
	if err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", table, err)
	}
	out := map[string]bool{}
	for _, r := range res.Rows {
		out[strings.ToLower(fmt.Sprint(r[0]))] = true
	}
	return out, nil
}
