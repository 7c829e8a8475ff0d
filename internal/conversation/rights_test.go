package conversation_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestRightsPerTurn: rights are read at every turn and every refusal is
// audited — a source the user may not use, a patient they may not see, and
// rights that cannot be read (a mapping table that is not there).
func TestRightsPerTurn(t *testing.T) {
	pol := access.New(config.Access{Users: []config.Grant{
		{Name: "ana", Sources: []string{"labs"}, Scope: map[string]config.ScopeGrant{"labs": {Values: []string{"L1"}}}},
		{Name: "bo", Sources: []string{"labs"}, Scope: map[string]config.ScopeGrant{
			"labs": {Table: "no_such_table", UserColumn: "u", ValueColumn: "v"}}},
	}})
	e := newEnv(t, conversation.Options{Access: pol}, hooks{})
	ctx := context.Background()

	if _, err := e.svc.Ask(ctx, "ana", conversation.Ask{Question: "how many wounds", Source: "clinic"}, nil); apperr.CodeOf(err) != apperr.CodeSourceForbidden {
		t.Errorf("ana on clinic: %v, want %s", err, apperr.CodeSourceForbidden)
	}
	r, err := e.svc.Ask(ctx, "ana", conversation.Ask{Question: "lab results for Maria Rodriguez", Source: "labs"}, nil)
	if err != nil || r.Error == nil || r.Error.Code != apperr.CodeScopeForbidden {
		t.Errorf("ana on Maria: %+v %v, want %s", r, err, apperr.CodeScopeForbidden)
	}
	_, err = e.svc.Ask(ctx, "bo", conversation.Ask{Question: "show my lab results", Source: "labs"}, nil)
	if apperr.CodeOf(err) != apperr.CodeSourceUnavailable {
		t.Errorf("bo with an unreadable mapping: %v, want %s", err, apperr.CodeSourceUnavailable)
	}
	for user, code := range map[string]apperr.Code{"ana": apperr.CodeScopeForbidden, "bo": apperr.CodeSourceUnavailable} {
		recs := auditOf(t, e.svc, user)
		if len(recs) != 1 || recs[0].Outcome != store.AuditFailed || recs[0].ErrorCode != string(code) {
			t.Errorf("%s's audit records: %+v, want one failure %s", user, recs, code)
		}
	}
}
