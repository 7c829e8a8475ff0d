package source

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/clarify-sql/clarify/internal/testdb"
)

// TestMariaDBTimeLimitStopsStatement: the time limit a MariaDB statement
// carries is the server's own. The statement the execution path would
// send for a caller 300 ms from its deadline runs here on a plain
// connection whose client waits as long as needed, text and prepared
// (with an argument): the server ends it after about 300 ms with
// ER_STATEMENT_TIMEOUT, where it would otherwise sleep 5 s.
func TestMariaDBTimeLimitStopsStatement(t *testing.T) {
	admin, _, dsn := testdb.MySQLDatabase(t, "t_timelimit")
	var version string
	if err := admin.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(version), "mariadb") {
		t.Skipf("MySQL %s has no SET STATEMENT", version)
	}
	target, err := ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var opt Options
	opt.defaults()
	p, err := openMySQLExec(target, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.close() })
	plain, err := sql.Open("mysql", target.DSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { plain.Close() })
	for _, tc := range []struct {
		name, query string
		args        []any
	}{
		{"text", "SELECT SLEEP(5)", nil},
		{"prepared", "SELECT SLEEP(?)", []any{int64(5)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := p.warm.take(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer p.warm.release(context.Background(), f, false)
			caller, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			q, err := p.mariadbStatement(caller, f.conn, opt.Log, 15*time.Second, tc.query)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			var slept int64
			err = plain.QueryRowContext(context.Background(), q, tc.args...).Scan(&slept)
			took := time.Since(start)
			var my *mysql.MySQLError
			if !errors.As(err, &my) || my.Number != 1969 {
				t.Fatalf("%s: err = %v after %s, want ER_STATEMENT_TIMEOUT (1969)", q, err, took)
			}
			if took > 3*time.Second {
				t.Errorf("the server stopped the statement after %s", took)
			}
		})
	}
}
