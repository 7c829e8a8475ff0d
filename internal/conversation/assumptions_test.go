package conversation_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestChangeAssumption re-answers with one assumption changed: the answer
// uses the new option and keeps every other choice.
func TestChangeAssumption(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()

	t.Run("assumed", func(t *testing.T) {
		r := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic"))
		if a := assumption(t, r, "vague:large"); a.Chosen != "area_gt_25" {
			t.Fatalf("assumed %s, want area_gt_25", a.Chosen)
		}
		if want := count(t, "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 25"); r.Answer.RowCount != want {
			t.Errorf("%d rows, want %d", r.Answer.RowCount, want)
		}
		c, err := e.svc.ChangeAssumption(ctx, "ana", r.ConversationID, "vague:large", "area_gt_10", nil)
		if err != nil {
			t.Fatal(err)
		}
		if a := assumption(t, c, "vague:large"); c.Status != "answered" || a.Chosen != "area_gt_10" || a.Method != "user" {
			t.Errorf("changed: %s, assumption %+v; want area_gt_10 answered", c.Status, a)
		}
		if want := count(t, "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 10"); c.Answer.RowCount != want {
			t.Errorf("%d rows after the change, want %d", c.Answer.RowCount, want)
		}
		v := get(t, e.svc, "ana", r.ConversationID)
		if v.Status != store.StatusAnswered || v.LastAnswer == nil || v.LastAnswer.RowCount != c.Answer.RowCount {
			t.Errorf("Get after the change: %s %+v", v.Status, v.LastAnswer)
		}
		if last := v.Turns[len(v.Turns)-2]; last.Role != "user" || last.Kind != "change" {
			t.Errorf("the change is not a turn: %+v", v.Turns)
		}
	})

	t.Run("others kept", func(t *testing.T) {
		r := ask(t, e.svc, "bo", conversation.Ask{Question: bigOldWounds})
		answers := map[string]string{"vague:large": "area_gt_50", "vague:old": "older_180_days"}
		for r.Status == "needs_clarification" {
			want, ok := answers[r.Clarification.Slot]
			if !ok {
				t.Fatalf("unexpected clarification %s", r.Clarification.Slot)
			}
			r = choose(t, e.svc, "bo", r, want)
		}
		c, err := e.svc.ChangeAssumption(ctx, "bo", r.ConversationID, "vague:large", "area_gt_10", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Status != "answered" {
			t.Fatalf("changed: %s %+v", c.Status, c.Clarification)
		}
		if a := assumption(t, c, "vague:large"); a.Chosen != "area_gt_10" {
			t.Errorf("vague:large = %s, want area_gt_10", a.Chosen)
		}
		if a := assumption(t, c, "vague:old"); a.Chosen != "older_180_days" || a.Method != "user" {
			t.Errorf("vague:old = %+v, want the user's older_180_days kept", a)
		}
		want := count(t, "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 10 AND created_date < ?", daysAgo(180))
		if c.Answer.RowCount != want {
			t.Errorf("%d rows, want %d (area > 10, older than 180 days)", c.Answer.RowCount, want)
		}
	})

	t.Run("never asks", func(t *testing.T) {
		id := answeredUnasked(t, e, "eve")
		c, err := e.svc.ChangeAssumption(ctx, "eve", id, "vague:large", "area_gt_10", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Status != "answered" {
			t.Fatalf("changed: %s %+v, want an answer, not a question", c.Status, c.Clarification)
		}
		if a := assumption(t, c, "vague:old"); a.Chosen != "older_90_days" {
			t.Errorf("vague:old = %s, want the assumed older_90_days kept", a.Chosen)
		}
		want := count(t, "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 10 AND created_date < ?", daysAgo(90))
		if c.Answer.RowCount != want {
			t.Errorf("%d rows, want %d (area > 10, older than 90 days)", c.Answer.RowCount, want)
		}
	})

	t.Run("refused", func(t *testing.T) {
		answered := ask(t, e.svc, "cy", notInteractive(bigWounds, "clinic")).ConversationID
		awaiting := ask(t, e.svc, "cy", conversation.Ask{Question: severeWounds}).ConversationID
		cases := []struct {
			name, user, id, slot, option string
			code                         apperr.Code
		}{
			{"not an alternative", "cy", answered, "vague:large", "area_gt_99", apperr.CodeBadRequest},
			{"another slot's option", "cy", answered, "vague:large", "older_30_days", apperr.CodeBadRequest},
			{"no option", "cy", answered, "vague:large", "", apperr.CodeBadRequest},
			{"no such assumption", "cy", answered, "vague:old", "older_30_days", apperr.CodeNotFound},
			{"nothing answered yet", "cy", awaiting, "vague:serious", "infected", apperr.CodeBadRequest},
			{"another user", "dee", answered, "vague:large", "area_gt_10", apperr.CodeNotFound},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := e.svc.ChangeAssumption(ctx, tc.user, tc.id, tc.slot, tc.option, nil)
				wantCode(t, err, tc.code)
			})
		}
		v := get(t, e.svc, "cy", answered)
		if a := v.LastAnswer.Assumptions[0]; v.Status != store.StatusAnswered || a.Chosen != "area_gt_25" || len(v.Turns) != 2 {
			t.Errorf("after refused changes: %s, %s, %d turns; want it unchanged", v.Status, a.Chosen, len(v.Turns))
		}
	})
}

// answeredUnasked returns an interactive conversation about big old wounds
// answered while the user had questions switched off, then switched on
// again: running its question again would ask.
func answeredUnasked(t *testing.T, e *env, user string) string {
	t.Helper()
	ctx := context.Background()
	if err := e.svc.SetNeverAsk(ctx, user, true); err != nil {
		t.Fatal(err)
	}
	r := ask(t, e.svc, user, conversation.Ask{Question: bigOldWounds})
	if r.Status != "answered" {
		t.Fatalf("with questions off: %s", r.Status)
	}
	if err := e.svc.SetNeverAsk(ctx, user, false); err != nil {
		t.Fatal(err)
	}
	return r.ConversationID
}
