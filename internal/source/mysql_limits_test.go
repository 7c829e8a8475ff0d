package source_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/source"
)

// mariadbServer is mysqlServer with the name of its database, for objects
// the tests create there (a sequence, a function), and the server's
// flavour checked: these tests are about MariaDB's SET STATEMENT.
func mariadbServer(t *testing.T, opt source.Options) (server, string) {
	t.Helper()
	s, ns := mysqlServerIn(t, "t_limits", opt)
	var version string
	if err := s.admin.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(version), "mariadb") {
		t.Skipf("MySQL %s has no SET STATEMENT", version)
	}
	return s, ns
}

// TestMariaDBStatementLimits: each limit of limits.go holds for a MariaDB
// statement, on a new connection and on a reset one alike (the statements
// run until a connection served two of them), with and without arguments
// (text and prepared statements), and the time limit follows a nearer
// caller's deadline.
func TestMariaDBStatementLimits(t *testing.T) {
	s, _ := mariadbServer(t, source.Options{QueryTimeout: 15 * time.Second})
	const look = "SELECT @@tx_read_only, @@max_statement_time, @@sort_buffer_size, @@join_buffer_size, " +
		"@@max_heap_table_size, @@tmp_memory_table_size, @@tmp_disk_table_size, @@max_join_size, @@sql_big_selects, CONNECTION_ID()"
	want := []any{int64(1), nil, int64(4194304), int64(1048576), int64(67108864), int64(67108864), int64(1073741824), int64(10000000000), int64(0)}
	for _, tc := range []struct {
		name  string
		query string
		args  []any
	}{
		{"text", look, nil},
		{"prepared", look + ", ?", []any{int64(7)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[any]bool{}
			reused := false
			for i := 0; i < 20 && !reused; i++ {
				res, err := s.src.Query(context.Background(), tc.query, tc.args, 0)
				if err != nil {
					t.Fatal(err)
				}
				row := res.Rows[0]
				// the time limit is what is left of the query timeout
				if got, _ := row[1].(float64); got <= 14 || got > 15 {
					t.Errorf("statement %d runs with max_statement_time = %v, want at most 15 (s)", i+1, row[1])
				}
				row[1] = want[1]
				if diff := cmp.Diff(want, row[:len(want)]); diff != "" {
					t.Fatalf("statement %d runs with (-want +got):\n%s", i+1, diff)
				}
				id := row[len(want)]
				reused, seen[id] = seen[id], true
			}
			if !reused {
				t.Fatal("no connection served two statements: the test shows nothing of a reset one")
			}
		})
	}
	t.Run("nearer deadline", func(t *testing.T) {
		for range 3 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			res, err := s.src.Query(ctx, "SELECT @@max_statement_time", nil, 0)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := res.Rows[0][0].(float64); got <= 0.5 || got > 2 {
				t.Errorf("max_statement_time = %v under a deadline 2 s away, want at most 2", res.Rows[0][0])
			}
		}
	})
}

// TestMariaDBLimitsHold runs statements each of which one limit stops,
// straight on the execution path (no guard): what a statement the guard
// wrongly accepted would meet. Each would succeed (or time out) without
// its limit. (The time limit's value is checked by
// TestMariaDBStatementLimits: a statement past it ends with a timeout
// whether the server or the caller's deadline stops it.)
func TestMariaDBLimitsHold(t *testing.T) {
	s, ns := mariadbServer(t, source.Options{QueryTimeout: 5 * time.Second})
	mustExec(t, s.admin, "CREATE SEQUENCE "+ns+".s")
	mustExec(t, s.admin, "CREATE FUNCTION "+ns+".pwn() RETURNS int MODIFIES SQL DATA BEGIN INSERT INTO "+ns+".items VALUES (9, 'x'); RETURN 1; END")
	nextval := func(t *testing.T) int {
		return countRows(t, s.admin, "SELECT next_not_cached_value FROM "+ns+".s")
	}
	seq := nextval(t)
	for _, tc := range []struct {
		name, query, err string
	}{
		{"read-only: a sequence", "SELECT NEXTVAL(s)", "READ ONLY transaction"},
		{"read-only: a function that writes", "SELECT pwn()", "READ ONLY transaction"},
		{"join size", "SELECT count(*) FROM seq_1_to_100000 a, seq_1_to_100000 b, seq_1_to_10 c", "MAX_JOIN_SIZE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, args := range [][]any{nil, {int64(1)}} { // text, prepared
				_, err := s.src.Query(context.Background(), tc.query+strings.Repeat(" LIMIT ?", len(args)), args, 0)
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s: err = %v, want the server's %q", tc.query, err, tc.err)
				}
			}
		})
	}
	if n := s.count(t); n != 3 {
		t.Errorf("items has %d rows, want 3", n)
	}
	if got := nextval(t); got != seq {
		t.Errorf("the sequence moved from %d to %d", seq, got)
	}
}

// TestMariaDBLimitsNotLifted: a text that would lift the limits the
// statement carries with a SET STATEMENT of its own, before the SELECT
// (MariaDB lets an inner SET STATEMENT override an outer one), is refused
// before it reaches the server, in whatever form.
func TestMariaDBLimitsNotLifted(t *testing.T) {
	s, ns := mariadbServer(t, source.Options{})
	mustExec(t, s.admin, "CREATE SEQUENCE "+ns+".s")
	for _, q := range []string{
		"SET STATEMENT tx_read_only = 0 FOR SELECT NEXTVAL(s)",
		"/*M! SET STATEMENT tx_read_only = 0 FOR */ SELECT NEXTVAL(s)",
		"/*M!100000 SET STATEMENT tx_read_only = 0 FOR */ SELECT NEXTVAL(s)",
		"/* a comment */ /*M!100000 SET STATEMENT max_statement_time = 0 FOR */ SELECT NEXTVAL(s)",
		"/*!100000 SET STATEMENT tx_read_only = 0 FOR */ SELECT NEXTVAL(s)",
	} {
		_, err := s.src.Query(context.Background(), q, nil, 0)
		if !errors.Is(err, source.ErrNotQuery) {
			t.Errorf("%s: err = %v, want ErrNotQuery", q, err)
		}
	}
	if got := countRows(t, s.admin, "SELECT next_not_cached_value FROM "+ns+".s"); got != 1 {
		t.Errorf("the sequence moved to %d", got)
	}
}
