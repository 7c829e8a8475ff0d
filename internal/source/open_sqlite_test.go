package source_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// readingsDB writes testdata/sqlite_readings.sql to a SQLite file and
// returns its path.
func readingsDB(t *testing.T) string {
	t.Helper()
	ddl, err := os.ReadFile(filepath.Join("testdata", "sqlite_readings.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "readings.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(ddl)); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSQLiteMetadataPoolGivesBackPages: a connection of a SQLite metadata
// pool is closed a few seconds after its last statement, not kept for a
// minute. While open it keeps the pages it read, which in the driver's
// one page-cache group for the whole process are pages the execution
// pool's connections no longer have (open.go, sqliteIdle).
func TestSQLiteMetadataPoolGivesBackPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := readingsDB(t)
	db, err := source.OpenDB(ctx, source.Target{Dialect: model.SQLite, Driver: "sqlite", DSN: path, Display: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM readings WHERE sensor = ?", "north").Scan(&n); err != nil || n != 2 {
		t.Fatalf("count = %d, %v; want 2", n, err)
	}
	if open := db.Stats().OpenConnections; open != 1 {
		t.Fatalf("%d connections open after one statement, want 1 (idle)", open)
	}
	deadline := time.Now().Add(10 * time.Second)
	for db.Stats().OpenConnections > 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	if s := db.Stats(); s.OpenConnections != 0 || s.MaxIdleTimeClosed == 0 {
		t.Errorf("10 s after its statement: %d connections open, %d closed as idle; want the idle one closed", s.OpenConnections, s.MaxIdleTimeClosed)
	}
}
