package introspect_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"             // the "sqlite" driver

	"github.com/clarify-sql/clarify/internal/introspect"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// schemas are the test databases in testdata/NAME.sql.
var schemas = []string{"library", "hr", "shop", "league", "staff"}

// statements splits a testdata SQL file into statements (no statement in
// these files contains a semicolon at the end of a line).
func statements(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			lines = append(lines, l)
		}
	}
	var out []string
	for _, s := range strings.Split(strings.Join(lines, "\n"), ";\n") {
		if s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";")); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func load(t *testing.T, db *sql.DB, schema string) {
	t.Helper()
	for _, s := range statements(t, schema+".sql") {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("load %s: %v\n%s", schema, err, s)
		}
	}
}

// sqliteFile creates a SQLite database file holding schema.
func sqliteFile(t *testing.T, schema string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), schema+".db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	load(t, db, schema)
	return path
}

func openSQLite(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// loaded loads schema into a schema (PostgreSQL) or database (MySQL) of
// its own on srv, dropped at the end of the test, and returns a pool using
// it and the DSN a source opens it with.
func loaded(t *testing.T, srv *testdb.Server, schema string) (*sql.DB, string) {
	t.Helper()
	ns := srv.Create(t, "introspect_"+schema)
	db := srv.Open(t, ns)
	load(t, db, schema)
	return db, srv.DSN(t, ns)
}

// inspect runs Inspect and fails the test on error.
func inspect(t *testing.T, db *sql.DB, d model.Dialect) *introspect.Schema {
	t.Helper()
	s, err := introspect.Inspect(context.Background(), db, d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// draft drafts a model and checks that it loads.
func draft(t *testing.T, s *introspect.Schema, name string) ([]byte, *model.Model) {
	t.Helper()
	out, err := introspect.Draft(s, name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Parse(name+".yaml", out)
	if err != nil {
		t.Fatalf("the draft does not load: %v\n%s", err, out)
	}
	return out, m
}

// fieldCheck is one thing a test expects of a drafted model: the field
// named by its YAML key of an entity, or of its column when column is set,
// has the value want.
type fieldCheck struct{ entity, column, field, want string }

// checkFields reports, as errors of t, each check that m does not meet;
// it returns whether all were met.
func checkFields(t *testing.T, m *model.Model, checks []fieldCheck) bool {
	t.Helper()
	ok := true
	for _, c := range checks {
		e := m.Entity(c.entity)
		if e == nil {
			t.Errorf("no entity %s", c.entity)
			ok = false
			continue
		}
		got := yamlField(e, c.field)
		if c.column != "" {
			col := e.Column(c.column)
			if col == nil {
				t.Errorf("no column %s.%s", c.entity, c.column)
				ok = false
				continue
			}
			got = yamlField(col, c.field)
		}
		if got != c.want {
			t.Errorf("%s.%s %s = %q, want %q", c.entity, c.column, c.field, got, c.want)
			ok = false
		}
	}
	return ok
}

// yamlField returns the string field of a model struct (*model.Entity,
// *model.Column) whose YAML key is key, as the draft writes it; a key the
// struct has no string field for reads "?key", which no check wants.
func yamlField(v any, key string) string {
	rv := reflect.Indirect(reflect.ValueOf(v))
	for i := range rv.NumField() {
		name, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("yaml"), ",")
		if name == key && rv.Field(i).Kind() == reflect.String {
			return rv.Field(i).String()
		}
	}
	return "?" + key
}
