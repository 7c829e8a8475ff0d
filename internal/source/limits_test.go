package source_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

const bigModel = `source: t
entities:
  - name: big
    key: n
    columns:
      - {name: n, role: id, type: integer}
`

// bigServer is a server with table big of n rows in the test's own
// namespace, a source on it and the guard of its model.
type bigServer struct {
	name  string
	src   *source.Source
	admin *sql.DB
	g     *guard.Guard
	// running counts the server's active statements whose text is q.
	running func(t *testing.T, q string) int
}

func bigServers(t *testing.T, rows int, opt source.Options) []bigServer {
	t.Helper()
	m, err := model.Parse("big.yaml", []byte(bigModel))
	if err != nil {
		t.Fatal(err)
	}
	var out []bigServer
	{
		admin, ns, dsn := testdb.PostgresSchema(t, "t_limits")
		mustExec(t, admin, "CREATE TABLE "+ns+".big (n integer PRIMARY KEY)")
		mustExec(t, admin, fmt.Sprintf("INSERT INTO %s.big SELECT generate_series(1, %d)", ns, rows))
		mustExec(t, admin, "ANALYZE "+ns+".big")
		out = append(out, openBig(t, "postgres", dsn, admin, m, opt, func(t *testing.T, q string) int {
			var n int
			if err := admin.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state <> 'idle' AND query = $1`, q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}))
	}
	{
		admin, ns, dsn := testdb.MySQLDatabase(t, "t_limits")
		mustExec(t, admin, "CREATE TABLE "+ns+".big (n int PRIMARY KEY)")
		mustExec(t, admin, fmt.Sprintf("INSERT INTO %s.big SELECT seq FROM seq_1_to_%d", ns, rows)) // MariaDB's Sequence engine
		mustExec(t, admin, "ANALYZE TABLE "+ns+".big")
		out = append(out, openBig(t, "mysql", dsn, admin, m, opt, func(t *testing.T, q string) int {
			var n int
			if err := admin.QueryRow(`SELECT count(*) FROM information_schema.processlist WHERE info = ?`, q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}))
	}
	return out
}

func openBig(t *testing.T, name, dsn string, admin *sql.DB, m *model.Model, opt source.Options, running func(*testing.T, string) int) bigServer {
	t.Helper()
	src, err := source.Open(context.Background(), "t", dsn, m, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return bigServer{name: name, src: src, admin: admin, g: guard.New(m, src.Dialect(), guard.Options{}), running: running}
}

// goneWithin polls the server until no statement q runs, and fails the
// test when one still runs at deadline.
func goneWithin(t *testing.T, s bigServer, q string, deadline time.Time) {
	t.Helper()
	for {
		n := s.running(t, q)
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d statements still run on the server %s after the limit: %s", n, time.Since(deadline).Round(time.Millisecond), q)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestStatementsStopOnServer runs, through the guard, the nested-replace
// family that made MariaDB work for an hour and PostgreSQL build a 268-
// million-character string, and a statement the guard accepts that would
// run for minutes: each is refused or stopped, and the server's process
// list no longer shows it within twice the timeout.
func TestStatementsStopOnServer(t *testing.T) {
	const timeout = time.Second
	for _, s := range bigServers(t, 30_000, source.Options{QueryTimeout: timeout}) {
		t.Run(s.name, func(t *testing.T) {
			for depth := 8; depth <= 28; depth += 4 {
				expr := "'aa'"
				for i := 0; i < depth; i++ {
					expr = "replace(" + expr + ", 'a', 'aa')"
				}
				q := "SELECT length(" + expr + ") AS l FROM big WHERE n = 1"
				st, err := s.g.Check(q, nil, nil)
				if _, ok := guard.IsRejection(err); ok {
					continue
				}
				if err != nil {
					t.Fatalf("depth %d: %v", depth, err)
				}
				start := time.Now()
				_, err = s.src.Query(context.Background(), st.SQL, st.Args, 0)
				if depth > 10 {
					t.Errorf("depth %d: accepted by the guard (err %v)", depth, err)
				}
				goneWithin(t, s, st.SQL, start.Add(2*timeout))
			}

			st, err := s.g.Check("SELECT count(*) AS c FROM big a CROSS JOIN big b", nil, nil)
			if err != nil {
				t.Fatalf("the cross join was refused by the guard: %v", err)
			}
			start := time.Now()
			_, err = s.src.Query(context.Background(), st.SQL, st.Args, 0)
			if !errors.Is(err, source.ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			goneWithin(t, s, st.SQL, start.Add(2*timeout))
		})
	}
}

// TestHugeJoinRefusedUpFront: MariaDB refuses, before running it, a
// statement its optimizer expects to examine more row combinations than
// max_join_size, instead of working on it until the timeout.
func TestHugeJoinRefusedUpFront(t *testing.T) {
	for _, s := range bigServers(t, 30_000, source.Options{QueryTimeout: 20 * time.Second}) {
		if s.name != "mysql" {
			continue
		}
		st, err := s.g.Check("SELECT count(*) AS c FROM big a CROSS JOIN big b CROSS JOIN big c", nil, nil)
		if err != nil {
			t.Fatalf("refused by the guard: %v", err)
		}
		_, err = s.src.Query(context.Background(), st.SQL, st.Args, 0)
		var qe *source.QueryError
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), "MAX_JOIN_SIZE") {
			t.Errorf("err = %v, want the server's refusal naming MAX_JOIN_SIZE", err)
		}
		// the server is still finishing the refused command when the
		// error reaches the client: give it a moment, not the 20 s the
		// statement would run for
		goneWithin(t, s, st.SQL, time.Now().Add(500*time.Millisecond))
	}
}

// TestStatementLimitsInForce reads, from inside a statement, the limits
// the hardened path promises (docs/guard.md, "Server-side limits").
func TestStatementLimitsInForce(t *testing.T) {
	for _, s := range bigServers(t, 1, source.Options{QueryTimeout: 5 * time.Second}) {
		t.Run(s.name, func(t *testing.T) {
			q := `SELECT current_setting('work_mem'), current_setting('hash_mem_multiplier'), current_setting('temp_file_limit'),
				current_setting('max_parallel_workers_per_gather'), current_setting('statement_timeout') <> '0', current_setting('jit')`
			want := []any{"16MB", "1", "1GB", "1", int64(1), "off"}
			if s.name == "mysql" {
				q = `SELECT @@max_statement_time > 0, @@max_heap_table_size, @@tmp_memory_table_size, @@tmp_disk_table_size,
					@@sort_buffer_size, @@join_buffer_size, @@max_join_size, @@sql_big_selects, @@tx_read_only`
				want = []any{int64(1), int64(64 << 20), int64(64 << 20), int64(1 << 30), int64(4 << 20), int64(1 << 20), int64(10_000_000_000), int64(0), int64(1)}
			}
			res, err := s.src.Query(context.Background(), q, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, res.Rows[0]); diff != "" {
				t.Errorf("settings inside a statement (-want +got):\n%s", diff)
			}
			// a database that accepts every limit is not asked about
			// each (its connections start with all of them)
			if n := source.LimitsTried(s.src); s.name == "postgres" && n != 0 {
				t.Errorf("the pool tried %d limits one by one; want none", n)
			}
		})
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestLimitWithoutPrivilege: a PostgreSQL role that may not set
// temp_file_limit (only a superuser or a role granted SET may) still gets
// answers, with the missing limit logged as a warning once.
func TestLimitWithoutPrivilege(t *testing.T) {
	admin, ns, dsn := testdb.PostgresSchema(t, "t_limits")
	mustExec(t, admin, "CREATE TABLE "+ns+".big (n integer PRIMARY KEY)")
	mustExec(t, admin, "INSERT INTO "+ns+".big VALUES (1), (2)")
	role := testdb.Name("clarify_ro")
	mustExec(t, admin, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() { mustExec(t, admin, "DROP OWNED BY "+role+"; DROP ROLE "+role) })
	mustExec(t, admin, "GRANT USAGE ON SCHEMA "+ns+" TO "+role)
	mustExec(t, admin, "GRANT SELECT ON "+ns+".big TO "+role)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	m, err := model.Parse("big.yaml", []byte(bigModel))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	src, err := source.Open(context.Background(), "ro", u.String(), m, source.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		testdb.Skip(t, "cannot log in as a new role without a password here: "+err.Error())
	}
	defer src.Close()
	for i := 0; i < 3; i++ {
		res, err := src.Query(context.Background(), "SELECT count(*), current_setting('work_mem') FROM big", nil, 0)
		if err != nil {
			t.Fatalf("statement %d failed for a role without the privilege: %v", i+1, err)
		}
		if diff := cmp.Diff([]any{int64(2), "16MB"}, res.Rows[0]); diff != "" {
			t.Errorf("statement %d (-want +got):\n%s", i+1, diff)
		}
	}
	if source.LimitsTried(src) == 0 {
		t.Error("the refused start did not make the pool try the limits one by one")
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 || !strings.Contains(logs.String(), "temp_file_limit") {
		t.Errorf("want one warning naming temp_file_limit, got %d:\n%s", n, logs.String())
	}
}

// TestDeadlineStopsOnServer: a statement whose caller's deadline passes
// (a preview's budget, shorter than the query timeout) returns to the
// caller, and the server stops it too — on PostgreSQL the connection is
// dropped rather than waiting for a cancel request, and the statement's
// own statement_timeout, set to the same deadline, ends it there.
func TestDeadlineStopsOnServer(t *testing.T) {
	for _, s := range bigServers(t, 30_000, source.Options{QueryTimeout: 20 * time.Second}) {
		t.Run(s.name, func(t *testing.T) {
			st, err := s.g.Check("SELECT count(*) AS c FROM big a CROSS JOIN big b", nil, nil)
			if err != nil {
				t.Fatalf("refused by the guard: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			if _, err := s.src.Query(ctx, st.SQL, st.Args, 0); err == nil {
				t.Fatal("the cross join finished within 200 ms: the test needs a slower statement")
			}
			// well before the 20 s the query timeout would allow
			goneWithin(t, s, st.SQL, start.Add(3*time.Second))
			// the source still answers after a dropped connection
			if _, err := s.src.Query(context.Background(), "SELECT 1 AS one", nil, 0); err != nil {
				t.Errorf("after the deadline: %v", err)
			}
		})
	}
}
