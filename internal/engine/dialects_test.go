package engine_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// servers are the real servers the demo data is loaded into, each with
// its loader.
var servers = []struct {
	name string
	open func(testing.TB) *testdb.Server
	load func(ctx context.Context, db *sql.DB, name, ns string, opt demo.Options) error
}{
	{"postgres", testdb.PostgresServer, demo.LoadPostgres},
	{"mariadb", testdb.MySQLServer, demo.LoadMySQL},
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
			ctx, s := context.Background(), srv.open(t)
			for _, name := range demo.Names() {
				t.Run(name, func(t *testing.T) {
					ns := s.Namespace(t, "t_parity_"+name)
					if err := srv.load(ctx, s.Admin, name, ns, demo.Options{AsOf: demotest.AsOf}); err != nil {
						t.Fatalf("load %s: %v", name, err)
					}
					src, err := source.Open(ctx, name, s.DSN(t, ns), demotest.Model(t, name), source.Options{RowCap: 100_000})
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
