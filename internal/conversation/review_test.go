package conversation_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestReviewRecords: what `clarify model review` reads is recorded as
// users ask and answer — the words of a question that linked to nothing,
// and with each answer the kind of question and the best guess it offered.
func TestReviewRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{TTL: time.Hour}, hooks{})
	ctx := context.Background()

	// an unknown word, asked about, explained by typing
	r := ask(t, e.svc, "ana", conversation.Ask{Question: "list the glorp wounds"})
	if r.Status != "needs_clarification" || r.Clarification.Slot != "unknown:glorp" {
		t.Fatalf("glorp: %s %+v, want the unknown word asked about", r.Status, r.Clarification)
	}
	send(t, e.svc, "ana", r.ConversationID, conversation.Message{Answer: &conversation.Answer{
		ClarificationID: r.Clarification.ID, FreeText: "infected"}})
	// a best guess overridden
	choose(t, e.svc, "bo", ask(t, e.svc, "bo", conversation.Ask{Question: severeWounds}), "infect")
	// a best guess taken
	choose(t, e.svc, "bo", ask(t, e.svc, "bo", conversation.Ask{Question: severeWounds}), "full_thickness")
	// a skipped question is not an answer
	r = ask(t, e.svc, "bo", conversation.Ask{Question: severeWounds})
	send(t, e.svc, "bo", r.ConversationID, conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, Skipped: true}})

	// a question with nothing answerable fails, and still logs its words
	ask(t, e.svc, "cy", conversation.Ask{Question: "zorbly flimwax", Interactive: new(bool)})

	answers, err := e.st.Answers(ctx, "clinic", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	at := e.clock.Now().UTC()
	want := []store.Answer{
		{UserID: "ana", Source: "clinic", Slot: "unknown:glorp", Value: "text:infected", Kind: "unknown_term", BestGuess: "ignore", At: at},
		{UserID: "bo", Source: "clinic", Slot: "vague:serious", Value: "opt:infected", Kind: "vague_qualifier", BestGuess: "full_thickness", At: at},
		{UserID: "bo", Source: "clinic", Slot: "vague:serious", Value: "opt:full_thickness", Kind: "vague_qualifier", BestGuess: "full_thickness", At: at},
	}
	if diff := cmp.Diff(want, answers); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}

	log, err := e.st.QueryLog(ctx, "clinic", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(log) == 0 {
		t.Fatal("nothing in the query log")
	}
	first := log[0]
	if first.Question != "list the glorp wounds" || first.Status != "needs_clarification" || !cmp.Equal(first.Unknown, []string{"glorp"}) {
		t.Errorf("first record %+v, want the glorp question asking, with unknown [glorp]", first)
	}
	failed := false
	for _, rec := range log[1:] {
		if rec.Question == severeWounds && len(rec.Unknown) != 0 {
			t.Errorf("a question whose words all link has unknown words %q", rec.Unknown)
		}
		if rec.Question == "zorbly flimwax" {
			failed = true
			if rec.Status != "failed" || !cmp.Equal(rec.Unknown, []string{"zorbly", "flimwax"}) {
				t.Errorf("failed turn logged %+v, want failed with unknown [zorbly flimwax]", rec)
			}
		}
	}
	if !failed {
		t.Error("the failed turn is not in the query log")
	}
}
