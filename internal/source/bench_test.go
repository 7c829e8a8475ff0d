package source_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// benchTarget is one database the execution benchmarks run on: a DSN for
// source.Open, and the driver and DSN of a plain database/sql pool on the
// same database, the baseline without Clarify's hardening.
type benchTarget struct {
	dsn            string
	driver, rawDSN string
	// param writes the i-th (1-based) placeholder of the dialect.
	param func(i int) string
	// server returns the ids of the local server processes whose CPU time
	// the benchmark reports (nil: none, as for SQLite, which runs in the
	// benchmark's process).
	server func() []string
}

// benchApp names the benchmark's PostgreSQL sessions, so that the CPU
// time of their backends, and of no other session on the server, is
// counted.
const benchApp = "clarify_bench"

// benchRows is how many rows table events holds per dialect, chosen so
// that the aggregate statement takes a few milliseconds on the servers
// here (the >1 ms case of the overhead budget).
var benchRows = map[string]int{"sqlite": 10_000, "postgres": 10_000, "mysql": 5_000}

// benchFill creates items (3 rows, looked up by key) and events (n rows,
// aggregated) through db.
func benchFill(b *testing.B, db *sql.DB, ns string, events []string) {
	b.Helper()
	for _, q := range append([]string{
		"CREATE TABLE " + ns + "items (id integer PRIMARY KEY, colour varchar(20))",
		"INSERT INTO " + ns + "items VALUES (1, 'red'), (2, 'blue'), (3, 'red')",
		"CREATE TABLE " + ns + "events (id integer PRIMARY KEY, colour varchar(20), amount integer)",
	}, events...) {
		if _, err := db.Exec(q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
}

// benchModel is a model of one of the benchmark's tables (items or
// events): its key id, its colour a dimension.
func benchModel(b *testing.B, table string) *model.Model {
	b.Helper()
	m, err := model.Parse("bench.yaml", []byte(`source: bench
entities:
  - name: `+table+`
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: colour, role: dimension, type: text}
`))
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func benchTargets(b *testing.B) []struct {
	name string
	open func(b *testing.B) benchTarget
} {
	return []struct {
		name string
		open func(b *testing.B) benchTarget
	}{
		{"sqlite", func(b *testing.B) benchTarget {
			path := filepath.Join(b.TempDir(), "bench.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			benchFill(b, db, "", []string{fmt.Sprintf(`INSERT INTO events
				WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < %d)
				SELECT n, CASE n %% 3 WHEN 0 THEN 'red' WHEN 1 THEN 'blue' ELSE 'green' END, n %% 97 FROM s`, benchRows["sqlite"]),
				"ANALYZE"})
			return benchTarget{dsn: "sqlite:" + path, driver: "sqlite", rawDSN: "file:" + path + "?mode=ro",
				param: func(int) string { return "?" }}
		}},
		{"postgres", func(b *testing.B) benchTarget {
			admin, ns, dsn := testdb.PostgresSchema(b, "b_query")
			benchFill(b, admin, ns+".", []string{fmt.Sprintf(`INSERT INTO %s.events
				SELECT n, (ARRAY['red', 'blue', 'green'])[n %% 3 + 1], n %% 97 FROM generate_series(1, %d) n`, ns, benchRows["postgres"]),
				"ANALYZE " + ns + ".events", "VACUUM " + ns + ".events"})
			dsn += "&application_name=" + benchApp
			return benchTarget{dsn: dsn, driver: "pgx", rawDSN: dsn, param: func(i int) string { return fmt.Sprintf("$%d", i) },
				server: func() []string {
					var pids []string
					rows, err := admin.Query("SELECT pid::text FROM pg_stat_activity WHERE application_name = $1", benchApp)
					if err != nil {
						return nil
					}
					defer rows.Close()
					for rows.Next() {
						var pid string
						if rows.Scan(&pid) == nil {
							pids = append(pids, pid)
						}
					}
					return pids
				}}
		}},
		// PostgreSQL through PgBouncer in transaction mode
		// (CLARIFY_TEST_PGBOUNCER): the source runs pooled (pg_pooled.go);
		// the plain pool describes each text and runs it unnamed, as pgx's
		// default, which prepares it by name, fails through the pooler
		{"pgbouncer", func(b *testing.B) benchTarget {
			admin, dsn := testdb.PooledDatabase(b, testdb.EnvPgBouncer, "b_query")
			benchFill(b, admin, "", []string{fmt.Sprintf(`INSERT INTO events
				SELECT n, (ARRAY['red', 'blue', 'green'])[n %% 3 + 1], n %% 97 FROM generate_series(1, %d) n`, benchRows["postgres"]),
				"ANALYZE events", "VACUUM events"})
			dsn += "?application_name=" + benchApp
			return benchTarget{dsn: dsn, driver: "pgx", rawDSN: dsn + "&default_query_exec_mode=cache_describe",
				param: func(i int) string { return fmt.Sprintf("$%d", i) }}
		}},
		{"mysql", func(b *testing.B) benchTarget {
			admin, ns, dsn := testdb.MySQLDatabase(b, "b_query")
			benchFill(b, admin, ns+".", []string{fmt.Sprintf(`INSERT INTO %s.events
				SELECT seq, ELT(seq %% 3 + 1, 'red', 'blue', 'green'), seq %% 97 FROM seq_1_to_%d`, ns, benchRows["mysql"]), // MariaDB's Sequence engine
				"ANALYZE TABLE " + ns + ".events"})
			return benchTarget{dsn: dsn, driver: "mysql", rawDSN: strings.TrimPrefix(dsn, "mysql:"), param: func(int) string { return "?" },
				// the whole server: its threads do not say which session
				// they serve, so other work on it counts too
				server: func() []string { return processes("mariadbd", "mysqld") }}
		}},
	}
}

// BenchmarkQuery measures, per dialect, three statements on the hardened
// read-only path (source.Query: admission, transaction, server-side
// limits, session hygiene) and the same statements on a plain
// database/sql pool of the same database (raw): "small" reads three rows
// by key, where Clarify's steps are most of the time; "aggregate" groups
// a table of some thousands of rows and takes a few milliseconds, where
// they should be noise; "rows" returns 1,000 rows (the row cap), where the
// time is reading and converting rows. hardened/raw is the overhead.
//
//	go test -run '^$' -bench Query -benchmem ./internal/source/
func BenchmarkQuery(b *testing.B) {
	m := benchModel(b, "items")
	for _, tg := range benchTargets(b) {
		b.Run(tg.name, func(b *testing.B) {
			t := tg.open(b)
			src, err := source.Open(context.Background(), "bench", t.dsn, m, source.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			raw, err := sql.Open(t.driver, t.rawDSN)
			if err != nil {
				b.Fatal(err)
			}
			defer raw.Close()
			statements := []struct {
				name, query string
				args        []any
				rows        int
			}{
				{"small", "SELECT id, colour FROM items WHERE id IN (" + t.param(1) + ", " + t.param(2) + ", " + t.param(3) + ")", []any{int64(1), int64(2), int64(3)}, 3},
				{"aggregate", "SELECT colour, count(*) AS n, sum(amount) AS total FROM events GROUP BY colour", nil, 3},
				// an answer of as many rows as an answer may have (the row
				// cap), whose time is the reading of rows
				{"rows", "SELECT id, colour, amount FROM events WHERE id <= " + t.param(1) + " ORDER BY id", []any{int64(1000)}, 1000},
			}
			for _, st := range statements {
				b.Run(st.name+"/hardened", func(b *testing.B) {
					ctx := context.Background()
					run := func() {
						res, err := src.Query(ctx, st.query, st.args, 0)
						if err != nil {
							b.Fatal(err)
						}
						if len(res.Rows) != st.rows {
							b.Fatalf("%d rows, want %d", len(res.Rows), st.rows)
						}
					}
					run()
					measured(b, t.server, run)
				})
				if st.name == "small" && tg.name == "mysql" {
					// A statement every 2 ms: what a conversation sends, and
					// room for the warmer to replace the fresh connection
					// the last statement used (exec_mysql.go).
					b.Run(st.name+"/hardened-paced", func(b *testing.B) {
						ctx := context.Background()
						b.ReportAllocs()
						for range b.N {
							b.StopTimer()
							time.Sleep(2 * time.Millisecond)
							b.StartTimer()
							if _, err := src.Query(ctx, st.query, st.args, 0); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
				b.Run(st.name+"/raw", func(b *testing.B) {
					ctx := context.Background()
					run := func() {
						rows, err := raw.QueryContext(ctx, st.query, st.args...)
						if err != nil {
							b.Fatal(err)
						}
						n := 0
						var a, c, d any
						for rows.Next() {
							dest := []any{&a, &c}
							if st.name != "small" {
								dest = append(dest, &d)
							}
							if err := rows.Scan(dest...); err != nil {
								b.Fatal(err)
							}
							n++
						}
						if err := rows.Close(); err != nil {
							b.Fatal(err)
						}
						if n != st.rows {
							b.Fatalf("%d rows, want %d", n, st.rows)
						}
					}
					run()
					measured(b, t.server, run)
				})
			}
		})
	}
}
