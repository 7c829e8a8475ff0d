package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEvalLegend: under eval's table comes a legend that explains every
// score column, so q/case or ask_precision need no trip to the docs.
func TestEvalLegend(t *testing.T) {
	dir := dataDir(t)
	suite := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(suite, []byte(`source: clinic
cases:
  - id: clinics
    question: "number of clinics"
    expect: answer
    gold_sql: "SELECT COUNT(*) FROM clinics"
  - id: wrong
    question: "number of patients"
    expect: answer
    gold_sql: "SELECT 1"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "eval", "--data-dir", dir, suite)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "suite") {
		t.Fatalf("no table:\n%s", out)
	}
	// the legend starts right under the table (header and one suite)
	legend := map[string]string{}
	for _, l := range lines[2:] {
		m := regexp.MustCompile(`^  (\S+(?: ms)?)\s{2,}(\S.*)$`).FindStringSubmatch(l)
		if m == nil {
			break
		}
		legend[m[1]] = m[2]
	}
	if len(legend) == 0 {
		t.Fatalf("no legend under the table:\n%s", out)
	}
	for _, col := range regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(lines[0]), -1) {
		switch col {
		case "suite", "source", "cases":
			continue
		case "p50 ms", "p99 ms":
			col = "p50/p99 ms"
		}
		if legend[col] == "" {
			t.Errorf("the legend does not explain %q:\n%s", col, out)
		}
	}
	if !strings.Contains(out, "FAIL s.yaml/wrong") {
		t.Errorf("the failed case is not listed after the legend:\n%s", out)
	}
}
