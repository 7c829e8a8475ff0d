package review_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/review"
	"github.com/clarify-sql/clarify/internal/store"
)

// repeat returns n answers to slot, from users u1…un.
func repeat(n int, slot, value, kind, best string) []store.Answer {
	var out []store.Answer
	for i := range n {
		out = append(out, answer(fmt.Sprintf("u%d", i+1), slot, value, kind, best))
	}
	return out
}

// uses returns one conversation per question, each by its own user.
func uses(word string, questions ...string) []store.QueryRecord {
	var out []store.QueryRecord
	for i, q := range questions {
		out = append(out, logged(fmt.Sprintf("%s%d", word, i), fmt.Sprintf("u%d", i), q, "answered", word))
	}
	return out
}

func join[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// TestThresholds pins each rule at its edges: what is proposed and what,
// for lack of evidence, is not. Nothing is ever proposed from one answer.
func TestThresholds(t *testing.T) {
	t.Parallel()
	m := loadModel(t)
	const unknown, vague, ranking = "unknown_term", "vague_qualifier", "ranking_metric"
	tests := []struct {
		name string
		in   review.Input
		want []string
	}{
		{"one explanation is an anecdote",
			review.Input{Answers: repeat(1, "unknown:glorp", "text:order total", unknown, "ignore")}, nil},
		{"two agreeing explanations",
			review.Input{Answers: repeat(2, "unknown:glorp", "text:order total", unknown, "ignore")},
			[]string{`add_synonym "glorp" to column orders.total`}},
		{"explanations naming the same column differently agree",
			review.Input{Answers: join(repeat(1, "unknown:glorp", "text:total of the orders", unknown, "ignore"),
				repeat(1, "unknown:glorp", "opt:use:Total", unknown, "use:Total"))},
			[]string{`add_synonym "glorp" to column orders.total`}},
		{"an entity and a measure",
			review.Input{Answers: join(repeat(2, "unknown:glorps", "text:clients", unknown, "ignore"),
				repeat(2, "unknown:takings", "opt:use:Revenue", unknown, "use:Revenue"))},
			[]string{`add_synonym "glorps" to entity customers`, `add_synonym "takings" to measure revenue`}},
		{"two of four is not most",
			review.Input{Answers: join(repeat(2, "unknown:glorp", "text:order total", unknown, "ignore"),
				repeat(2, "unknown:glorp", "text:something else", unknown, "ignore"))}, nil},
		{"an ambiguous explanation names nothing",
			review.Input{Answers: repeat(3, "unknown:glorp", "text:id", unknown, "ignore")}, nil},
		{"a word the model has is not proposed again",
			review.Input{Answers: repeat(3, "unknown:value", "text:order total", unknown, "ignore")}, nil},
		{"two asking to ignore",
			review.Input{Answers: repeat(2, "unknown:please", "opt:ignore", unknown, "ignore")},
			[]string{`add_stopword "please"`}},
		{"one asking to ignore",
			review.Input{Answers: repeat(1, "unknown:please", "opt:ignore", unknown, "ignore")}, nil},
		{"a column chosen twice",
			review.Input{Answers: repeat(2, "column:sum", "opt:payments.amount", "column_ambiguity", "orders.total")},
			[]string{`add_synonym "sum" to column payments.amount`}},
		{"a column chosen by a word it already has",
			review.Input{Answers: repeat(3, "column:value", "opt:orders.total", "column_ambiguity", "orders.total")}, nil},
		{"a column the model does not have",
			review.Input{Answers: repeat(3, "column:sum", "opt:orders.nope", "column_ambiguity", "orders.total")}, nil},
		{"two overrides are too few",
			review.Input{Answers: repeat(2, "vague:large", "opt:over_1000", vague, "over_100")}, nil},
		{"three overrides",
			review.Input{Answers: repeat(3, "vague:large", "opt:over_1000", vague, "over_100")},
			[]string{"set_best_guess of vague term large to over_1000 (was over_100)"}},
		{"half overridden is not most",
			review.Input{Answers: join(repeat(2, "vague:large", "opt:over_1000", vague, "over_100"),
				repeat(2, "vague:large", "opt:over_100", vague, "over_100"))}, nil},
		{"overridden by typed answers only",
			review.Input{Answers: join(repeat(3, "vague:large", "text:total > 5000", vague, "over_100"),
				repeat(1, "vague:large", "opt:over_1000", vague, "over_100"))}, nil},
		{"an option the model does not have",
			review.Input{Answers: repeat(3, "vague:large", "opt:over_9000", vague, "over_100")}, nil},
		{"a ranking default",
			review.Input{Answers: repeat(3, "ranking:customers", "opt:orders", ranking, "revenue")},
			[]string{"set_default of the ranking of customers to orders (was revenue)"}},
		{"a ranking the model does not have",
			review.Input{Answers: repeat(3, "ranking:orders", "opt:count", ranking, "sum")}, nil},
		{"an adjective used three times",
			review.Input{Queries: uses("gnarly", "which orders are gnarly", "gnarly stuff", "anything gnarly for clients")},
			[]string{`define_vague_term "gnarly" for customers, orders`}},
		{"a word before an entity three times",
			review.Input{Queries: uses("zorp", "zorp orders", "list zorp payments", "zorp orders today")},
			[]string{`define_vague_term "zorp" for orders, payments`}},
		{"an adjective used twice",
			review.Input{Queries: uses("gnarly", "gnarly orders", "gnarly payments")}, nil},
		{"twice, and a failing eval case",
			review.Input{Queries: uses("gnarly", "gnarly orders", "gnarly payments"),
				Evals: []eval.SuiteResult{{Source: "shop", Cases: []eval.CaseResult{{Question: "gnarly clients",
					Asked: []string{"unknown_term"}, FirstOptions: []string{`Ignore "gnarly"`}}}}}},
			[]string{`define_vague_term "gnarly" for customers, orders, payments`}},
		{"a passing eval case is no evidence",
			review.Input{Queries: uses("gnarly", "gnarly orders", "gnarly payments"),
				Evals: []eval.SuiteResult{{Source: "shop", Cases: []eval.CaseResult{{Question: "gnarly clients", Pass: true,
					Asked: []string{"unknown_term"}, FirstOptions: []string{`Ignore "gnarly"`}}}}}}, nil},
		{"one conversation using a word three times",
			review.Input{Queries: []store.QueryRecord{logged("c1", "u1", "gnarly orders", "needs_clarification", "gnarly"),
				logged("c1", "u1", "gnarly orders", "needs_clarification", "gnarly"), logged("c1", "u1", "gnarly orders", "answered", "gnarly")}}, nil},
		{"a noun used three times, not before an entity",
			review.Input{Queries: uses("frobnitz", "show frobnitz", "frobnitz for clients", "the frobnitz")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := tc.in
			in.Source, in.Model = "shop", m
			got := summaries(review.Build(in).Proposals)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("proposals (-want +got):\n%s", diff)
			}
		})
	}
}
