package store_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/store/storetest"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// sqliteDSN names a new file in a temporary directory.
func sqliteDSN(tb testing.TB) string {
	tb.Helper()
	return "sqlite:" + filepath.Join(tb.TempDir(), "clarify.db")
}

// postgresDSN creates a schema private to tb on the test server, dropped
// when tb ends, and names it as the DSN's search_path.
func postgresDSN(tb testing.TB) string {
	tb.Helper()
	_, _, dsn := testdb.PostgresSchema(tb, "store")
	return dsn
}

// backends are the store's two implementations, named as
// store.MigrationVersions names them, each with a DSN maker.
var backends = []struct {
	name   string
	newDSN storetest.NewDSN
}{
	{"sqlite", sqliteDSN},
	{"postgres", postgresDSN},
}

func TestSQLite(t *testing.T) {
	t.Parallel()
	storetest.Run(t, sqliteDSN)
}

func TestPostgres(t *testing.T) {
	t.Parallel()
	testdb.Postgres(t) // skip, or fail in CI, before any subtest
	storetest.Run(t, postgresDSN)
}

func BenchmarkSQLite(b *testing.B) { storetest.Bench(b, sqliteDSN) }

func BenchmarkPostgres(b *testing.B) { storetest.Bench(b, postgresDSN) }

func TestOpenRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, dsn, want string
	}{
		{"empty", "", "no DSN"},
		{"unknown scheme", "mysql://root:secret@localhost/db", "unknown DSN"},
		{"bare path", "/tmp/clarify.db", "unknown DSN"},
		{"memory", "sqlite::memory:", "path of a file"},
		{"no path", "sqlite:", "path of a file"},
		{"missing directory", "sqlite:" + filepath.Join(t.TempDir(), "no", "such", "dir", "x.db"), "sqlite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := store.Open(context.Background(), tc.dsn)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded", tc.dsn)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open(%q) = %v, want an error about %q", tc.dsn, err, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("Open(%q) error reveals the password: %v", tc.dsn, err)
			}
		})
	}
}

func TestOpenPostgresErrors(t *testing.T) {
	t.Parallel()
	base := testdb.Postgres(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("missing schema", func(t *testing.T) {
		v := *u
		q := v.Query()
		q.Set("search_path", testdb.Name("nosuch"))
		v.RawQuery = q.Encode()
		s, err := store.Open(context.Background(), v.String())
		if err == nil {
			s.Close()
			t.Fatal("Open succeeded without the search_path schema")
		}
		if !strings.Contains(err.Error(), "search_path") {
			t.Errorf("error %v does not mention search_path", err)
		}
	})
	t.Run("password redacted", func(t *testing.T) {
		v := *u
		v.User = url.UserPassword("nobody", "s3cr3t-pw")
		v.Host = "127.0.0.1:1" // nothing listens there
		s, err := store.Open(context.Background(), v.String())
		if err == nil {
			s.Close()
			t.Fatal("Open succeeded")
		}
		if strings.Contains(err.Error(), "s3cr3t-pw") {
			t.Errorf("error reveals the password: %v", err)
		}
	})
}

// TestSQLiteSettings checks what the SQLite store promises about its file:
// WAL, synchronous=FULL (2), foreign keys, a busy timeout, mode 0600.
func TestSQLiteSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "clarify.db")
	s, err := store.OpenConfig(ctx, store.Config{DSN: "sqlite:" + path, BusyTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := store.WriterPragmas(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"journal_mode": "wal", "synchronous": "2", "foreign_keys": "1", "busy_timeout": "3000"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writer pragmas (-want +got):\n%s", diff)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("database file mode %v, want 0600", mode)
	}
}
