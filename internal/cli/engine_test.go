package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
)

// replaying points the CLARIFY_LLM_* variables at a replaying server of an
// engine transcript ("" for no endpoint at all).
func replaying(t *testing.T, transcript string) *llmtest.Server {
	t.Helper()
	t.Setenv(llm.EnvAPIKey, "")
	if transcript == "" {
		t.Setenv(llm.EnvBaseURL, "")
		t.Setenv(llm.EnvModel, "")
		return nil
	}
	srv := llmtest.Start(t, filepath.Join("..", "engine", "testdata", "llm", transcript), "")
	t.Setenv(llm.EnvBaseURL, srv.URL)
	t.Setenv(llm.EnvModel, "test-model")
	return srv
}

// TestAskEngine: --engine llm or hybrid without an endpoint names the
// variables to set; with one, the answer says the model wrote it.
func TestAskEngine(t *testing.T) {
	dir := dataDir(t)
	replaying(t, "")
	for _, name := range []string{"llm", "hybrid"} {
		code, _, errs := run(t, "", "ask", "--data-dir", dir, "--source", "clinic", "--engine", name, "how many wounds")
		if code != 1 || !strings.Contains(errs, "BAD_REQUEST") || !strings.Contains(errs, llm.EnvBaseURL) {
			t.Errorf("--engine %s without an endpoint: exit %d, stderr %q", name, code, errs)
		}
	}
	code, _, errs := run(t, "", "ask", "--data-dir", dir, "--source", "clinic", "--engine", "magic", "how many wounds")
	if code != 1 || !strings.Contains(errs, `unknown engine "magic"`) {
		t.Errorf("--engine magic: exit %d, stderr %q", code, errs)
	}
	srv := replaying(t, "sql_answer.yaml")
	code, out, errs := run(t, "", "ask", "--data-dir", dir, "--source", "clinic", "--engine", "hybrid", "--json", "how many wounds healed faster than the median")
	if code != 0 || !strings.Contains(out, `"engine":"llm"`) || srv.Requests() != 1 {
		t.Errorf("--engine hybrid: exit %d, %d calls, stderr %q, output:\n%s", code, srv.Requests(), errs, out)
	}
}

// TestEvalEngine: eval --engine hybrid with a null model scores as the
// rules do and says on how many cases it called the model.
func TestEvalEngine(t *testing.T) {
	dir := dataDir(t)
	suite := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(suite, []byte(`source: clinic
cases:
  - id: linked
    question: "number of clinics"
    expect: answer
    gold_sql: "SELECT COUNT(*) FROM clinics"
  - id: unlinked
    question: "how many wounds did the quantum oracle flag"
    interactive: false
    expect: answer
`), 0o644); err != nil {
		t.Fatal(err)
	}
	replaying(t, "null.yaml")
	_, rules, _ := run(t, "", "eval", "--data-dir", dir, "--engine", "rules", suite)
	code, hybrid, errs := run(t, "", "eval", "--data-dir", dir, "--engine", "hybrid", suite)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(hybrid, "the language model was called on 1 of 2 cases") {
		t.Errorf("no count of model calls:\n%s", hybrid)
	}
	// the scores, latencies left out
	scores := func(s string) string { return strings.Join(strings.Fields(strings.SplitN(s, "\n", 3)[1])[:9], " ") }
	if scores(rules) != scores(hybrid) {
		t.Errorf("scores differ:\nrules  %s\nhybrid %s", scores(rules), scores(hybrid))
	}
}

// TestHybridNullModelSuites runs the suites CLARIFY_EVAL_SUITES names (a
// glob, e.g. the public demo suites) with --engine rules, then hybrid
// against a null model that finds every question unanswerable: hybrid must
// score no worse, and the log says on how many cases it called the model.
func TestHybridNullModelSuites(t *testing.T) {
	glob := os.Getenv("CLARIFY_EVAL_SUITES")
	if glob == "" {
		t.Skip("CLARIFY_EVAL_SUITES is not set (e.g. CLARIFY_EVAL_SUITES=\"$PWD/../shared/eval/*.yaml\")")
	}
	suites, err := filepath.Glob(glob)
	if err != nil || len(suites) == 0 {
		t.Fatalf("no suites match %q", glob)
	}
	dir := dataDir(t)
	srv := replaying(t, "null.yaml")
	type scores struct {
		Cases            int      `json:"cases"`
		Accuracy         *float64 `json:"accuracy"`
		AskRecall        *float64 `json:"ask_recall"`
		FalseAsk         *float64 `json:"false_ask"`
		AskPrecision     *float64 `json:"ask_precision"`
		QuestionsPerCase float64  `json:"questions_per_case"`
		ErrorMatch       *float64 `json:"error_match"`
		ModelCases       int      `json:"model_cases"`
	}
	results := func(name string) []struct {
		File   string `json:"file"`
		Scores scores `json:"scores"`
	} {
		out := filepath.Join(t.TempDir(), name+".json")
		code, _, errs := run(t, "", append([]string{"eval", "--data-dir", dir, "--engine", name, "--json", out}, suites...)...)
		if code != 0 {
			t.Fatalf("eval --engine %s: exit %d: %s", name, code, errs)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var rs []struct {
			File   string `json:"file"`
			Scores scores `json:"scores"`
		}
		if err := json.Unmarshal(data, &rs); err != nil {
			t.Fatal(err)
		}
		return rs
	}
	rules, hybrid := results("rules"), results("hybrid")
	val := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	cases, called := 0, 0
	for i, r := range rules {
		h := hybrid[i].Scores
		s := r.Scores
		if val(h.Accuracy) < val(s.Accuracy) || val(h.AskRecall) < val(s.AskRecall) || val(h.FalseAsk) > val(s.FalseAsk) ||
			val(h.AskPrecision) < val(s.AskPrecision) || val(h.ErrorMatch) < val(s.ErrorMatch) || h.QuestionsPerCase > s.QuestionsPerCase {
			t.Errorf("%s: hybrid scores worse than rules:\nrules  %+v\nhybrid %+v", filepath.Base(r.File), s, h)
		}
		t.Logf("%s: %d cases, the model called on %d", filepath.Base(r.File), h.Cases, h.ModelCases)
		cases += h.Cases
		called += h.ModelCases
	}
	t.Logf("all suites: the model called on %d of %d cases (%d requests)", called, cases, srv.Requests())
}

// TestAskWords: with engine llm, the model's words are printed as they
// stream, before the answer, without the statement of its code block.
func TestAskWords(t *testing.T) {
	dir := dataDir(t)
	replaying(t, "tools_stream.yaml")
	code, out, errs := run(t, "", "ask", "--data-dir", dir, "--source", "labs", "--engine", "llm", "how many vitamin D results for Ivan Petrov")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	words := strings.Index(out, "Let me find how vitamin D is written")
	if words < 0 || strings.Index(out, "Three analytes are vitamin D") < words {
		t.Fatalf("the model's words are not printed in order:\n%s", out)
	}
	if before := out[:strings.Index(out, "Three analytes")]; strings.Contains(before, "SELECT") {
		t.Errorf("a statement printed among the words:\n%s", out)
	}
}
