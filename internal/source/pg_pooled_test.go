package source_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// pooledServer is pgServer reached through a PgBouncer in transaction
// mode (env names which one): a database of its own, as PgBouncer
// refuses a search_path startup parameter, holding items in public; the
// admin connection goes to the server directly, so it sees every
// session the pooler opened.
func pooledServer(t *testing.T, env string, opt source.Options) server {
	t.Helper()
	admin, dsn := testdb.PooledDatabase(t, env, "t_pooled")
	mustExec(t, admin, "CREATE TABLE items (id integer PRIMARY KEY, name text)")
	mustExec(t, admin, "INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	src, err := source.Open(context.Background(), "t", dsn, testModelT(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return server{
		name: "pgbouncer", src: src, admin: admin,
		count: func(t *testing.T) int { return countRows(t, admin, "SELECT count(*) FROM items") },
		slow:  "SELECT pg_sleep(30)",
		huge:  "SELECT 1 FROM pg_class a, pg_class b, pg_class c",
		running: func(t *testing.T) int {
			return countRows(t, admin, `SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query = 'SELECT pg_sleep(30)'`)
		},
	}
}

// TestPostgresThroughPooler: through PgBouncer in transaction mode, which
// refuses the execution pool's startup parameters, a source answers (the
// pool turns pooled, warning once), every statement runs with the limits
// and read-only, nothing a statement changes in the pooler's session
// outlives it, and statements of many connections at once, sharing the
// pooler's two sessions, each get their own answer.
func TestPostgresThroughPooler(t *testing.T) {
	var logs syncBuffer
	s := pooledServer(t, testdb.EnvPgBouncer, source.Options{QueryTimeout: 7 * time.Second, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	limits := "SELECT current_setting('work_mem'), current_setting('transaction_read_only'), current_setting('jit'), current_setting('max_parallel_workers_per_gather')"
	if got, want := fmt.Sprint(firstRow(t, s.src, limits)), "[16MB on off 1]"; got != want {
		t.Errorf("the statement's settings: %s, want %s", got, want)
	}
	statementTimeout(t, s.src, 7*time.Second)
	if n := strings.Count(logs.String(), "a pooler is between"); n != 1 {
		t.Errorf("want one warning, got %d:\n%s", n, logs.String())
	}
	firstRow(t, s.src, "SELECT set_config('work_mem', '1234kB', false), pg_advisory_lock(4243)")
	if got := fmt.Sprint(firstRow(t, s.src, limits)[0]); got != "16MB" {
		t.Errorf("work_mem after a statement set it for its session: %s", got)
	}
	if n := countRows(t, s.admin, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4243"); n != 0 {
		t.Errorf("an advisory lock taken by an earlier statement is still held")
	}
	concurrentAnswers(t, s.src)
}

// statementTimeout checks that a statement runs with the server's
// statement_timeout set to the time its query timeout leaves it.
func statementTimeout(t *testing.T, src *source.Source, timeout time.Duration) {
	t.Helper()
	ms := firstRow(t, src, "SELECT setting::bigint FROM pg_settings WHERE name = 'statement_timeout'")[0].(int64)
	if got := time.Duration(ms) * time.Millisecond; got > timeout || got < timeout-2*time.Second {
		t.Errorf("statement_timeout %s, want at most %s and not much less", got, timeout)
	}
}

// TestPostgresPoolerIgnoringStartupParameters: through a PgBouncer that
// ignores the startup parameters, the session of a new connection lacks
// the statement_timeout it asked for, so the pool turns pooled at once
// (warning once): its very first statement runs with the limits, and
// statements of many connections at once each get their own answer.
func TestPostgresPoolerIgnoringStartupParameters(t *testing.T) {
	var logs syncBuffer
	s := pooledServer(t, testdb.EnvPgBouncerIgnoring, source.Options{QueryTimeout: 7 * time.Second, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if got := fmt.Sprint(firstRow(t, s.src, "SELECT current_setting('work_mem'), current_setting('transaction_read_only')")); got != "[16MB on]" {
		t.Errorf("the first statement's settings: %s, want [16MB on]", got)
	}
	statementTimeout(t, s.src, 7*time.Second)
	concurrentAnswers(t, s.src)
	if n := strings.Count(logs.String(), "a pooler is between"); n != 1 || !strings.Contains(logs.String(), "runs without the statement_timeout") {
		t.Errorf("want one warning, for the session without the parameters; got %d:\n%s", n, logs.String())
	}
}

// concurrentAnswers runs, from several goroutines at once, statements of
// different texts whose answers tell them apart, more connections than
// the pooler has sessions, and checks each answer is its statement's.
func concurrentAnswers(t *testing.T, src *source.Source) {
	t.Helper()
	const workers, rounds = 6, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				// a text per worker and round parity, whose answer names
				// the worker: another's statement run in its place shows
				q := fmt.Sprintf("SELECT name, %d AS w FROM items WHERE id = $1 AND %d = %d", w, r%2, r%2)
				id := int64(r%3 + 1)
				res, err := src.Query(context.Background(), q, []any{id}, 0)
				if err != nil {
					errs <- fmt.Errorf("worker %d round %d: %w", w, r, err)
					continue
				}
				want := fmt.Sprint([]any{string(rune('a' + id - 1)), int64(w)})
				if len(res.Rows) != 1 || fmt.Sprint(res.Rows[0]) != want {
					errs <- fmt.Errorf("worker %d round %d: %v, want %s", w, r, res.Rows, want)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	if n > 5 {
		t.Errorf("and %d more", n-5)
	}
}

// TestMetadataPoolThroughPooler: the pool that reads the catalog and
// loads values runs the same texts from several connections at once
// through a pooler in transaction mode, whose sessions those connections
// share: pgx's default would prepare each text under a name made from its
// hash, which a second connection meeting the same session finds taken
// ("prepared statement … already exists").
func TestMetadataPoolThroughPooler(t *testing.T) {
	s := pooledServer(t, testdb.EnvPgBouncer, source.Options{})
	db, err := source.OpenDB(context.Background(), s.src.Target)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 6*20)
	for w := range 6 {
		wg.Go(func() {
			for r := range 20 {
				var n int64
				if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM items WHERE id > $1", r%3).Scan(&n); err != nil {
					errs <- fmt.Errorf("worker %d round %d: %w", w, r, err)
				} else if n != int64(3-r%3) {
					errs <- fmt.Errorf("worker %d round %d: %d rows, want %d", w, r, n, 3-r%3)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestPoolerSurvivesCancels: answers cut at the row cap cancel their
// statement through the pooler, many times over, and the pooler is still
// there to answer. pgx's own cancel handler closed the request's socket
// as soon as the statement ended, and PgBouncer 1.18 exited on that
// ("bad client state: 0"), once in this project's CI.
func TestPoolerSurvivesCancels(t *testing.T) {
	s := pooledServer(t, testdb.EnvPgBouncer, source.Options{RowCap: 50, QueryTimeout: 30 * time.Second})
	for i := range 40 {
		res, err := s.src.Query(context.Background(), s.huge, nil, 0)
		if err != nil {
			t.Fatalf("statement %d: %v", i, err)
		}
		if !res.Truncated {
			t.Fatalf("statement %d: not cut at the row cap", i)
		}
	}
	if got := fmt.Sprint(firstRow(t, s.src, "SELECT count(*) FROM items")[0]); got != "3" {
		t.Errorf("after the cancels: %s items", got)
	}
}
