package conversation_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestLetMeChooseScope: a user who switched questions off, or asked
// without them, is not left at SCOPE_REQUIRED: asked with ask_scope, the
// question asks whose data it is about (and nothing else), and the
// answer follows.
func TestLetMeChooseScope(t *testing.T) {
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	for name, setup := range map[string]func(user string) conversation.Ask{
		"never ask me": func(user string) conversation.Ask {
			if err := e.svc.SetNeverAsk(ctx, user, true); err != nil {
				t.Fatal(err)
			}
			return conversation.Ask{Question: myFerritin, Source: "labs"}
		},
		"not interactive": func(string) conversation.Ask { return notInteractive(myFerritin, "labs") },
	} {
		t.Run(name, func(t *testing.T) {
			user := "u-" + name
			a := setup(user)
			if r, err := e.svc.Ask(ctx, user, a, nil); err == nil && r.Status != "failed" {
				t.Fatalf("without ask_scope: %s, want SCOPE_REQUIRED", r.Status)
			}
			a.AskScope = true
			r := ask(t, e.svc, user, a)
			if r.Clarification == nil || r.Clarification.Kind != understand.KindScope {
				t.Fatalf("with ask_scope: %s %+v, want the scope question", r.Status, r.Clarification)
			}
			r = choose(t, e.svc, user, r, "Ivan")
			if r.Status != "answered" || r.Answer == nil {
				t.Fatalf("after choosing the patient: %s, want an answer with nothing else asked", r.Status)
			}
		})
	}
}
