package guard_test

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
	"github.com/clarify-sql/clarify/internal/demo/models"
)

// TestGuardCommand runs `clarify guard --run --json` as a user would: one
// JSON object per statement, exit status 1 when any is rejected.
func TestGuardCommand(t *testing.T) {
	data, err := models.Get("labs")
	if err != nil {
		t.Fatal(err)
	}
	modelFile := filepath.Join(t.TempDir(), "labs.yaml")
	if err := os.WriteFile(modelFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), []string{"guard",
		"--db", "sqlite:" + demotest.Path(t, "labs"), "--model", modelFile, "--scope", "L2", "--run", "--json",
		"SELECT full_name FROM patients",
		"SELECT full_name FROM patients WHERE id = 'L1'",
		"DELETE FROM patients",
	}, strings.NewReader(""), &out, &errOut)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (statements were rejected); stderr: %s", code, errOut.String())
	}
	type verdict struct {
		SQL         string   `json:"sql"`
		Verdict     string   `json:"verdict"`
		Reason      string   `json:"reason"`
		ExecutedSQL string   `json:"executed_sql"`
		Columns     []string `json:"columns"`
		Rows        [][]any  `json:"rows"`
	}
	var got []verdict
	dec := json.NewDecoder(&out)
	for dec.More() {
		var v verdict
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if len(got) != 3 {
		t.Fatalf("got %d JSON objects, want 3", len(got))
	}
	if v := got[0]; v.Verdict != "ok" || v.ExecutedSQL == "" || len(v.Columns) != 1 || len(v.Rows) != 1 || v.Rows[0][0] != "John Doe" {
		t.Errorf("first statement: %+v, want ok with John Doe only", v)
	}
	for _, v := range got[1:] {
		if v.Verdict != "rejected" || v.Reason == "" || v.ExecutedSQL != "" {
			t.Errorf("%q: %+v, want rejected with a reason", v.SQL, v)
		}
	}
}
