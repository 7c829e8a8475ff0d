package engine_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// server loads demo data into a fresh namespace of a real server and
// returns the DSN of that namespace.
type server struct {
	name  string
	dsn   func(t *testing.T) string
	drvr  string
	load  func(ctx context.Context, db *sql.DB, name, ns string, opt demo.Options) error
	drop  string
	nsDSN func(t *testing.T, dsn, ns string) string
}

var servers = []server{
	{
		name: "postgres", dsn: func(t *testing.T) string { return testdb.Postgres(t) }, drvr: "pgx",
		load: demo.LoadPostgres, drop: `DROP SCHEMA IF EXISTS "%s" CASCADE`,
		nsDSN: func(t *testing.T, dsn, ns string) string {
			u, err := url.Parse(dsn)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			q.Set("search_path", ns)
			u.RawQuery = q.Encode()
			return u.String()
		},
	},
	{
		name: "mariadb", dsn: func(t *testing.T) string { return testdb.MySQL(t) }, drvr: "mysql",
		load: demo.LoadMySQL, drop: "DROP DATABASE IF EXISTS `%s`",
		nsDSN: func(t *testing.T, dsn, ns string) string {
			cfg, err := mysql.ParseDSN(dsn)
			if err != nil {
				t.Fatal(err)
			}
			cfg.DBName = ns
			return "mysql:" + cfg.FormatDSN()
		},
	},
}

// TestDialectParity loads the demo data into real PostgreSQL and MariaDB
// servers and checks that Clarify's own SQL gives the same answers there
// as on SQLite, for every case of the evaluation suites (public and ours)
// and every question of the golden lists.
func TestDialectParity(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the demo data into two servers")
	}
	cases := map[string][]eval.Case{}
	for _, f := range demotest.SuiteFiles(t) {
		s, err := eval.LoadSuite(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[s.Source] = append(cases[s.Source], s.Cases...)
	}
	no := false
	for _, name := range demo.Names() {
		for i, q := range demotest.Questions(t, name) {
			cases[name] = append(cases[name], eval.Case{ID: fmt.Sprintf("q%d", i+1), Question: q, Interactive: &no, Expect: eval.Expect{Answer: true}})
		}
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			dsn := srv.dsn(t)
			ctx := context.Background()
			admin, err := sql.Open(srv.drvr, strings.TrimPrefix(dsn, "mysql:"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { admin.Close() })
			for _, name := range demo.Names() {
				t.Run(name, func(t *testing.T) {
					ns := testdb.Name("t_parity_" + name)
					if err := srv.load(ctx, admin, name, ns, demo.Options{AsOf: demotest.AsOf}); err != nil {
						t.Fatalf("load %s: %v", name, err)
					}
					t.Cleanup(func() { admin.Exec(fmt.Sprintf(srv.drop, ns)) })
					src, err := source.Open(ctx, name, srv.nsDSN(t, dsn, ns), demotest.Model(t, name), source.Options{RowCap: 100_000})
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { src.Close() })
					if err := src.CheckSchema(ctx); err != nil {
						t.Fatal(err)
					}
					other := engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }, PreviewBudget: time.Minute, SuggestBudget: time.Minute})
					lite := demotest.Engine(t, name)
					for _, c := range cases[name] {
						want := eval.PlayCase(ctx, lite, c)
						got := eval.PlayCase(ctx, other, c)
						compare(t, c, want, got)
					}
				})
			}
		})
	}
}

func compare(t *testing.T, c eval.Case, want, got eval.Play) {
	t.Helper()
	if strings.Join(want.Asked, ",") != strings.Join(got.Asked, ",") {
		t.Errorf("%s %q: asked %v, SQLite asked %v", c.ID, c.Question, got.Asked, want.Asked)
		return
	}
	if apperr.CodeOf(want.Err) != apperr.CodeOf(got.Err) || (want.Err == nil) != (got.Err == nil) {
		t.Errorf("%s %q: error %v, SQLite %v", c.ID, c.Question, got.Err, want.Err)
		return
	}
	if want.Answer == nil || got.Answer == nil {
		if (want.Answer == nil) != (got.Answer == nil) {
			t.Errorf("%s %q: answered %v, SQLite answered %v", c.ID, c.Question, got.Answer != nil, want.Answer != nil)
		}
		return
	}
	if ok, why := eval.Match(want.Answer.Rows, got.Answer.Rows, false); !ok {
		t.Errorf("%s %q: answer differs from SQLite's: %s\n  sql: %s", c.ID, c.Question, why, got.Answer.SQL)
	}
}
