// Package testdb gives tests the real database servers they need.
//
// Integration tests read a server's DSN from an environment variable. On a
// laptop without the server the test is skipped with a message that says how
// to enable it; when CLARIFY_TEST_REQUIRE_SERVERS=1 (set by .ci/run) a missing
// DSN fails the test instead, so CI can never pass by skipping.
package testdb

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
)

// Environment variables read by this package.
const (
	// EnvPostgres holds a PostgreSQL DSN, e.g. postgres://root@127.0.0.1:5432/test.
	EnvPostgres = "CLARIFY_TEST_POSTGRES"
	// EnvMySQL holds a MySQL/MariaDB DSN in go-sql-driver form, e.g.
	// root@tcp(127.0.0.1:3306)/test.
	EnvMySQL = "CLARIFY_TEST_MYSQL"
	// EnvPgBouncer holds the address of a PgBouncer in transaction mode
	// that takes every database name to the same-named database of the
	// EnvPostgres server (a "*" entry), e.g. postgres://root@127.0.0.1:6432;
	// EnvPgBouncerIgnoring one that also ignores the execution pool's
	// startup parameters (ignore_startup_parameters), which PgBouncer
	// refuses by default. .ci/run starts both.
	EnvPgBouncer         = "CLARIFY_TEST_PGBOUNCER"
	EnvPgBouncerIgnoring = "CLARIFY_TEST_PGBOUNCER_IGNORING"
	// EnvRequire, when "1", turns every skip for a missing server into a failure.
	EnvRequire = "CLARIFY_TEST_REQUIRE_SERVERS"
)

// Postgres returns the PostgreSQL DSN for integration tests, or skips (fails
// in CI) when none is configured.
func Postgres(t testing.TB) string {
	t.Helper()
	return need(t, EnvPostgres, "postgres://root@127.0.0.1:5432/test")
}

// MySQL returns the MySQL/MariaDB DSN for integration tests, or skips (fails
// in CI) when none is configured.
func MySQL(t testing.TB) string {
	t.Helper()
	return need(t, EnvMySQL, "root@tcp(127.0.0.1:3306)/test")
}

// PgBouncer returns the address of the PgBouncer of env (EnvPgBouncer or
// EnvPgBouncerIgnoring), or skips (fails in CI) when none is configured.
func PgBouncer(t testing.TB, env string) string {
	t.Helper()
	return need(t, env, "postgres://root@127.0.0.1:6432")
}

// Required reports whether missing servers must fail tests rather than skip them.
func Required() bool { return os.Getenv(EnvRequire) == "1" }

// Skip skips the test with why, or fails it when servers are required.
func Skip(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s (and %s=1 forbids skipping)", why, EnvRequire)
	}
	t.Skip(why)
}

func need(t testing.TB, env, example string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		Skip(t, "integration test needs a server: set "+env+" (e.g. "+env+"='"+example+"') to run it")
	}
	return dsn
}

// Name returns a fresh lower-case identifier with the given prefix, for a
// schema or database private to one test, so parallel test packages sharing
// one server never collide.
func Name(prefix string) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + "_" + hex.EncodeToString(b[:])
}
