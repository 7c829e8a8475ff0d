package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/store"
)

// recordUse has users ask the clinic source questions through the
// conversation service, into the store of the data directory, as clarify
// serve would: two explain the unknown word "glorp" as the wound size,
// three define "severe" as infected rather than the best guess.
func recordUse(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "clarify.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := registry.New(nil, dir, registry.Options{UseAsOf: true})
	defer reg.Close()
	svc := conversation.New(registry.Engines{Registry: reg}, st, conversation.Options{})
	defer svc.Close()
	answer := func(user, question, slot string, a conversation.Answer) {
		t.Helper()
		r, err := svc.Ask(ctx, user, conversation.Ask{Question: question, Source: "clinic"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Clarification == nil || r.Clarification.Slot != slot {
			t.Fatalf("%q: %s %+v, want a question about %s", question, r.Status, r.Clarification, slot)
		}
		a.ClarificationID = r.Clarification.ID
		if _, err := svc.Send(ctx, user, r.ConversationID, conversation.Message{Answer: &a}, nil); err != nil {
			t.Fatal(err)
		}
	}
	answer("ana", "list the glorp wounds", "unknown:glorp", conversation.Answer{FreeText: "wound size"})
	answer("bo", "glorp wounds per clinic", "unknown:glorp", conversation.Answer{FreeText: "wound size"})
	for _, user := range []string{"ana", "bo", "cy"} {
		answer(user, "patients with severe wounds", "vague:serious", conversation.Answer{OptionID: "infected"})
	}
}

// TestModelReview records real use into a SQLite store and reviews it end
// to end: the report, the patch written with --out, the JSON, and the
// errors of bad input.
func TestModelReview(t *testing.T) {
	dir := dataDir(t)
	recordUse(t, dir)

	patchFile := filepath.Join(t.TempDir(), "patch.yaml")
	code, out, errs := run(t, "", "model", "review", "--data-dir", dir, "--source", "clinic", "--out", patchFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Model review of source clinic (all records)",
		"by 3 users and 5 answers",
		"glorp", `"list the glorp wounds"`,
		"vague:serious", "full_thickness  3 of 3", "infected ×3",
		"Proposals (2)",
		`add_synonym "glorp" to column wounds.area_cm2`,
		"set_best_guess of vague term serious to infected (was full_thickness)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "wrote 2 proposal(s) to "+patchFile) {
		t.Errorf("stderr %q does not say where the patch went", errs)
	}
	data, err := os.ReadFile(patchFile)
	if err != nil {
		t.Fatal(err)
	}
	var patch struct {
		Source    string           `yaml:"source"`
		Proposals []map[string]any `yaml:"proposals"`
	}
	if err := yaml.Unmarshal(data, &patch); err != nil {
		t.Fatalf("the patch is not YAML: %v\n%s", err, data)
	}
	if !strings.HasPrefix(string(data), "# Proposed changes") || patch.Source != "clinic" || len(patch.Proposals) != 2 {
		t.Errorf("patch:\n%s", data)
	}
	syn, _ := patch.Proposals[0]["add_synonym"].(map[string]any)
	if syn["entity"] != "wounds" || syn["column"] != "area_cm2" || syn["word"] != "glorp" || syn["evidence"] == "" {
		t.Errorf("first proposal %v, want glorp as a synonym of wounds.area_cm2 with evidence", patch.Proposals[0])
	}

	// without --out the patch follows the report; --since keeps what is recent
	code, out, _ = run(t, "", "model", "review", "--data-dir", dir, "--since", "1h")
	if code != 0 || !strings.Contains(out, "(since ") || !strings.Contains(out, "YAML patch (--out FILE writes it to a file):") ||
		!strings.Contains(out, "  - add_synonym:") {
		t.Errorf("review of the default source since 1h: exit %d\n%s", code, out)
	}
	// another source has nothing yet
	code, out, _ = run(t, "", "model", "review", "--data-dir", dir, "--source", "labs")
	if code != 0 || !strings.Contains(out, "Read 0 logged turns") || !strings.Contains(out, "proposals: []") {
		t.Errorf("review of labs: exit %d\n%s", code, out)
	}

	// JSON, with eval results: the failing case's unknown word is counted
	evalFile := filepath.Join(t.TempDir(), "eval.json")
	os.WriteFile(evalFile, []byte(`[{"file": "s.yaml", "source": "clinic", "cases": [{"id": "a", "question": "gnarly wounds",
		"asked": ["unknown_term"], "first_options": ["Ignore \"gnarly\""], "pass": false}]}]`), 0o644)
	code, out, errs = run(t, "", "model", "review", "--data-dir", dir, "--source", "clinic", "--json", "--eval", evalFile)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var rep struct {
		Totals struct {
			Turns     int `json:"turns"`
			EvalCases int `json:"eval_cases"`
		} `json:"totals"`
		Unknown []struct {
			Word      string `json:"word"`
			EvalCases int    `json:"eval_cases"`
		} `json:"unknown_words"`
		Proposals []map[string]any `json:"proposals"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if rep.Totals.Turns == 0 || rep.Totals.EvalCases != 1 || len(rep.Proposals) != 2 {
		t.Errorf("--json report: %+v", rep)
	}
	if !strings.Contains(out, `"word": "gnarly"`) || !strings.Contains(errs, "--out") {
		t.Errorf("--json: the eval's unknown word is missing, or stderr %q does not say the patch was not written:\n%s", errs, out)
	}

	// a model file instead of the source's
	clinic := filepath.Join(demotest.Root(t), "internal", "demo", "models", "clinic.yaml")
	if code, out, errs := run(t, "", "model", "review", "--data-dir", dir, "--model", clinic); code != 0 || !strings.Contains(out, "Proposals (2)") {
		t.Errorf("--model: exit %d %s\n%s", code, errs, out)
	}

	notJSON := filepath.Join(t.TempDir(), "suite.yaml")
	os.WriteFile(notJSON, []byte("source: clinic\ncases: []\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown source", []string{"--data-dir", dir, "--source", "nope"}, 1, `unknown source "nope"`},
		{"bad duration", []string{"--data-dir", dir, "--since", "a week"}, 2, "--since"},
		{"negative duration", []string{"--data-dir", dir, "--since", "-3d"}, 2, "positive"},
		{"unreadable eval", []string{"--data-dir", dir, "--eval", filepath.Join(dir, "none.json")}, 2, "none.json"},
		{"eval not JSON", []string{"--data-dir", dir, "--eval", notJSON}, 2, "clarify eval --json"},
		{"no store", []string{"--data-dir", t.TempDir()}, 1, "no store at"},
		{"bad store", []string{"--data-dir", dir, "--store", "mysql://u:secret@h/db"}, 1, "unknown DSN"},
		{"an argument", []string{"--data-dir", dir, "clinic"}, 2, "no arguments"},
		{"bad model", []string{"--data-dir", dir, "--model", filepath.Join(dir, "none.yaml")}, 1, "none.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, "", append([]string{"model", "review"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, tc.code, tc.want)
			}
			if strings.Contains(errs, "secret") {
				t.Errorf("stderr leaks a password: %s", errs)
			}
		})
	}
}

// TestModelReviewKeepsFile: --out refuses to replace a file that exists,
// before any work and without touching it; --force replaces it.
func TestModelReviewKeepsFile(t *testing.T) {
	dir := dataDir(t)
	recordUse(t, dir)
	patchFile := filepath.Join(t.TempDir(), "patch.yaml")
	if err := os.WriteFile(patchFile, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "", "model", "review", "--data-dir", dir, "--source", "clinic", "--out", patchFile)
	if code == 0 || !strings.Contains(errs, "refusing to overwrite") || !strings.Contains(errs, "--force") {
		t.Errorf("exit %d, stderr %q: want a refusal naming --force", code, errs)
	}
	if b, _ := os.ReadFile(patchFile); string(b) != "# mine\n" {
		t.Errorf("the file was changed: %q", b)
	}
	code, _, errs = run(t, "", "model", "review", "--data-dir", dir, "--source", "clinic", "--out", patchFile, "--force")
	if b, _ := os.ReadFile(patchFile); code != 0 || string(b) == "# mine\n" {
		t.Errorf("--force: exit %d (%s), file %q", code, errs, b)
	}
}
