package eval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/eval"
)

// TestNoSuiteTextInRepo keeps the public evaluation questions out of the
// code, the models and our own test questions: the engine must answer them
// by understanding, never by recognising them.
func TestNoSuiteTextInRepo(t *testing.T) {
	root := demotest.Root(t)
	var questions []string
	for _, f := range demotest.SuiteFiles(t) {
		if !strings.Contains(f, string(filepath.Separator)+"shared"+string(filepath.Separator)) {
			continue
		}
		s, err := eval.LoadSuite(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Cases {
			questions = append(questions, strings.ToLower(c.Question))
		}
	}
	if len(questions) == 0 {
		t.Skip("no public suites found")
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".txt") || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".html")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := strings.ToLower(string(data))
		for _, q := range questions {
			if strings.Contains(text, q) {
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s contains the public suite question %q", rel, q)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		name      string
		gold, got [][]any
		ordered   bool
		want      bool
	}{
		{"same", [][]any{{int64(1)}, {int64(2)}}, [][]any{{int64(2), "b"}, {int64(1), "a"}}, false, true},
		{"extra columns", [][]any{{"P1"}}, [][]any{{"P1", "Ann", int64(3)}}, false, true},
		{"float tolerance", [][]any{{1.0000001}}, [][]any{{1.0}}, false, true},
		{"int vs float", [][]any{{int64(3)}}, [][]any{{3.0}}, false, true},
		{"row count", [][]any{{int64(1)}}, [][]any{{int64(1)}, {int64(1)}}, false, false},
		{"multiset not set", [][]any{{int64(1)}, {int64(1)}}, [][]any{{int64(1)}, {int64(2)}}, false, false},
		{"ordered", [][]any{{int64(1)}, {int64(2)}}, [][]any{{int64(2)}, {int64(1)}}, true, false},
		{"distinct answer columns", [][]any{{int64(1), int64(1)}}, [][]any{{int64(1), int64(2)}}, false, false},
		{"nulls", [][]any{{nil}}, [][]any{{nil}}, false, true},
		{"empty", nil, nil, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, why := eval.Match(tc.gold, tc.got, tc.ordered); got != tc.want {
				t.Errorf("Match = %v (%s), want %v", got, why, tc.want)
			}
		})
	}
}

func TestLoadSuiteErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ yaml, want string }{
		"unknown kind":    {"source: clinic\ncases:\n  - id: a\n    question: q\n    expect: {ask: vauge}\n", `unknown clarification kind "vauge"`},
		"no question":     {"source: clinic\ncases:\n  - id: a\n    expect: answer\n", "case a: question"},
		"duplicate id":    {"source: clinic\ncases:\n  - {id: a, question: q, expect: answer}\n  - {id: a, question: r, expect: answer}\n", "case a: id: duplicate"},
		"unknown field":   {"source: clinic\ncases:\n  - {id: a, question: q, expect: answer, gold: x}\n", `field gold not found`},
		"bad expect":      {"source: clinic\ncases:\n  - {id: a, question: q, expect: maybe}\n", "expect must be answer"},
		"no source":       {"cases:\n  - {id: a, question: q, expect: answer}\n", "source: a suite needs a source"},
		"error with gold": {"source: clinic\ncases:\n  - {id: a, question: q, expect: {error: X}, gold_sql: SELECT 1}\n", "case a: gold_sql"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".yaml")
			os.WriteFile(p, []byte(tc.yaml), 0o644)
			_, err := eval.LoadSuite(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Errorf("error %v, want it to name %s and say %q", err, p, tc.want)
			}
		})
	}
}
