package source

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
)

// mappedDB writes a SQLite file whose table spans a few hundred pages and
// returns its path and its bytes.
func mappedDB(t *testing.T) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mapped.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)",
		"WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000) INSERT INTO t SELECT i, printf('%080d', i) FROM c",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// TestSQLiteFileTruncatedUnderStatement: a SQLite file truncated in place
// while a statement reads it through the memory map (a new export copied
// over the old one) fails that statement with ErrFileChanged, where the
// fault would otherwise crash the process; the connection that met it
// leaves the pool, and once the file is whole again the next statement
// answers. (Read without the map, the statement fails as malformed
// instead, which this test also refuses.)
func TestSQLiteFileTruncatedUnderStatement(t *testing.T) {
	ctx := context.Background()
	path, data := mappedDB(t)
	p, err := openSQLiteExec(Target{Dialect: model.SQLite, Driver: "sqlite", DSN: path, Display: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	conn, err := p.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	_, err = readMapped(conn, func() (*Result, error) {
		return nil, eachRow(ctx, func() {}, conn, "SELECT v FROM t", nil, nil, func([]any) bool {
			if rows++; rows == 100 {
				if err := os.Truncate(path, 8192); err != nil {
					t.Error(err)
				}
			}
			return true
		})
	})
	if !errors.Is(err, ErrFileChanged) {
		t.Fatalf("statement over a truncated file: %d rows, err %v; want ErrFileChanged", rows, err)
	}
	if strings.Contains(err.Error(), "nil pointer") {
		t.Errorf("the error %q reads as a bug of Clarify's, not as the file changing", err)
	}
	conn.Close()
	if open := p.db.Stats().OpenConnections; open != 0 {
		t.Errorf("%d connections open after the fault, want 0: the faulted one must leave the pool", open)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := p.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != 20000 {
		t.Fatalf("after the file is whole again: %d rows, %v; want 20000", n, err)
	}
}

// TestReadMappedPassesOtherPanics: only a memory fault becomes an error; any
// other panic is a bug and goes on up.
func TestReadMappedPassesOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "bug" {
			t.Fatalf("recovered %v, want the panic passed on", r)
		}
	}()
	_, _ = readMapped(nil, func() (*Result, error) { panic("bug") })
	t.Fatal("readMapped returned from a panic")
}
