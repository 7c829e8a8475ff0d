package llmreply_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/llmreply"
)

// FuzzParse: any text gives a usable reply or an *Error, never a panic; a
// clarification always has 2–4 bounded options with one best guess.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replies", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("```\n{\"kind\":\"clarification\"")
	f.Add("1. a\n2. b\nor?")
	f.Add("{\"kind\":\"sql\",\"sql\":\"SELECT ''\\u0000\"}")
	m := labs(f)
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := llmreply.ParseWith(raw, m, analytes)
		if err != nil {
			var e *llmreply.Error
			if !errors.As(err, &e) || e.Hint() == "" {
				t.Fatalf("error %v is not an *Error with a hint", err)
			}
			return
		}
		switch r.Kind {
		case llmreply.KindSQL:
			if strings.TrimSpace(r.SQL) == "" || len(r.SQL) > llmreply.MaxSQL {
				t.Fatalf("statement of %d bytes", len(r.SQL))
			}
		case llmreply.KindClarification:
			c := r.Clarification
			if c == nil || c.Question == "" || len(c.Options) < llmreply.MinOptions || len(c.Options) > llmreply.MaxOptions {
				t.Fatalf("clarification %+v", c)
			}
			best := 0
			for _, o := range c.Options {
				if o.BestGuess {
					best++
				}
				if o.Label == "" || utf8.RuneCountInString(o.Label) > llmreply.MaxLabel || !o.Grounded {
					t.Fatalf("option %+v", o)
				}
			}
			if best != 1 {
				t.Fatalf("%d best guesses", best)
			}
		case llmreply.KindUnanswerable:
			if r.Reason == "" {
				t.Fatal("unanswerable without a reason")
			}
		case llmreply.KindPlan:
			p := r.Plan
			if p == nil || p.Table == nil || p.Limit < 0 {
				t.Fatalf("plan %+v", p)
			}
			for _, f := range p.Filters {
				if f.Column == nil || f.Column.Entity() == nil {
					t.Fatalf("filter on a column not in the model: %+v", f)
				}
			}
		default:
			t.Fatalf("kind %q", r.Kind)
		}
	})
}
