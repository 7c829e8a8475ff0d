package sqliteauth_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	sqlite "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/sqliteauth"
)

// readOpen allows reading table open and calling abs; it denies everything
// else, the table secret included.
func readOpen(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect:
		return sqlite.AuthorizerOK
	case sqlite.AuthRead:
		if arg1 == "open" {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthFunction:
		if strings.EqualFold(arg2, "abs") {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

func openDB(t *testing.T, c sqliteauth.Connector) *sql.DB {
	t.Helper()
	base, err := sqlite.NewConnector("file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	c.Connector = base
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1) // one in-memory database
	t.Cleanup(func() { db.Close() })
	return db
}

// TestConnector: Setup builds the schema before the authorizer holds, and
// then every statement is compiled under it.
func TestConnector(t *testing.T) {
	t.Parallel()
	db := openDB(t, sqliteauth.Connector{
		Authorize: readOpen,
		Setup:     []string{"CREATE TABLE open (a)", "CREATE TABLE secret (b)", "INSERT INTO open VALUES (-1)"},
	})
	tests := []struct {
		name  string
		query string
		allow bool
	}{
		{"read an allowed table", "SELECT a FROM open", true},
		{"call an allowed function", "SELECT abs(a) FROM open", true},
		{"read a denied table", "SELECT b FROM secret", false},
		{"call a denied function", "SELECT random()", false},
		{"write", "INSERT INTO open VALUES (2)", false},
		{"change the schema", "CREATE TABLE more (c)", false},
		{"pragma", "PRAGMA table_info(open)", false},
		{"attach", "ATTACH DATABASE ':memory:' AS other", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := db.QueryContext(context.Background(), tc.query)
			if err == nil {
				rows.Close()
			}
			if allowed := err == nil; allowed != tc.allow {
				t.Errorf("%s: allowed = %v (err %v), want %v", tc.query, allowed, err, tc.allow)
			}
		})
	}
}

// TestConnectorSetupFails: a connection whose setup fails is not handed
// to the pool.
func TestConnectorSetupFails(t *testing.T) {
	t.Parallel()
	db := openDB(t, sqliteauth.Connector{Authorize: readOpen, Setup: []string{"CREATE TABLE ("}})
	if err := db.PingContext(context.Background()); err == nil || !strings.Contains(err.Error(), "set up SQLite connection") {
		t.Errorf("ping = %v, want the setup error", err)
	}
}

// TestInstall: Install replaces the authorizer of a connection already in
// the pool, and refuses a connection of another driver.
func TestInstall(t *testing.T) {
	t.Parallel()
	db := openDB(t, sqliteauth.Connector{Authorize: readOpen, Setup: []string{"CREATE TABLE secret (b)"}})
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT b FROM secret"); err == nil {
		t.Fatal("secret read before Install, want it denied")
	}
	allowAll := func(sqlite.AuthorizerActionCode, string, string, string, string) sqlite.AuthorizerReturnCode {
		return sqlite.AuthorizerOK
	}
	if err := conn.Raw(func(dc any) error { return sqliteauth.Install(dc, allowAll) }); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT b FROM secret"); err != nil {
		t.Errorf("secret read after Install(allowAll): %v", err)
	}
	if err := sqliteauth.Install(struct{}{}, allowAll); !errors.Is(err, sqliteauth.ErrNoAuthorizer) {
		t.Errorf("Install on a non-SQLite connection = %v, want ErrNoAuthorizer", err)
	}
}
