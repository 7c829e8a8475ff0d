package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/cli"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
)

// dataDir returns a data directory holding the demo databases.
func dataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo")
	if err := os.MkdirAll(demo, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"clinic", "labs", "trades", "retail"} {
		data, err := os.ReadFile(demotest.Path(t, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(demo, n+".db"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestAskInteractive(t *testing.T) {
	dir := dataDir(t)
	// the vague term is asked, answered with "2" (option 2), and answered
	code, out, errs := run(t, "2\n", "ask", "--data-dir", dir, "--source", "clinic", "patients with severe wounds")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"? By \"severe\"", "1) Full thickness (Stage 3/4)  [best guess]", "rows", "2) Infected wounds", "s) I don't know", "SQL:", "infected"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAskJSON(t *testing.T) {
	dir := dataDir(t)
	code, out, errs := run(t, "skip\n", "ask", "--data-dir", dir, "--source", "clinic", "--json", "old wounds per clinic")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON document per turn (2), got %d:\n%s", len(lines), out)
	}
	var first, last map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &last); err != nil {
		t.Fatal(err)
	}
	if first["status"] != "needs_clarification" || last["status"] != "answered" {
		t.Errorf("statuses %v then %v", first["status"], last["status"])
	}
	ans := last["answer"].(map[string]any)
	for _, k := range []string{"statement", "sql", "columns", "rows", "row_count", "truncated", "chart", "assumptions", "open_questions", "suggestions", "timings_ms"} {
		if _, ok := ans[k]; !ok {
			t.Errorf("answer lacks %q", k)
		}
	}
	if as := ans["assumptions"].([]any); len(as) == 0 {
		t.Error("a skipped question must be listed as an assumption")
	}
}

func TestAskNoAskAndErrors(t *testing.T) {
	dir := dataDir(t)
	code, out, _ := run(t, "", "ask", "--data-dir", dir, "--source", "clinic", "--no-ask", "large wounds at Harbor Health")
	if code != 0 || !strings.Contains(out, "Assumptions") || !strings.Contains(out, "25") {
		t.Errorf("--no-ask: exit %d, output:\n%s", code, out)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"scope refused", []string{"ask", "--data-dir", dir, "--source", "labs", "--no-ask", "my ferritin"}, 1, "SCOPE_REQUIRED"},
		{"unknown source", []string{"ask", "--data-dir", dir, "--source", "nope", "x"}, 1, `unknown source "nope"`},
		{"empty question", []string{"ask", "--data-dir", dir, "--source", "clinic", " "}, 1, "BAD_REQUEST"},
		{"no question", []string{"ask", "--data-dir", dir}, 2, "exactly one question"},
		{"unreachable", []string{"ask", "--db", "postgres://x:secret@127.0.0.1:1/none", "--model", "m.yaml", "q"}, 1, "unreachable"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, "", tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, tc.code, tc.want)
			}
			if strings.Contains(errs, "secret") {
				t.Errorf("stderr leaks a password: %s", errs)
			}
		})
	}
}

func TestEvalCommand(t *testing.T) {
	dir := dataDir(t)
	suite := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(suite, []byte(`source: clinic
cases:
  - id: count
    question: "number of clinics"
    expect: answer
    gold_sql: "SELECT COUNT(*) FROM clinics"
  - id: wrong-gold
    question: "number of patients"
    expect: answer
    gold_sql: "SELECT COUNT(*) FROM wounds"
`), 0o644)
	jsonOut := filepath.Join(t.TempDir(), "r.json")
	code, out, _ := run(t, "", "eval", "--data-dir", dir, "--json", jsonOut, suite)
	if code != 0 || !strings.Contains(out, "0.500") || !strings.Contains(out, "FAIL s.yaml/wrong-gold") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if _, err := os.Stat(jsonOut); err != nil {
		t.Errorf("no JSON written: %v", err)
	}
	if code, out, _ := run(t, "", "eval", "--data-dir", dir, "--min-accuracy", "0.9", suite); code != 1 || !strings.Contains(out, "threshold not met") {
		t.Errorf("threshold: exit %d, output:\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("source: clinic\ncases:\n  - id: a\n    question: q\n    expect: {ask: nonsense}\n"), 0o644)
	if code, _, errs := run(t, "", "eval", "--data-dir", dir, bad); code != 2 || !strings.Contains(errs, "bad.yaml") {
		t.Errorf("malformed suite: exit %d, %s", code, errs)
	}
}

func TestModelCommands(t *testing.T) {
	good := filepath.Join(demotest.Root(t), "internal", "demo", "models", "clinic.yaml")
	code, out, errs := run(t, "", "model", "check", good, "--db", "sqlite:"+demotest.Path(t, "clinic"))
	if code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("model check: exit %d %s %s", code, out, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("source: x\nentities:\n  - name: a\n    key: id\n    columns:\n      - {name: id, role: identifier}\n"), 0o644)
	code, _, errs = run(t, "", "model", "check", bad)
	if code != 1 || !strings.Contains(errs, "bad.yaml:6:") || !strings.Contains(errs, "entities[0].columns[0].role") {
		t.Errorf("bad model: exit %d, %s", code, errs)
	}
	draft := filepath.Join(t.TempDir(), "draft.yaml")
	code, _, errs = run(t, "", "model", "init", "--db", "sqlite:"+demotest.Path(t, "retail"), "--out", draft)
	if code != 0 {
		t.Fatalf("model init: exit %d, %s", code, errs)
	}
	if code, out, errs := run(t, "", "model", "check", draft); code != 0 {
		t.Errorf("the drafted model does not check: %s %s", out, errs)
	}
	// a database with no model beside it: eval drafts one and says so
	dbCopy := filepath.Join(t.TempDir(), "shop.db")
	data, _ := os.ReadFile(demotest.Path(t, "retail"))
	os.WriteFile(dbCopy, data, 0o644)
	suite := filepath.Join(filepath.Dir(dbCopy), "shop-suite.yaml")
	os.WriteFile(suite, []byte("source: shop.db\ncases:\n  - {id: a, question: \"how many suppliers\", expect: answer, gold_sql: \"SELECT COUNT(*) FROM purchasing_suppliers\"}\n"), 0o644)
	code, out, errs = run(t, "", "eval", suite)
	if code != 0 || !strings.Contains(out, "drafted") || !strings.Contains(out, "1.000") {
		t.Errorf("eval on a drafted model: exit %d\n%s\n%s", code, out, errs)
	}
}
