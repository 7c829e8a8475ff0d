package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
)

func testStats(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	since := t0

	// Each conversation walks through its statuses, as package
	// conversation persists them.
	flows := []struct {
		id      string
		created time.Time
		walk    []string
	}{
		// Answered at once: auto-resolved.
		{"auto1", since.Add(time.Minute), []string{store.StatusActive, store.StatusAnswered}},
		{"auto2", since, []string{store.StatusActive, store.StatusAnswered}},
		// One question, answered.
		{"one", since.Add(time.Minute), []string{store.StatusActive, store.StatusAwaiting, store.StatusActive, store.StatusAnswered}},
		// Created awaiting, two rounds of questions (a re-save while
		// awaiting counts once), answered.
		{"two", since.Add(time.Minute), []string{store.StatusAwaiting, store.StatusAwaiting, store.StatusActive, store.StatusAwaiting, store.StatusActive, store.StatusAnswered}},
		// Asked, then abandoned.
		{"abandoned", since.Add(time.Minute), []string{store.StatusActive, store.StatusAwaiting, store.StatusAbandoned}},
		// Failed without a question.
		{"failed", since.Add(time.Minute), []string{store.StatusActive, store.StatusFailed}},
		// Still waiting.
		{"waiting", since.Add(time.Minute), []string{store.StatusAwaiting}},
		// Before since: not counted.
		{"old", since.Add(-time.Millisecond), []string{store.StatusActive, store.StatusAwaiting, store.StatusActive, store.StatusAnswered}},
	}
	for _, f := range flows {
		c := conversation(f.id)
		c.CreatedAt = f.created
		c.Status = f.walk[0]
		mustCreate(t, s, c, events("conversation")...)
		for _, status := range f.walk[1:] {
			c.Status = status
			mustUpdate(t, s, c, events("step")...)
		}
	}
	// 100 turns of 1…100 ms since, in shuffled order, and slow old ones.
	for i := range 100 {
		ms := float64((i*37)%100 + 1)
		r := store.QueryRecord{ConversationID: "one", UserID: "u1", Source: "clinic",
			Question: "q", SQL: "SELECT 1", Status: "answered", DurationMS: ms,
			Rows: 1, Turns: 1, At: since.Add(time.Duration(i) * time.Second)}
		if err := s.LogQuery(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 {
		if err := s.LogQuery(ctx, store.QueryRecord{Status: "failed", ErrorCode: "TIMEOUT", DurationMS: 5000, At: since.Add(-time.Second)}); err != nil {
			t.Fatal(err)
		}
	}

	got, err := s.Stats(ctx, since, "")
	if err != nil {
		t.Fatal(err)
	}
	want := store.Stats{
		Conversations:  7,
		Clarified:      4, // one, two, abandoned, waiting
		Answered:       4, // auto1, auto2, one, two
		Abandoned:      1,
		Failed:         1,
		AutoResolved:   2,
		QuestionsAsked: 3, // one: 1, two: 2
		P50MS:          50,
		P99MS:          99,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}

	// one user's: every conversation and query of the fixture is u1's
	mine, err := s.Stats(ctx, since, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, mine); diff != "" {
		t.Errorf("Stats of u1 (-want +got):\n%s", diff)
	}
	if other, err := s.Stats(ctx, since, "u2"); err != nil || other != (store.Stats{}) {
		t.Errorf("Stats of u2 = %+v, %v; want nothing: none of it is theirs", other, err)
	}

	all, err := s.Stats(ctx, time.Time{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if all.Conversations != 8 || all.QuestionsAsked != 4 || all.P99MS != 5000 {
		t.Errorf("Stats since the beginning = %+v; want 8 conversations, 4 questions, p99 5000", all)
	}

	// Nearest rank on small samples.
	for _, tc := range []struct {
		durations []float64
		p50, p99  float64
	}{
		{[]float64{7}, 7, 7},
		{[]float64{3, 1}, 1, 3},
		{[]float64{4, 2, 3}, 3, 4},
		{[]float64{0.25, 0.5, 0.75, 1.5}, 0.5, 1.5},
	} {
		t.Run(fmt.Sprint(tc.durations), func(t *testing.T) {
			s := fresh(t, newDSN)
			for _, d := range tc.durations {
				if err := s.LogQuery(ctx, store.QueryRecord{DurationMS: d}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.Stats(ctx, time.Time{}, "")
			if err != nil {
				t.Fatal(err)
			}
			if got.P50MS != tc.p50 || got.P99MS != tc.p99 {
				t.Errorf("p50, p99 = %v, %v; want %v, %v", got.P50MS, got.P99MS, tc.p50, tc.p99)
			}
		})
	}
}

func testStatsEmpty(t *testing.T, newDSN NewDSN) {
	s := fresh(t, newDSN)
	got, err := s.Stats(context.Background(), time.Time{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Stats{}, got); diff != "" {
		t.Errorf("Stats of an empty store (-want +got):\n%s", diff)
	}
}
