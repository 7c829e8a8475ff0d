package demo_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo"
)

// Generating the sources takes seconds (a minute under -race), so the tests
// share generated files, one per (source, seed, as_of), written on first use
// into a directory that TestMain removes.
var fixtures struct {
	sync.Mutex
	dir   string
	cache map[string]*fixture
}

type fixture struct {
	once sync.Once
	path string
	err  error
	sums sync.Map // path → *summed
}

// summed caches the table sums of a generated file.
type summed struct {
	once   sync.Once
	tables []tableInfo
	sums   map[string]tableSum
}

// defaultOpt are the options most tests use (as_of a Friday, default seed).
var defaultOpt = demo.Options{AsOf: friday}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "demo-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtures.dir = dir
	fixtures.cache = map[string]*fixture{}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func cached(key string) *fixture {
	fixtures.Lock()
	defer fixtures.Unlock()
	f, ok := fixtures.cache[key]
	if !ok {
		f = &fixture{}
		fixtures.cache[key] = f
	}
	return f
}

// source returns the SQLite file of source name generated with opt.
func source(t testing.TB, name string, opt demo.Options) string {
	t.Helper()
	key := fmt.Sprintf("%s-seed%d-%s", name, opt.Seed, opt.AsOf.Format("2006-01-02"))
	f := cached(key)
	f.once.Do(func() {
		f.path = filepath.Join(fixtures.dir, key+".db")
		f.err = demo.WriteSQLite(context.Background(), name, f.path, opt)
	})
	if f.err != nil {
		t.Fatalf("generate demo source %s: %v", name, f.err)
	}
	return f.path
}

// skipSlowUnderRace skips a data check of a large source in -race builds,
// where SQLite (compiled from C to Go) runs some twenty times slower. The
// race detector has nothing to find in such checks; they run in the ordinary
// build, and the sources are still generated (concurrently) under -race.
func skipSlowUnderRace(t *testing.T, name string) {
	t.Helper()
	if raceEnabled && (name == "trades" || name == "retail") {
		t.Skipf("checking %s is too slow under -race; this runs in the ordinary build", name)
	}
}

func date(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// Two as_of dates: a Friday and the Sunday after it.
var (
	friday = date("2026-11-20")
	sunday = date("2026-11-22")
)

// openSQLite opens a generated file read-only.
func openSQLite(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// queryString runs a query returning one value and formats it.
func queryString(t testing.TB, db *sql.DB, query string, args ...any) string {
	t.Helper()
	var v any
	if err := db.QueryRowContext(context.Background(), query, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// tableInfo is a table of a generated SQLite file and its declared column
// types (TEXT, INTEGER or REAL), used to normalize values from any dialect.
type tableInfo struct {
	name  string
	cols  []string
	types []string
}

func sqliteTables(t testing.TB, db *sql.DB) []tableInfo {
	t.Helper()
	ctx := context.Background()
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	var tables []tableInfo
	for _, n := range names {
		ti := tableInfo{name: n}
		cols, err := db.QueryContext(ctx, "SELECT name, type FROM pragma_table_info(?) ORDER BY cid", n)
		if err != nil {
			t.Fatal(err)
		}
		for cols.Next() {
			var c, typ string
			if err := cols.Scan(&c, &typ); err != nil {
				t.Fatal(err)
			}
			ti.cols = append(ti.cols, c)
			ti.types = append(ti.types, typ)
		}
		if err := cols.Close(); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, ti)
	}
	return tables
}

// tableSum is a table's row count and a hash of its content that does not
// depend on the dialect or on row order.
type tableSum struct {
	Rows int
	Hash string
}

// normalize formats one value of a column declared as typ. Floats use
// strconv 'g' -1, the shortest text that parses back to the same float64, so
// equal sums mean bit-identical REAL values.
func normalize(typ string, v any) (string, error) {
	if v == nil {
		return "\x00NULL", nil
	}
	var s string
	switch x := v.(type) {
	case []byte:
		s = string(x)
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	case int32:
		s = strconv.FormatInt(int64(x), 10)
	case float64:
		if typ == "REAL" {
			return strconv.FormatFloat(x, 'g', -1, 64), nil
		}
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return "", fmt.Errorf("unexpected %T %v", v, v)
	}
	switch typ {
	case "REAL":
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	case "INTEGER":
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(i, 10), nil
	}
	return s, nil
}

// sumTable reads every row of query (whose columns are ti's) and sums it up.
func sumTable(t testing.TB, db *sql.DB, ti tableInfo, query string, args ...any) tableSum {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cols, ti.cols) {
		t.Fatalf("table %s: columns %v, want %v", ti.name, cols, ti.cols)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var lines []string
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		for i, v := range vals {
			s, err := normalize(ti.types[i], v)
			if err != nil {
				t.Fatalf("table %s column %s: %v", ti.name, cols[i], err)
			}
			b.WriteString(s)
			b.WriteByte(0x1f)
		}
		lines = append(lines, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{0x1e})
	}
	return tableSum{Rows: len(lines), Hash: hex.EncodeToString(h.Sum(nil))}
}

// sqliteSums sums every table of a generated SQLite file (once per file).
func sqliteSums(t testing.TB, path string) ([]tableInfo, map[string]tableSum) {
	t.Helper()
	v, _ := cached("sums").sums.LoadOrStore(path, &summed{})
	s := v.(*summed)
	s.once.Do(func() {
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		s.tables = sqliteTables(t, db)
		s.sums = map[string]tableSum{}
		for _, ti := range s.tables {
			s.sums[ti.name] = sumTable(t, db, ti, "SELECT * FROM "+ti.name)
		}
	})
	if s.sums == nil {
		t.Fatalf("summing %s failed", path)
	}
	return s.tables, s.sums
}
