package source_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// firstRow runs q on src's execution path and returns its first row.
func firstRow(t *testing.T, src *source.Source, q string, args ...any) []any {
	t.Helper()
	res, err := src.Query(context.Background(), q, args, 0)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if len(res.Rows) == 0 {
		t.Fatalf("%s: no row", q)
	}
	return res.Rows[0]
}

// TestPostgresLeftPreparedStatement: a function can leave a prepared
// statement made in SQL in its session (EXECUTE 'PREPARE …' survives the
// rollback), which the reset that ends every statement finds: the
// statement's answer is returned, its connection closed, and the next
// statement runs on a session without it.
func TestPostgresLeftPreparedStatement(t *testing.T) {
	ctx := context.Background()
	s := pgServer(t, source.Options{})
	ns := s.src.Target.Display[strings.Index(s.src.Target.Display, "search_path=")+len("search_path="):]
	mustExec(t, s.admin, "CREATE FUNCTION "+ns+`.leave_prepared() RETURNS int LANGUAGE plpgsql AS $$
BEGIN EXECUTE 'PREPARE clarify_left AS SELECT 1'; RETURN 7; END $$`)
	res, err := s.src.Query(ctx, "SELECT leave_prepared(), pg_backend_pid()", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0] != int64(7) {
		t.Fatalf("answer %v, want 7", res.Rows[0][0])
	}
	left := res.Rows[0][1]
	gone := false
	for range 100 {
		if countRows(t, s.admin, fmt.Sprintf("SELECT count(*) FROM pg_stat_activity WHERE pid = %d", left)) == 0 {
			gone = true
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !gone {
		t.Fatalf("backend %v, which holds a prepared statement made in SQL, is still connected", left)
	}
	res, err = s.src.Query(ctx, "SELECT (SELECT count(*) FROM pg_prepared_statements WHERE from_sql), pg_backend_pid()", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0] != int64(0) || res.Rows[0][1] == left {
		t.Errorf("next statement: %v prepared in SQL on backend %v (the one left was %v)", res.Rows[0][0], res.Rows[0][1], left)
	}
}

// TestPostgresKeptStatements: a connection keeps the statements it ran
// prepared by name, runs a kept one again without preparing it, and keeps
// at most MaxKept, the least recently used deallocated first.
func TestPostgresKeptStatements(t *testing.T) {
	ctx := context.Background()
	s := pgServer(t, source.Options{})
	pid := func(q string, args ...any) any {
		t.Helper()
		row := firstRow(t, s.src, q, args...)
		return row[len(row)-1]
	}
	const first = "SELECT name, pg_backend_pid() FROM items WHERE id = $1"
	backend := pid(first, 1)
	kept := func() (n, firstKept, generic int64) {
		t.Helper()
		res, err := s.src.Query(ctx, `SELECT count(*), count(*) FILTER (WHERE statement = $1), coalesce(sum(generic_plans) FILTER (WHERE statement = $1), 0)::bigint, pg_backend_pid()
FROM pg_prepared_statements WHERE NOT from_sql AND name NOT LIKE '%\_reset'`, []any{first}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows[0][3] != backend {
			t.Fatalf("the look ran on backend %v, the statements on %v: the test shows nothing", res.Rows[0][3], backend)
		}
		return res.Rows[0][0].(int64), res.Rows[0][1].(int64), res.Rows[0][2].(int64)
	}
	for i := range 9 {
		if got := pid(first, i%3+1); got != backend {
			t.Fatalf("run %d on backend %v, the first on %v", i+2, got, backend)
		}
	}
	// the look is kept too, prepared in its own batch before it runs
	if n, f, g := kept(); n != 2 || f != 1 || g == 0 {
		t.Errorf("after ten runs of one text: %d kept, %d of it, %d generic plans; want 2, 1, more than 0", n, f, g)
	}
	for i := range source.MaxKept + 5 {
		if got := pid(fmt.Sprintf("SELECT %d, pg_backend_pid()", i)); got != backend {
			t.Fatalf("statement %d on backend %v, the first on %v", i, got, backend)
		}
	}
	if n, f, _ := kept(); n != source.MaxKept+1 || f != 0 {
		t.Errorf("after %d more texts: %d kept (%d of the first text); want %d (the look prepared before the oldest goes), 0", source.MaxKept+5, n, f, source.MaxKept+1)
	}
}

// TestPostgresKeptStatementLost: a kept statement the session no longer
// has (a pooler that hands each transaction another session, or here a
// function that deallocates it) costs no answer: the statement runs again
// without kept statements, the connection's own are deallocated, and the
// source goes on pooled, warning once.
func TestPostgresKeptStatementLost(t *testing.T) {
	var logs syncBuffer
	s := pgServer(t, source.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	ns := s.src.Target.Display[strings.Index(s.src.Target.Display, "search_path=")+len("search_path="):]
	mustExec(t, s.admin, "CREATE FUNCTION "+ns+`.drop_kept(text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE n text;
BEGIN SELECT name INTO n FROM pg_prepared_statements WHERE statement = $1; EXECUTE format('DEALLOCATE %I', n); RETURN 1; END $$`)
	const q = "SELECT name, pg_backend_pid() FROM items WHERE id = $1"
	backend := firstRow(t, s.src, q, 1)[1]
	if got := firstRow(t, s.src, "SELECT drop_kept($1), pg_backend_pid()", q); got[1] != backend {
		t.Fatalf("the function ran on backend %v, the statement on %v: the test shows nothing", got[1], backend)
	}
	if got := firstRow(t, s.src, q, 2); got[0] != "b" || got[1] != backend {
		t.Fatalf("the statement whose kept copy was lost: %v on backend %v, want b on %v", got[0], got[1], backend)
	}
	// a lost statement is what a pooler in transaction mode shows: the
	// pool turns pooled (pg_pooled.go)
	if n := strings.Count(logs.String(), "a pooler is between"); n != 1 {
		t.Errorf("want one warning, got %d:\n%s", n, logs.String())
	}
	if got := firstRow(t, s.src, "SELECT count(*), pg_backend_pid() FROM pg_prepared_statements"); got[0] != int64(0) || got[1] != backend {
		t.Errorf("after: %v statements prepared on backend %v (want 0 on %v)", got[0], got[1], backend)
	}
}

// TestPostgresResetRefused: a role that may not read
// pg_prepared_statements (revoked from PUBLIC in its database) gets every
// answer, the first included; the pool's statements then end with
// DISCARD ALL, which still releases what a statement leaves.
func TestPostgresResetRefused(t *testing.T) {
	ctx := context.Background()
	srv := testdb.PostgresServer(t)
	name := testdb.Name("t_noview")
	mustExec(t, srv.Admin, "CREATE DATABASE "+name)
	mustExec(t, srv.Admin, "CREATE ROLE "+name+" LOGIN")
	t.Cleanup(func() {
		mustExec(t, srv.Admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		mustExec(t, srv.Admin, "DROP ROLE IF EXISTS "+name)
	})
	u, err := url.Parse(testdb.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	admin, err := sql.Open("pgx", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	mustExec(t, admin, "REVOKE SELECT ON pg_catalog.pg_prepared_statements FROM PUBLIC")
	mustExec(t, admin, "CREATE TABLE items (id integer PRIMARY KEY, name text)")
	mustExec(t, admin, "INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	mustExec(t, admin, "GRANT SELECT ON items TO "+name)
	admin.Close()
	u.User = url.User(name)
	var logs syncBuffer
	src, err := source.Open(ctx, "noview", u.String(), testModelT(t), source.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		testdb.Skip(t, "cannot log in as a new role without a password here: "+err.Error())
	}
	defer src.Close()
	for i, id := range []int64{1, 2, 1} {
		if got := firstRow(t, src, "SELECT name FROM items WHERE id = $1", id); got[0] != []string{"", "a", "b"}[id] {
			t.Errorf("statement %d: %v", i+1, got)
		}
	}
	if n := strings.Count(logs.String(), "no longer kept"); n != 1 {
		t.Errorf("want one warning, got %d:\n%s", n, logs.String())
	}
	backend := firstRow(t, src, "SELECT pg_advisory_lock(4547), pg_backend_pid()")[1]
	if got := firstRow(t, src, "SELECT count(*), pg_backend_pid() FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"); got[0] != int64(0) || got[1] != backend {
		t.Errorf("after an advisory lock: %v held on backend %v (the lock's was %v)", got[0], got[1], backend)
	}
}
