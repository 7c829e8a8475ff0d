package conversation_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/understand"
)

// learnedAnswer is one answer to the old-wounds question.
type learnedAnswer struct {
	option   string
	skip     bool
	remember bool
}

// answerOld asks the old-wounds question and answers its clarification.
func answerOld(t *testing.T, svc *conversation.Service, user string, a learnedAnswer) {
	t.Helper()
	r := ask(t, svc, user, conversation.Ask{Question: oldByClinic})
	if r.Status != "needs_clarification" || r.Clarification.Slot != "vague:old" {
		t.Fatalf("%s was not asked about vague:old: %s %+v", user, r.Status, r.Answer)
	}
	ans := &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: a.option, Skipped: a.skip, Remember: a.remember}
	if res := send(t, svc, user, r.ConversationID, conversation.Message{Answer: ans}); res.Status != "answered" {
		t.Fatalf("answer: %s", res.Status)
	}
}

// wantLearned asks the old-wounds question once more: with option set it
// must be answered at once with that option as the user's usual choice,
// else the user must be asked.
func wantLearned(t *testing.T, svc *conversation.Service, user, option string) {
	t.Helper()
	r := ask(t, svc, user, conversation.Ask{Question: oldByClinic})
	if option == "" {
		if r.Status != "needs_clarification" || r.Clarification.Slot != "vague:old" {
			t.Errorf("%s was not asked about vague:old: %s", user, r.Status)
		}
		return
	}
	if r.Status != "answered" {
		t.Fatalf("%s was asked again (%+v), want %s applied as the usual choice", user, r.Clarification, option)
	}
	a := assumption(t, r, "vague:old")
	if a.Chosen != option || a.Method != "preference" || a.Why != "your usual choice" || a.Confidence != 0.9 {
		t.Errorf("assumption %+v, want %s by preference at 0.9 as \"your usual choice\"", a, option)
	}
}

// TestUsualChoice: the same answer three times, or one remembered answer,
// is applied next time without asking; anything less is asked again.
func TestUsualChoice(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	cases := []struct {
		name    string
		answers []learnedAnswer // one conversation each
		want    string          // applied next time; "" when asked
	}{
		{"three identical", []learnedAnswer{{option: "older_180_days"}, {option: "older_180_days"}, {option: "older_180_days"}}, "older_180_days"},
		{"two identical", []learnedAnswer{{option: "older_180_days"}, {option: "older_180_days"}}, ""},
		{"three mixed", []learnedAnswer{{option: "older_180_days"}, {option: "older_30_days"}, {option: "older_180_days"}}, ""},
		{"remembered", []learnedAnswer{{option: "older_30_days", remember: true}}, "older_30_days"},
		{"skipped", []learnedAnswer{{skip: true}, {skip: true}, {skip: true}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			user := "u-" + tc.name
			for _, a := range tc.answers {
				answerOld(t, e.svc, user, a) // each one is asked
			}
			wantLearned(t, e.svc, user, tc.want)
		})
	}
}

// TestForget: a learned choice belongs to its user, is listed, and once
// forgotten is asked again.
func TestForget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	for range 3 {
		answerOld(t, e.svc, "ana", learnedAnswer{option: "older_180_days"})
	}
	wantLearned(t, e.svc, "ana", "older_180_days")
	wantLearned(t, e.svc, "bo", "") // another user is still asked

	// only the learned slot is left out: the other one is still asked
	r := ask(t, e.svc, "ana", conversation.Ask{Question: bigOldWounds})
	if r.Status != "needs_clarification" || r.Clarification.Slot != "vague:large" {
		t.Fatalf("big old wounds: %s %+v, want vague:large asked", r.Status, r.Clarification)
	}
	r = choose(t, e.svc, "ana", r, "area_gt_50")
	if a := assumption(t, r, "vague:old"); r.Status != "answered" || a.Chosen != "older_180_days" || a.Method != "preference" {
		t.Errorf("big old wounds: %s, vague:old %+v; want the usual choice applied", r.Status, a)
	}

	prefs, err := e.svc.Preferences(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	var key string
	for _, p := range prefs {
		if p.Slot == "vague:old" {
			key = p.Key
			if p.Source != "clinic" || p.Value != "opt:older_180_days" || p.Count != 3 || !p.Applied || p.Remember {
				t.Errorf("preference %+v, want older_180_days three times, applied", p)
			}
		}
	}
	if key != "clinic/vague:old" {
		t.Fatalf("preferences %+v lack clinic/vague:old", prefs)
	}
	wantCode(t, e.svc.Forget(ctx, "ana", "vague:old"), apperr.CodeBadRequest)
	if err := e.svc.Forget(ctx, "bo", key); err != nil { // bo's forgetting does not touch ana's
		t.Fatal(err)
	}
	wantLearned(t, e.svc, "ana", "older_180_days")
	if err := e.svc.Forget(ctx, "ana", key); err != nil {
		t.Fatal(err)
	}
	wantLearned(t, e.svc, "ana", "")
}

// TestRememberAppliesNextTime: remember=true takes effect from the next
// conversation.
func TestRememberAppliesNextTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	wantLearned(t, e.svc, "ana", "")
	answerOld(t, e.svc, "ana", learnedAnswer{option: "older_30_days", remember: true})
	wantLearned(t, e.svc, "ana", "older_30_days")
}

// TestScopeNeverLearned: who a question is about is asked every time, even
// after the same answer three times and a "remember"; the format answered
// alongside it is learned.
func TestScopeNeverLearned(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	scopeAnswers := []conversation.Answer{
		{OptionID: "L3", Remember: true},
		{FreeText: "Maria"},
		{OptionID: "L3"},
	}
	for i, sa := range scopeAnswers {
		r := ask(t, e.svc, "sam", conversation.Ask{Question: myFerritin, Source: "labs"})
		if r.Status != "needs_clarification" || r.Clarification.Kind != understand.KindScope {
			t.Fatalf("conversation %d: %s %+v, want the scope asked", i+1, r.Status, r.Clarification)
		}
		sa.ClarificationID = r.Clarification.ID
		r = send(t, e.svc, "sam", r.ConversationID, conversation.Message{Answer: &sa})
		if r.Status != "needs_clarification" || r.Clarification.Kind != understand.KindFormat {
			t.Fatalf("conversation %d: %s %+v, want the format asked", i+1, r.Status, r.Clarification)
		}
		if r = choose(t, e.svc, "sam", r, "table"); r.Status != "answered" || assumption(t, r, "scope").Chosen != "L3" {
			t.Fatalf("conversation %d: %s", i+1, r.Status)
		}
	}
	r := ask(t, e.svc, "sam", conversation.Ask{Question: myFerritin, Source: "labs"})
	if r.Status != "needs_clarification" || r.Clarification.Kind != understand.KindScope {
		t.Fatalf("after three identical scope answers: %s %+v, want the scope asked again", r.Status, r.Clarification)
	}
	r = choose(t, e.svc, "sam", r, "L3")
	if a := assumption(t, r, "format"); r.Status != "answered" || a.Method != "preference" || a.Chosen != "table" {
		t.Errorf("format: %s %+v, want the usual table", r.Status, a)
	}
	prefs, err := e.svc.Preferences(ctx, "sam")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prefs {
		if p.Slot == "scope" {
			t.Errorf("the scope is listed as a preference: %+v", p)
		}
	}
	if len(prefs) != 1 || prefs[0].Key != "labs/format" {
		t.Errorf("preferences %+v, want labs/format only", prefs)
	}
}

// TestNeverAsk: a user who switched questions off gets answers at once.
func TestNeverAsk(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	if err := e.svc.SetNeverAsk(ctx, "ana", true); err != nil {
		t.Fatal(err)
	}
	if never, err := e.svc.NeverAsk(ctx, "ana"); err != nil || !never {
		t.Fatalf("NeverAsk = %v, %v", never, err)
	}
	r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	if a := assumption(t, r, "vague:serious"); r.Status != "answered" || a.Method == "user" || a.Chosen != "full_thickness" {
		t.Errorf("never ask: %s %+v, want the best guess assumed", r.Status, a)
	}
	if r := ask(t, e.svc, "bo", conversation.Ask{Question: severeWounds}); r.Status != "needs_clarification" {
		t.Errorf("another user was not asked: %s", r.Status)
	}
	if err := e.svc.SetNeverAsk(ctx, "ana", false); err != nil {
		t.Fatal(err)
	}
	if r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds}); r.Status != "needs_clarification" {
		t.Errorf("after switching questions back on: %s", r.Status)
	}
}
