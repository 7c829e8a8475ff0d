package conversation_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestStats: the figures and rates of a period follow from what its
// conversations did.
func TestStats(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{TTL: time.Hour}, hooks{})
	ctx := context.Background()

	// before the period: not counted
	ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	e.clock.Add(time.Minute)
	since := e.clock.Now()

	// abandoned: asked, never answered, swept by the janitor (with the one before)
	ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	e.clock.Add(time.Hour + time.Minute)
	if n, err := e.st.ExpireConversations(ctx, e.clock.Now()); err != nil || n != 2 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	// answered after one question
	choose(t, e.svc, "ana", ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds}), "infect")
	// answered after two questions
	r := ask(t, e.svc, "ana", conversation.Ask{Question: bigOldWounds})
	asked := 0
	for ; r.Status == "needs_clarification"; asked++ {
		r = send(t, e.svc, "ana", r.ConversationID, conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, Skipped: true}})
	}
	if asked != 2 || r.Status != "answered" {
		t.Fatalf("big old wounds: %d questions, %s; want 2 and answered", asked, r.Status)
	}
	// answered without a question
	ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic"))
	// failed
	if r := ask(t, e.svc, "bo", notInteractive(myFerritin, "labs")); r.Status != "failed" {
		t.Fatalf("scope required: %s", r.Status)
	}
	// still waiting for an answer
	ask(t, e.svc, "bo", conversation.Ask{Question: severeWounds})

	got, err := e.svc.StatsSince(ctx, since, "")
	if err != nil {
		t.Fatal(err)
	}
	want := &conversation.Stats{
		Stats: store.Stats{Conversations: 6, Clarified: 4, Answered: 3, Abandoned: 1, Failed: 1, AutoResolved: 1, QuestionsAsked: 3,
			P50MS: got.P50MS, P99MS: got.P99MS},
		ClarificationRate:    4.0 / 6,
		AbandonmentRate:      1.0 / 4,
		AutoResolutionRate:   1.0 / 3,
		QuestionsPerAnswered: 3.0 / 3,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if got.P50MS <= 0 || got.P50MS > got.P99MS {
		t.Errorf("latency p50 %v, p99 %v", got.P50MS, got.P99MS)
	}

	empty, err := e.svc.StatsSince(ctx, e.clock.Now().Add(time.Hour), "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&conversation.Stats{}, empty); diff != "" {
		t.Errorf("stats of an empty period (-want +got):\n%s", diff)
	}
}
