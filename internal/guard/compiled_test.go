package guard_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// compiled is one statement Clarify compiled for a question.
type compiled struct {
	question string
	sql      string
	args     []any
	scope    *guard.Scope
}

// questions lists the questions of testdata/questions/NAME.txt and of the
// evaluation suites for source name.
func questions(t *testing.T, name string) []string {
	t.Helper()
	qs := demotest.Questions(t, name)
	for _, f := range demotest.SuiteFiles(t) {
		s, err := eval.LoadSuite(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.Source != name {
			continue
		}
		for _, c := range s.Cases {
			qs = append(qs, c.Question)
		}
	}
	slices.Sort(qs)
	return slices.Compact(qs)
}

// compileAll compiles every question of a source in a dialect: the best
// guess, and each option of each clarification on its own (as previews
// and answers do), each as a list query and as a count.
func compileAll(t *testing.T, name string, src *source.Source, d model.Dialect) []compiled {
	t.Helper()
	an := understand.New(src.Model, src.Catalog())
	ctx := context.Background()
	seen := map[string]bool{}
	var out []compiled
	add := func(question string, q *query.Query) {
		if q == nil || q.Base == nil {
			return
		}
		var sc *guard.Scope
		if q.Scope != nil {
			sc = &guard.Scope{Value: q.Scope.Key}
		}
		opt := plan.Options{Now: demotest.AsOf, RowCap: src.RowCap()}
		if p, err := plan.Compile(src.Model, q, d, opt); err == nil {
			out = append(out, compiled{question, p.SQL, p.Args, sc})
		}
		if s, args, err := plan.CompileCount(src.Model, q, d, opt); err == nil {
			out = append(out, compiled{question, s, args, sc})
		}
	}
	for _, question := range questions(t, name) {
		in, err := an.Analyze(ctx, question, understand.Settings{Now: demotest.AsOf})
		if err != nil {
			t.Fatalf("%q: %v", question, err)
		}
		add(question, in.Query)
		for _, s := range in.Slots {
			for _, o := range s.Options {
				key := question + "\x00" + s.Key + "\x00" + o.ID
				if seen[key] {
					continue
				}
				seen[key] = true
				res := map[string]understand.Resolution{s.Key: {OptionID: o.ID}}
				in2, err := an.Analyze(ctx, question, understand.Settings{Now: demotest.AsOf, Resolved: res})
				if err == nil {
					add(question, in2.Query)
				}
			}
		}
	}
	return out
}

// TestClarifyCompiledAccepted checks that every statement Clarify compiles
// for the demo questions and the evaluation suites passes the guard in
// every dialect, and that on SQLite the guarded statement returns exactly
// what the compiled one does.
func TestClarifyCompiledAccepted(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"clinic", "labs", "retail", "trades"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// what is compared is rows, not speed: under -race on a loaded
			// machine a sum over 200,000 trades may take longer than the
			// product's default timeout
			src := demotest.Source(t, name, source.Options{RowCap: 100_000, QueryTimeout: 5 * time.Minute, ValueLoadTimeout: 5 * time.Minute})
			total := 0
			for _, d := range model.Dialects() {
				g := guard.New(src.Model, d, guard.Options{RowCap: src.RowCap()})
				all := compileAll(t, name, src, d)
				total += len(all)
				for i, c := range all {
					st, err := g.Check(c.sql, c.args, c.scope)
					if err != nil {
						t.Errorf("%s %q: Clarify's own statement was rejected: %v\n  %s", d, c.question, err, c.sql)
						continue
					}
					// Under -race SQLite runs far slower: compare a sample.
					if d == model.SQLite && (!raceEnabled || i%25 == 0) {
						sameResult(t, src, c, st)
					}
				}
			}
			if total == 0 {
				t.Fatal("no statements compiled")
			}
			t.Logf("%s: %d compiled statements checked", name, total)
		})
	}
}

func sameResult(t *testing.T, src *source.Source, c compiled, st *guard.Statement) {
	t.Helper()
	ctx := context.Background()
	want, err := src.Query(ctx, c.sql, c.args, 0)
	if err != nil {
		t.Errorf("%q: the compiled statement fails: %v", c.question, err)
		return
	}
	got, err := src.Query(ctx, st.SQL, st.Args, 0)
	if err != nil {
		t.Errorf("%q: the guarded statement fails: %v\n  %s", c.question, err, st.SQL)
		return
	}
	if diff := cmp.Diff(sortedRows(want.Rows), sortedRows(got.Rows)); diff != "" {
		t.Errorf("%q: the guarded statement answers differently (-compiled +guarded):\n%s\n  %s", c.question, diff, st.SQL)
	}
}

// sortedRows renders rows as sorted strings, floats to 10 significant
// digits: the same rows summed in another order differ in the last bits.
func sortedRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, v := range r {
			if f, ok := v.(float64); ok {
				cells[j] = strconv.FormatFloat(f, 'g', 10, 64)
				continue
			}
			cells[j] = fmt.Sprint(v)
		}
		out[i] = strings.Join(cells, "|")
	}
	sort.Strings(out)
	return out
}
