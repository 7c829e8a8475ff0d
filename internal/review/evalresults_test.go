package review_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/review"
)

// TestParseEval reads what clarify eval --json wrote for three failing
// cases (testdata/eval.json): the words two of them name are unknown
// words; the third names none, which a note says.
func TestParseEval(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "eval.json"))
	if err != nil {
		t.Fatal(err)
	}
	suites, err := review.ParseEval(data)
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build(review.Input{Source: "clinic", Evals: suites})
	var got []string
	for _, u := range r.Unknown {
		got = append(got, u.Word)
	}
	if diff := cmp.Diff([]string{"glorp", "gnarly"}, got); diff != "" {
		t.Errorf("unknown words (-want +got):\n%s", diff)
	}
	if r.Totals.EvalCases != 3 || r.Totals.EvalFailed != 3 {
		t.Errorf("totals %+v, want 3 eval cases, 3 failing", r.Totals)
	}
	want := []string{
		`1 failing eval case asked about an unknown word the eval results do not name (e.g. "glorp")`,
		"no model: nothing proposed",
	}
	if diff := cmp.Diff(want, r.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestParseEvalRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, data string }{
		{"empty", ""},
		{"not JSON", "suite: x"},
		{"an object", `{"file": "x"}`},
		{"wrong types", `[{"cases": "x"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := review.ParseEval([]byte(tc.data)); err == nil {
				t.Errorf("ParseEval(%q) succeeded", tc.data)
			}
		})
	}
}
