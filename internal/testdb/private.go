package testdb

import (
	"context"
	"database/sql"
	"net/url"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/clarify-sql/clarify/internal/model"
)

// Server is a test's view of one real database server: an admin
// connection, closed when the test ends, and the means to give the test
// schemas (PostgreSQL) or databases (MySQL) of its own, so that parallel
// tests sharing the server never see each other's tables.
type Server struct {
	// Admin is connected as the DSN of the environment says, with the
	// right to create and drop schemas or databases.
	Admin *sql.DB
	// Driver is the database/sql driver name: "pgx" or "mysql".
	Driver string
	// dialect quotes the names of the namespaces the server makes.
	dialect model.Dialect
	dsn     string
}

// PostgresServer opens the test PostgreSQL server. An unreachable or
// unconfigured server skips the test (fails it in CI).
func PostgresServer(t testing.TB) *Server {
	t.Helper()
	dsn := Postgres(t)
	return &Server{Admin: open(t, "pgx", dsn, "PostgreSQL"), Driver: "pgx", dialect: model.Postgres, dsn: dsn}
}

// MySQLServer opens the test MySQL/MariaDB server. An unreachable or
// unconfigured server skips the test (fails it in CI).
func MySQLServer(t testing.TB) *Server {
	t.Helper()
	dsn := MySQL(t)
	return &Server{Admin: open(t, "mysql", dsn, "MySQL"), Driver: "mysql", dialect: model.MySQL, dsn: dsn}
}

// Namespace returns a fresh name, starting with prefix, for a schema
// (PostgreSQL) or database (MySQL) private to the test, and drops what
// goes by that name, with all it holds, when the test ends. It does not
// create it: a loader that creates its own namespace (demo.LoadPostgres,
// demo.LoadMySQL) is given the name, and Create makes it empty.
func (s *Server) Namespace(t testing.TB, prefix string) string {
	t.Helper()
	ns := Name(prefix)
	drop := "DROP DATABASE IF EXISTS " + s.dialect.QuoteIdent(ns)
	if s.Driver == "pgx" {
		drop = "DROP SCHEMA IF EXISTS " + s.dialect.QuoteIdent(ns) + " CASCADE"
	}
	t.Cleanup(func() {
		if _, err := s.Admin.ExecContext(context.Background(), drop); err != nil {
			t.Errorf("%s: %v", drop, err)
		}
	})
	return ns
}

// Create is Namespace that also creates the schema or database, empty.
func (s *Server) Create(t testing.TB, prefix string) string {
	t.Helper()
	ns := s.Namespace(t, prefix)
	create := "CREATE DATABASE " + s.dialect.QuoteIdent(ns)
	if s.Driver == "pgx" {
		create = "CREATE SCHEMA " + s.dialect.QuoteIdent(ns)
	}
	exec(t, s.Admin, create)
	return ns
}

// DSN returns the server's DSN with ns as the default schema (PostgreSQL's
// search_path) or database, in the form source.Open and the store take:
// a MySQL DSN carries the "mysql:" prefix.
func (s *Server) DSN(t testing.TB, ns string) string {
	t.Helper()
	if s.Driver == "mysql" {
		cfg, err := mysql.ParseDSN(s.dsn)
		if err != nil {
			t.Fatalf("parse %s: %v", EnvMySQL, err)
		}
		cfg.DBName = ns
		return "mysql:" + cfg.FormatDSN()
	}
	u, err := url.Parse(s.dsn)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", ns)
	u.RawQuery = q.Encode()
	return u.String()
}

// Open returns a pool whose default schema or database is ns, closed when
// the test ends.
func (s *Server) Open(t testing.TB, ns string) *sql.DB {
	t.Helper()
	db, err := sql.Open(s.Driver, strings.TrimPrefix(s.DSN(t, ns), "mysql:"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// PostgresSchema opens the test PostgreSQL server, creates a schema of
// its own for the test (dropped when it ends) and returns an admin
// connection, the schema's name and a DSN whose search_path is that
// schema. An unreachable server skips the test (fails it in CI).
func PostgresSchema(t testing.TB, prefix string) (admin *sql.DB, ns, dsn string) {
	t.Helper()
	s := PostgresServer(t)
	ns = s.Create(t, prefix)
	return s.Admin, ns, s.DSN(t, ns)
}

// MySQLDatabase opens the test MySQL/MariaDB server, creates a database of
// its own for the test (dropped when it ends) and returns an admin
// connection, the database's name and a DSN ("mysql:…") that uses it.
func MySQLDatabase(t testing.TB, prefix string) (admin *sql.DB, ns, dsn string) {
	t.Helper()
	s := MySQLServer(t)
	ns = s.Create(t, prefix)
	return s.Admin, ns, s.DSN(t, ns)
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

// PooledDatabase creates a PostgreSQL database of its own for the test on
// the test server (dropped when it ends) and returns an admin connection
// to it, direct, and a DSN that reaches it through the PgBouncer of env
// (EnvPgBouncer or EnvPgBouncerIgnoring): a database rather than a schema,
// as PgBouncer refuses a search_path startup parameter. An unconfigured
// pooler or server skips the test (fails it in CI).
func PooledDatabase(t testing.TB, env, prefix string) (admin *sql.DB, dsn string) {
	t.Helper()
	pooler := PgBouncer(t, env)
	s := PostgresServer(t)
	name := Name(prefix)
	exec(t, s.Admin, "CREATE DATABASE "+name)
	t.Cleanup(func() {
		if _, err := s.Admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(s.dsn)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	u.Path = "/" + name
	u.RawQuery = ""
	admin = open(t, "pgx", u.String(), "PostgreSQL")
	return admin, strings.TrimSuffix(pooler, "/") + "/" + name
}
