package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/testdb"
)

// benchQuestions reads the questions bench scale asks by default.
func benchQuestions(t *testing.T) (answer, clarify []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("benchdata", "trades.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var qs struct{ Answer, Clarify []string }
	if err := yaml.Unmarshal(data, &qs); err != nil {
		t.Fatal(err)
	}
	if len(qs.Answer) != 10 || len(qs.Clarify) != 10 {
		t.Fatalf("%d answering and %d clarifying questions, want ten and ten", len(qs.Answer), len(qs.Clarify))
	}
	return qs.Answer, qs.Clarify
}

// benchFigures is the part of bench scale's JSON the test reads.
type benchFigures struct {
	Factor    int   `json:"factor"`
	Trades    int64 `json:"trades"`
	Reused    bool  `json:"reused"`
	Answering []struct {
		Question string             `json:"question"`
		Turn     map[string]float64 `json:"turn_ms"`
		Raw      map[string]float64 `json:"raw_ms"`
		Ratio    float64            `json:"turn_over_raw"`
		Rows     int                `json:"rows"`
	} `json:"answering"`
	Clarifying []struct {
		Question    string             `json:"question"`
		Turn        map[string]float64 `json:"turn_ms"`
		Kind        string             `json:"kind"`
		Options     int                `json:"options"`
		PreviewsMax int                `json:"previews_max"`
	} `json:"clarifying"`
	ColdStart struct {
		Question string  `json:"question"`
		FirstMS  float64 `json:"first_ms"`
		WarmMS   float64 `json:"warm_ms"`
		// the statement's part of each
		FirstExecMS float64 `json:"first_exec_ms"`
		WarmExecMS  float64 `json:"warm_exec_ms"`
		// the statement run directly on a new connection
		DirectFirstMS float64 `json:"direct_first_ms"`
		DirectAgainMS float64 `json:"direct_again_ms"`
	} `json:"cold_start"`
}

// TestBenchScale runs bench scale end to end at factor 1 on each dialect:
// a first run builds the data, keeps it and prints a table naming every
// question; a second finds the data kept, prints the figures as JSON and
// removes the data.
func TestBenchScale(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the trades source and asks twenty questions twice")
	}
	answer, clarify := benchQuestions(t)
	dialects := []struct {
		name string
		// args are the flags naming the dialect and where its data goes;
		// gone reports whether the data was removed
		setup func(t *testing.T) (args []string, gone func() bool)
	}{
		{"sqlite", func(t *testing.T) ([]string, func() bool) {
			dir := t.TempDir()
			return []string{"--dialect", "sqlite", "--data-dir", dir}, func() bool {
				_, err := os.Stat(filepath.Join(dir, "bench", "trades-x1.db"))
				return os.IsNotExist(err)
			}
		}},
		{"postgres", func(t *testing.T) ([]string, func() bool) {
			s := testdb.PostgresServer(t)
			ns := s.Namespace(t, "t_bench_scale")
			return []string{"--dialect", "postgres", "--postgres", testdb.Postgres(t), "--schema", ns, "--data-dir", t.TempDir()}, func() bool {
				var n int
				err := s.Admin.QueryRowContext(context.Background(), "SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1", ns).Scan(&n)
				return err == nil && n == 0
			}
		}},
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			flags, gone := d.setup(t)
			args := append([]string{"bench", "scale", "--factor", "1", "--rounds", "1"}, flags...)
			code, out, errs := run(t, "", append(args, "--keep")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, want := range append(append([]string{"turn p50", "raw p50", "turn/raw", "previews warm", "cold start:", "run directly on a new connection", "200,000 trades"}, answer...), clarify...) {
				if !strings.Contains(out, want) {
					t.Errorf("the table lacks %q:\n%s", want, out)
				}
			}
			if gone() {
				t.Fatal("--keep did not keep the data")
			}
			code, out, errs = run(t, "", append(args, "--json")...)
			if code != 0 {
				t.Fatalf("second run: exit %d: %s", code, errs)
			}
			var f benchFigures
			if err := json.Unmarshal([]byte(out), &f); err != nil {
				t.Fatalf("the --json output does not parse: %v\n%s", err, out)
			}
			checkFigures(t, f, answer, clarify)
			if !gone() {
				t.Error("the data was kept without --keep")
			}
		})
	}
}

// checkFigures checks the figures of a second run over the kept data.
func checkFigures(t *testing.T, f benchFigures, answer, clarify []string) {
	t.Helper()
	if !f.Reused || f.Factor != 1 || f.Trades != 200_000 {
		t.Errorf("reused %v, factor %d, %d trades; want the kept data, 1 and 200,000", f.Reused, f.Factor, f.Trades)
	}
	if len(f.Answering) != len(answer) || len(f.Clarifying) != len(clarify) {
		t.Fatalf("%d answering and %d clarifying figures, want %d and %d", len(f.Answering), len(f.Clarifying), len(answer), len(clarify))
	}
	for i, a := range f.Answering {
		if a.Question != answer[i] || a.Turn["p50"] <= 0 || a.Raw["p50"] <= 0 || a.Ratio <= 0 || a.Rows < 1 {
			t.Errorf("answering %d: %+v; want %q timed, run directly and with rows", i, a, answer[i])
		}
	}
	for i, c := range f.Clarifying {
		if c.Question != clarify[i] || c.Turn["p50"] <= 0 || c.Kind == "" || c.Options < 2 || c.PreviewsMax > c.Options {
			t.Errorf("clarifying %d: %+v; want %q timed, with its kind and options", i, c, clarify[i])
		}
	}
	if cs := f.ColdStart; cs.Question != answer[0] || cs.FirstMS <= 0 || cs.WarmMS <= 0 {
		t.Errorf("cold start %+v; want %q timed cold and warm", cs, answer[0])
	}
	if cs := f.ColdStart; cs.FirstExecMS <= 0 || cs.FirstExecMS > cs.FirstMS || cs.WarmExecMS <= 0 || cs.WarmExecMS > cs.WarmMS {
		t.Errorf("cold start %+v; want the statement's part of each, within it", cs)
	}
	if cs := f.ColdStart; cs.DirectFirstMS <= 0 || cs.DirectAgainMS <= 0 {
		t.Errorf("cold start %+v; want the statement run directly on a new connection, twice", cs)
	}
}

// TestBenchScaleUsage: flags that cannot work are usage errors before
// anything is built, and the demo's own schemas are never written over.
func TestBenchScaleUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"unknown dialect", []string{"--dialect", "oracle"}, "--dialect must be sqlite or postgres"},
		{"postgres without a DSN", []string{"--dialect", "postgres"}, "needs --postgres"},
		{"the demo's schema", []string{"--dialect", "postgres", "--postgres", "postgres://nobody@127.0.0.1:1/x", "--schema", "trades"}, "would replace the demo's"},
		{"a schema for sqlite", []string{"--schema", "x"}, "go with --dialect postgres"},
		{"factor 0", []string{"--factor", "0"}, "at least 1"},
		{"rounds 0", []string{"--rounds", "0"}, "at least 1"},
		{"an argument", []string{"what"}, "takes no arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "", append([]string{"bench", "scale", "--data-dir", t.TempDir()}, tc.args...)...)
			if code != 2 || !strings.Contains(errs, tc.msg) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tc.msg)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}
