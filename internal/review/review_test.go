package review_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/review"
	"github.com/clarify-sql/clarify/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// t0 is when the records of the tests start.
var t0 = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// logged is one query log record; at orders records.
func logged(conv, user, question, status string, unknown ...string) store.QueryRecord {
	r := store.QueryRecord{ConversationID: conv, UserID: user, Source: "shop", Question: question, Status: status, Unknown: unknown}
	switch status {
	case "failed":
		r.ErrorCode = "UNANSWERABLE"
	case "answered":
		r.Rows = 3
	}
	return r
}

// clarified is the answered record of a conversation that asked first.
func clarified(conv, user, question string, unknown ...string) store.QueryRecord {
	r := logged(conv, user, question, "answered", unknown...)
	r.Clarifications = 1
	return r
}

func answer(user, slot, value, kind, best string) store.Answer {
	return store.Answer{UserID: user, Source: "shop", Slot: slot, Value: value, Kind: kind, BestGuess: best}
}

// timed gives records increasing times from t0, a minute apart.
func timed(rs ...store.QueryRecord) []store.QueryRecord {
	for i := range rs {
		rs[i].At = t0.Add(time.Duration(i) * time.Minute)
	}
	return rs
}

func loadModel(t *testing.T) *model.Model {
	t.Helper()
	m, err := loadModelErr()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loadModelErr() (*model.Model, error) { return model.Load(filepath.Join("testdata", "shop.yaml")) }

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func summaries(ps []review.Proposal) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Summary())
	}
	return out
}

// TestBuild reviews made-up logs of the shop model: the text report and
// the YAML patch are golden files; the proposals are also listed here, so
// that updating the golden files cannot quietly lose one.
func TestBuild(t *testing.T) {
	t.Parallel()
	m := loadModel(t)
	tests := []struct {
		name string
		in   review.Input
		want []string // proposal summaries
	}{
		{name: "empty"},
		{
			name: "meanings",
			in: review.Input{
				Queries: timed(
					logged("c1", "u1", "list the glorp orders", "needs_clarification", "glorp"),
					clarified("c1", "u1", "list the glorp orders", "glorp"),
					logged("c2", "u2", "glorp of orders by customer", "answered", "glorp"),
					logged("c3", "u1", "glorp per client", "failed", "glorp"),
					logged("c4", "u3", "kindly list orders", "needs_clarification", "kindly"),
					clarified("c4", "u3", "kindly list orders"),
					logged("c5", "u2", "kindly count clients", "answered", "kindly"),
					logged("c6", "u3", "zap orders", "answered", "zap"),
					logged("c7", "u1", "amount per order", "needs_clarification"),
					clarified("c7", "u1", "amount per order"),
					clarified("c8", "u2", "Amount  per order?"),
					logged("c9", "u3", "amount per order", "needs_clarification"),
					logged("c10", "u1", "zong wub orders", "needs_clarification", "zong", "wub"),
					logged("c11", "u2", "orders with zong wub", "needs_clarification", "zong", "wub"),
				),
				Answers: []store.Answer{
					answer("u1", "unknown:glorp", "text:order total", "unknown_term", "ignore"),
					answer("u2", "unknown:glorp", "opt:use:Total", "unknown_term", "use:Total"),
					answer("u1", "unknown:glorp", "text:sales", "unknown_term", "ignore"),
					answer("u3", "unknown:kindly", "opt:ignore", "unknown_term", "ignore"),
					answer("u2", "unknown:kindly", "opt:ignore", "unknown_term", "ignore"),
					answer("u3", "unknown:zap", "text:customers", "unknown_term", "ignore"),
					answer("u1", "column:amount", "opt:orders.total", "column_ambiguity", "payments.amount"),
					answer("u2", "column:amount", "opt:orders.total", "column_ambiguity", "payments.amount"),
					answer("u3", "column:amount", "opt:payments.amount", "column_ambiguity", "payments.amount"),
					answer("u1", "unknown:zong wub", "text:payment amount", "unknown_term", "ignore"),
					answer("u2", "unknown:zong wub", "text:amount of payments", "unknown_term", "ignore"),
				},
			},
			want: []string{
				`add_synonym "glorp" to column orders.total`,
				`add_synonym "zong wub" to column payments.amount`,
				`add_synonym "amount" to column orders.total`,
				`add_stopword "kindly"`,
			},
		},
		{
			name: "defaults",
			in: review.Input{
				Since: t0,
				Queries: timed(
					clarified("c1", "u1", "large orders"),
					clarified("c2", "u2", "large orders"),
					clarified("c3", "u3", "large orders"),
					clarified("c4", "u4", "large orders"),
					clarified("c5", "u1", "top customers"),
				),
				Answers: []store.Answer{
					answer("u1", "vague:large", "opt:over_1000", "vague_qualifier", "over_100"),
					answer("u2", "vague:large", "opt:over_1000", "vague_qualifier", "over_100"),
					answer("u3", "vague:large", "opt:over_1000", "vague_qualifier", "over_100"),
					answer("u4", "vague:large", "opt:over_100", "vague_qualifier", "over_100"),
					// recorded before the kind and best guess were kept
					answer("u5", "vague:large", "opt:over_1000", "", ""),
					answer("u1", "ranking:customers", "opt:orders", "ranking_metric", "revenue"),
					answer("u2", "ranking:customers", "opt:orders", "ranking_metric", "revenue"),
					answer("u3", "ranking:customers", "opt:revenue", "ranking_metric", "revenue"),
					answer("u1", "time_window", "opt:all", "time_window", "last_30_days"),
					answer("u2", "time_window", "opt:all", "time_window", "last_30_days"),
					answer("u3", "time_window", "text:last 2 weeks", "time_window", "last_30_days"),
					// two answers are not enough
					answer("u1", "vague:recent", "opt:last_7_days", "vague_qualifier", "last_30_days"),
					answer("u2", "vague:recent", "opt:last_7_days", "vague_qualifier", "last_30_days"),
					// overridden, but no other option is chosen twice
					answer("u1", "vague:small", "opt:under_10", "vague_qualifier", "under_50"),
					answer("u2", "vague:small", "opt:under_100", "vague_qualifier", "under_50"),
					answer("u3", "vague:small", "opt:under_50", "vague_qualifier", "under_50"),
					// a vague term the model no longer has
					answer("u1", "vague:gone", "opt:a", "vague_qualifier", "b"),
					answer("u2", "vague:gone", "opt:a", "vague_qualifier", "b"),
					answer("u3", "vague:gone", "opt:a", "vague_qualifier", "b"),
				},
			},
			want: []string{
				"set_best_guess of vague term large to over_1000 (was over_100)",
				"set_best_guess of policies.time_window_options to all (was last_30_days)",
				"set_default of the ranking of customers to orders (was revenue)",
			},
		},
		{
			name: "vague",
			in: review.Input{
				Queries: timed(
					logged("c1", "u1", "list gnarly orders", "answered", "gnarly"),
					logged("c2", "u2", "which orders are gnarly", "answered", "gnarly"),
					logged("c3", "u3", "Gnarly orders last week", "answered", "gnarly"),
					logged("c4", "u1", "show frobnitz for customers", "failed", "frobnitz"),
					logged("c5", "u2", "show frobnitz for customers", "failed", "frobnitz"),
					logged("c6", "u3", "show frobnitz for customers", "failed", "frobnitz"),
					logged("c7", "u4", "show frobnitz for customers", "failed", "frobnitz"),
					logged("c8", "u1", "count sluggish payments", "answered", "sluggish"),
					logged("c9", "u2", "sluggish payments by order", "answered", "sluggish"),
				),
				Answers: []store.Answer{
					answer("u1", "unknown:gnarly", "text:total > 500", "unknown_term", "ignore"),
					answer("u2", "unknown:gnarly", "text:late", "unknown_term", "ignore"),
				},
				Evals: []eval.SuiteResult{
					{File: "suites/shop.yaml", Source: "shop", Cases: []eval.CaseResult{
						{ID: "slow", Question: "sluggish payments please", Asked: []string{"unknown_term"},
							FirstOptions: []string{`Ignore "sluggish"`}},
						{ID: "nonsense", Question: "blorf", Asked: []string{"unknown_term"},
							FirstOptions: []string{"Customers", "Orders", "Payments"}},
						{ID: "failed", Question: "wobbly zonks", Error: "UNANSWERABLE",
							ErrorMessage: "UNANSWERABLE: I could not tell what the question is about (unknown words: wobbly, zonks)"},
						{ID: "fine", Question: "number of orders", Pass: true},
					}},
					{File: "suites/clinic.yaml", Source: "clinic", Cases: []eval.CaseResult{{ID: "x", Question: "glorp"}}},
				},
			},
			want: []string{
				`define_vague_term "gnarly" for orders`,
				`define_vague_term "sluggish" for payments`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := tc.in
			in.Source, in.Model = "shop", m
			r := review.Build(in)
			if diff := cmp.Diff(tc.want, summaries(r.Proposals)); diff != "" {
				t.Errorf("proposals (-want +got):\n%s", diff)
			}
			var text, patch bytes.Buffer
			if err := review.Text(&text, r); err != nil {
				t.Fatal(err)
			}
			if err := review.Patch(&patch, r); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".txt", text.Bytes())
			golden(t, tc.name+".patch.yaml", patch.Bytes())

			// the patch is YAML that says exactly what the report proposes
			var doc struct {
				Source    string            `yaml:"source"`
				Proposals []review.Proposal `yaml:"proposals"`
			}
			dec := yaml.NewDecoder(&patch)
			dec.KnownFields(true)
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("the patch is not valid YAML: %v", err)
			}
			if doc.Source != "shop" {
				t.Errorf("patch source %q, want shop", doc.Source)
			}
			want := r.Proposals
			if len(want) == 0 {
				want = []review.Proposal{}
			}
			if doc.Proposals == nil {
				doc.Proposals = []review.Proposal{}
			}
			if diff := cmp.Diff(want, doc.Proposals); diff != "" {
				t.Errorf("the patch read back (-report +patch):\n%s", diff)
			}
		})
	}
}
