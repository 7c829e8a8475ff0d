package testdb

import (
	"database/sql"
	"net/url"
	"testing"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// PostgresSchema opens the test PostgreSQL server, creates a schema of
// its own for the test (dropped when it ends) and returns an admin
// connection, the schema's name and a DSN whose search_path is that
// schema. An unreachable server skips the test (fails it in CI).
func PostgresSchema(t testing.TB, prefix string) (admin *sql.DB, ns, dsn string) {
	t.Helper()
	base := Postgres(t)
	admin = open(t, "pgx", base, "PostgreSQL")
	ns = Name(prefix)
	exec(t, admin, "CREATE SCHEMA "+ns)
	t.Cleanup(func() { exec(t, admin, "DROP SCHEMA "+ns+" CASCADE") })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", ns)
	u.RawQuery = q.Encode()
	return admin, ns, u.String()
}

// MySQLDatabase opens the test MySQL/MariaDB server, creates a database of
// its own for the test (dropped when it ends) and returns an admin
// connection, the database's name and a DSN ("mysql:…") that uses it.
func MySQLDatabase(t testing.TB, prefix string) (admin *sql.DB, ns, dsn string) {
	t.Helper()
	base := MySQL(t)
	admin = open(t, "mysql", base, "MySQL")
	ns = Name(prefix)
	exec(t, admin, "CREATE DATABASE "+ns)
	t.Cleanup(func() { exec(t, admin, "DROP DATABASE "+ns) })
	cfg, err := mysql.ParseDSN(base)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = ns
	return admin, ns, "mysql:" + cfg.FormatDSN()
}

func open(t testing.TB, driver, dsn, server string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		Skip(t, server+" unreachable: "+err.Error())
	}
	return db
}

func exec(t testing.TB, db *sql.DB, stmt string) {
	t.Helper()
	if _, err := db.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}
