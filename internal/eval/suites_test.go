package eval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/eval"
)

// TestNoSuiteTextInRepo keeps the public evaluation questions out of the
// code, the models and our own test questions: the engine must answer them
// by understanding, never by recognising them.
//
// The public suites are not part of the repository: they are read from
// $CLARIFY_SHARED/eval (default: the folder shared beside the repository,
// where CI puts them). Without them that part is skipped, saying so, or
// fails under CLARIFY_TEST_REQUIRE_SHARED=1 or CLARIFY_TEST_REQUIRE_SERVERS=1
// (as in CI). The check itself runs in every clone, on a planted copy.
func TestNoSuiteTextInRepo(t *testing.T) {
	t.Run("the check finds planted copies", func(t *testing.T) {
		dir := filepath.Join("testdata", "suitetext")
		got, err := suiteTextHits(filepath.Join(dir, "tree"), suiteQuestions(t, filepath.Join(dir, "public.yaml")))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			`cmd/tool/main.go contains the public suite question "which zebras were fed after midnight on tuesday?"`,
			`docs/notes.md contains the public suite question "list every lighthouse keeper with more than two lamps"`,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("hits in testdata/suitetext/tree (-want +got):\n%s", diff)
		}
	})
	t.Run("public suites", func(t *testing.T) {
		var questions []string
		for _, f := range publicSuites(t) {
			questions = append(questions, suiteQuestions(t, f)...)
		}
		hits, err := suiteTextHits(demotest.Root(t), questions)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			t.Error(h)
		}
	})
}

// publicSuites returns the public suite files, or skips (fails when they
// are required) when there are none.
func publicSuites(t *testing.T) []string {
	t.Helper()
	shared := os.Getenv("CLARIFY_SHARED")
	if shared == "" {
		shared = filepath.Join(demotest.Root(t), "..", "shared")
	}
	files, err := filepath.Glob(filepath.Join(shared, "eval", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		msg := "no public evaluation suites in " + filepath.Join(shared, "eval") + " (set CLARIFY_SHARED to the folder holding eval/)"
		if os.Getenv("CLARIFY_TEST_REQUIRE_SHARED") == "1" || os.Getenv("CLARIFY_TEST_REQUIRE_SERVERS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return files
}

// suiteQuestions returns the questions of a suite file.
func suiteQuestions(t *testing.T, file string) []string {
	t.Helper()
	s, err := eval.LoadSuite(file)
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, c := range s.Cases {
		qs = append(qs, normalize(c.Question))
	}
	return qs
}

// suiteTextHits lists the files under root (Go, YAML, text, Markdown,
// JavaScript, HTML) that contain one of the questions, compared in lower
// case with runs of white space as one space, so a copy wrapped over lines
// is found too.
func suiteTextHits(root string, questions []string) ([]string, error) {
	var hits []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".go", ".yaml", ".txt", ".md", ".js", ".html":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := normalize(string(data))
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		for _, q := range questions {
			if q != "" && strings.Contains(text, q) {
				hits = append(hits, fmt.Sprintf("%s contains the public suite question %q", filepath.ToSlash(rel), q))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	return hits, nil
}

// normalize is s in lower case with each run of white space one space.
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
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
