package conversation_test

import (
	"context"
	"slices"
	"testing"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestOutcomeEmittedAtOnce: a turn's outcome — its events after the
// progress steps, through "done" — reaches Emit in one call, after the
// save, so that a stream sends it in one write; the progress events come
// one call each, as they happen.
func TestOutcomeEmittedAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	var calls [][]string
	emit := func(evs ...store.Event) {
		var types []string
		for _, ev := range evs {
			types = append(types, ev.Type)
		}
		calls = append(calls, types)
	}
	r, err := e.svc.Ask(ctx, "ana", conversation.Ask{Question: severeWounds, Source: "clinic"}, emit)
	if err != nil || r.Clarification == nil {
		t.Fatalf("ask: %v %+v, want a clarification", err, r)
	}
	if want := []string{"assumptions", "clarification", "done"}; len(calls) == 0 || !slices.Equal(calls[len(calls)-1], want) {
		t.Errorf("asking: emitted %v, want the outcome %v in the last call", calls, want)
	}
	for _, c := range calls[:len(calls)-1] {
		if len(c) != 1 {
			t.Errorf("asking: emitted %v together before the outcome, want one event a call", c)
		}
	}
	calls = nil
	r, err = e.svc.Send(ctx, "ana", r.ConversationID, conversation.Message{Answer: &conversation.Answer{
		ClarificationID: r.Clarification.ID, OptionID: option(t, r.Clarification, "infect")}}, emit)
	if err != nil || r.Answer == nil {
		t.Fatalf("answer: %v %+v, want an answer", err, r)
	}
	if want := []string{"text", "assumptions", "sql", "chart", "suggestions", "result", "done"}; len(calls) == 0 || !slices.Equal(calls[len(calls)-1], want) {
		t.Errorf("answering: emitted %v, want the outcome %v in the last call", calls, want)
	}
	// what was emitted is what the store holds, in order
	var emitted []string
	for _, c := range calls {
		emitted = append(emitted, c...)
	}
	stored, err := e.svc.Events(ctx, "ana", r.ConversationID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, ev := range stored[len(stored)-len(emitted):] {
		types = append(types, ev.Type)
	}
	if !slices.Equal(types, emitted) {
		t.Errorf("stored %v, emitted %v", types, emitted)
	}
}
