package guard_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// BenchmarkCheck measures one guard check of a typical statement: the
// statements Clarify compiles for the labs questions (scoped to their
// patient) and the legitimate corpus, round robin. Target: under 200 µs.
//
//	go test ./internal/guard -run '^$' -bench Check -benchmem
func BenchmarkCheck(b *testing.B) {
	src := demotest.Source(b, "labs", source.Options{})
	an := understand.New(src.Model, src.Catalog())
	for _, d := range model.Dialects() {
		type stmt struct {
			sql   string
			args  []any
			scope *guard.Scope
		}
		var compiled, corpus []stmt
		for _, q := range demotest.Questions(b, "labs") {
			in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
			if err != nil || in.Query == nil || in.Query.Base == nil {
				continue
			}
			p, err := plan.Compile(src.Model, in.Query, d, plan.Options{Now: demotest.AsOf})
			if err != nil {
				continue
			}
			var sc *guard.Scope
			if in.Query.Scope != nil {
				sc = &guard.Scope{Value: in.Query.Scope.Key}
			}
			compiled = append(compiled, stmt{p.SQL, p.Args, sc})
		}
		for _, e := range loadCorpus(b, d, "legit") {
			if e.Model == "labs" {
				corpus = append(corpus, stmt{e.SQL, e.Args, e.Scopes[len(e.Scopes)-1]})
			}
		}
		g := guard.New(src.Model, d, guard.Options{})
		for _, set := range []struct {
			name  string
			stmts []stmt
		}{{"compiled", compiled}, {"corpus", corpus}} {
			// cold: a unique trailing comment defeats the verdict cache.
			b.Run(string(d)+"/"+set.name+"/cold", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					s := set.stmts[i%len(set.stmts)]
					if _, err := g.Check(s.sql+"\n-- "+strconv.Itoa(i), s.args, s.scope); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(string(d)+"/"+set.name+"/cached", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					s := set.stmts[i%len(set.stmts)]
					if _, err := g.Check(s.sql, s.args, s.scope); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
