package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
)

// testQueryLog reads back what LogQuery wrote: every field, the unknown
// words (any text a word may hold), by source and since a time, oldest
// first and in logging order within one instant.
func testQueryLog(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	clk := &clock{t: t0.Add(time.Hour)}
	s := openConfig(t, store.Config{DSN: newDSN(t), Now: clk.Now})
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	recs := []store.QueryRecord{
		{ConversationID: "c1", UserID: "u1", Source: "clinic", Question: "glorp wounds", Status: "needs_clarification",
			DurationMS: 1.5, Turns: 1, Clarifications: 1, Unknown: []string{"glorp"}, At: at(1)},
		{ConversationID: "c1", UserID: "u1", Source: "clinic", Question: "glorp wounds", SQL: "SELECT 1", Status: "answered",
			DurationMS: 2.25, Rows: 7, Turns: 3, Clarifications: 1, Assumptions: 2, At: at(2)},
		// the same instant: kept in logging order
		{ConversationID: "c2", UserID: "u2", Source: "clinic", Question: "zong wub, \"quoted\"", Status: "failed",
			ErrorCode: "UNANSWERABLE", Unknown: []string{"zong wub", `"quoted"`, "a,b", "é\tü"}, At: at(2)},
		{ConversationID: "c3", UserID: "u2", Source: "labs", Question: "ferrit", Status: "failed", ErrorCode: "UNANSWERABLE",
			Unknown: []string{"ferrit"}, At: at(3)},
		// before since
		{ConversationID: "c0", UserID: "u1", Source: "clinic", Question: "old", Status: "answered", At: at(-1)},
		// no time: the store's clock
		{ConversationID: "c4", UserID: "u3", Source: "clinic", Question: "now", Status: "answered"},
		// an empty list is stored as none
		{ConversationID: "c5", UserID: "u3", Source: "clinic", Question: "empty", Status: "answered", Unknown: []string{}, At: at(4)},
	}
	for _, r := range recs {
		if err := s.LogQuery(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	norm := func(r store.QueryRecord) store.QueryRecord {
		if r.At.IsZero() {
			r.At = clk.Now()
		}
		r.At = r.At.UTC().Truncate(time.Microsecond)
		if len(r.Unknown) == 0 {
			r.Unknown = nil
		}
		return r
	}
	tests := []struct {
		name   string
		source string
		since  time.Time
		want   []int // indexes into recs
	}{
		{"one source since t0", "clinic", t0, []int{0, 1, 2, 6, 5}},
		{"every source since t0", "", t0, []int{0, 1, 2, 3, 6, 5}},
		{"every source, all time", "", time.Time{}, []int{4, 0, 1, 2, 3, 6, 5}},
		{"since an instant includes it", "clinic", at(2), []int{1, 2, 6, 5}},
		{"another source", "labs", time.Time{}, []int{3}},
		{"no such source", "nope", time.Time{}, nil},
		{"after everything", "", clk.Now().Add(time.Second), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.QueryLog(ctx, tc.source, tc.since)
			if err != nil {
				t.Fatal(err)
			}
			var want []store.QueryRecord
			for _, i := range tc.want {
				want = append(want, norm(recs[i]))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("QueryLog(%q, %v) (-want +got):\n%s", tc.source, tc.since, diff)
			}
		})
	}
}

// testAnswers reads back what RecordAnswer wrote, with the kind and best
// guess, by source and since a time, oldest first.
func testAnswers(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	clk := &clock{t: t0.Add(time.Hour)}
	s := openConfig(t, store.Config{DSN: newDSN(t), Now: clk.Now})
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	answers := []store.Answer{
		{UserID: "u1", Source: "clinic", Slot: "vague:serious", Value: "opt:infected", Kind: "vague_qualifier",
			BestGuess: "full_thickness", At: at(1)},
		{UserID: "u2", Source: "clinic", Slot: "unknown:glorp", Value: "text:wound area", Kind: "unknown_term",
			BestGuess: "ignore", Remember: true, At: at(2)},
		{UserID: "u2", Source: "clinic", Slot: "subject", Value: "opt:use:Patients", Kind: "table_ambiguity", At: at(2)},
		{UserID: "u1", Source: "labs", Slot: "format", Value: "opt:table", Kind: "format", BestGuess: "plot", At: at(3)},
		{UserID: "u1", Source: "clinic", Slot: "vague:serious", Value: "opt:large", At: at(-1)},
		{UserID: "u3", Source: "clinic", Slot: "ranking:clinics", Value: "opt:wounds", Kind: "ranking_metric", BestGuess: "patients"},
	}
	for _, a := range answers {
		if err := s.RecordAnswer(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	norm := func(a store.Answer) store.Answer {
		if a.At.IsZero() {
			a.At = clk.Now()
		}
		a.At = a.At.UTC().Truncate(time.Microsecond)
		return a
	}
	tests := []struct {
		name   string
		source string
		since  time.Time
		want   []int
	}{
		{"one source since t0", "clinic", t0, []int{0, 1, 2, 5}},
		{"every source, all time", "", time.Time{}, []int{4, 0, 1, 2, 3, 5}},
		{"since an instant includes it", "clinic", at(2), []int{1, 2, 5}},
		{"another source", "labs", time.Time{}, []int{3}},
		{"no such source", "nope", time.Time{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Answers(ctx, tc.source, tc.since)
			if err != nil {
				t.Fatal(err)
			}
			var want []store.Answer
			for _, i := range tc.want {
				want = append(want, norm(answers[i]))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Answers(%q, %v) (-want +got):\n%s", tc.source, tc.since, diff)
			}
		})
	}
	// recording the kind and best guess leaves learning as it was
	prefs, err := s.Preferences(ctx, "u2", "clinic")
	if err != nil {
		t.Fatal(err)
	}
	if len(prefs) != 2 || prefs[1].Slot != "unknown:glorp" || prefs[1].Value != "text:wound area" || !prefs[1].Remember {
		t.Errorf("preferences of u2 = %+v", prefs)
	}
}
