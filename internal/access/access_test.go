package access_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/config"
)

// mapper is a mapping table held in memory: the unit under test is the
// policy, not the database (source's tests read real mapping tables).
type mapper map[string][]string

func (m mapper) ScopeMapping(_ context.Context, table, userCol, valueCol, user string) ([]string, error) {
	if table != "care_team" || userCol != "clinician" || valueCol != "patient_id" {
		return nil, errors.New("unexpected mapping " + table)
	}
	return m[user], nil
}

func policy() *access.Policy {
	return access.New(config.Access{
		Users: []config.Grant{
			{Name: "alice", Sources: []string{"labs"}, Scope: map[string]config.ScopeGrant{"labs": {Values: []string{"L2", "L1"}}}},
			{Name: "bob", Sources: []string{"labs"}, Scope: map[string]config.ScopeGrant{"labs": {Values: []string{"L3"}}}},
			{Name: "carol", Groups: []string{"ward"}},
			{Name: "dave", Sources: []string{"labs"}}, // labs, but no patient
			{Name: "erin", Sources: []string{"clinic"}, Scope: map[string]config.ScopeGrant{"labs": {All: true}}},
		},
		Groups: []config.Grant{
			{Name: "ward", Sources: []string{"labs", "clinic"}, Scope: map[string]config.ScopeGrant{
				"labs": {Table: "care_team", UserColumn: "clinician", ValueColumn: "patient_id"}}},
			{Name: "auditors", Scope: map[string]config.ScopeGrant{"labs": {All: true}}},
			{Name: "ops", Sources: []string{"*"}},
		},
	})
}

func TestPolicy(t *testing.T) {
	p := policy()
	m := mapper{"carol": {"L3", "L1"}, "zed": {"L1", "L2", "L3"}}
	for _, tc := range []struct {
		who     access.Who
		source  string
		may     bool
		keys    []string
		all     bool
		sources []string
	}{
		{access.Who{User: "alice"}, "labs", true, []string{"L1", "L2"}, false, []string{"labs"}},
		{access.Who{User: "bob"}, "labs", true, []string{"L3"}, false, []string{"labs"}},
		{access.Who{User: "bob"}, "clinic", false, nil, false, []string{"labs"}},
		{access.Who{User: "carol"}, "labs", true, []string{"L1", "L3"}, false, []string{"labs", "clinic"}},
		{access.Who{User: "dave"}, "labs", true, nil, false, []string{"labs"}},
		// a grant for a source the rule does not give is no grant
		{access.Who{User: "erin"}, "labs", false, nil, false, []string{"clinic"}},
		// groups from the identity; a mapping row for a user not in the group grants nothing
		{access.Who{User: "zed"}, "labs", false, nil, false, nil},
		{access.Who{User: "zed", Groups: []string{"ward"}}, "labs", true, []string{"L1", "L2", "L3"}, false, []string{"labs", "clinic"}},
		{access.Who{User: "yan", Groups: []string{"auditors"}}, "labs", true, nil, true, []string{"labs"}},
		{access.Who{User: "ops", Groups: []string{"ops"}}, "trades", true, nil, false, []string{"labs", "clinic", "trades"}},
		{access.Who{User: "nobody"}, "labs", false, nil, false, nil},
	} {
		t.Run(tc.who.User+"/"+tc.source, func(t *testing.T) {
			if got := p.MaySee(tc.who, tc.source); got != tc.may {
				t.Errorf("MaySee = %v, want %v", got, tc.may)
			}
			if got := p.Sources(tc.who, []string{"labs", "clinic", "trades"}); !slices.Equal(got, tc.sources) {
				t.Errorf("Sources = %v, want %v", got, tc.sources)
			}
			keys, all, err := p.Scope(context.Background(), tc.who, tc.source, m)
			if err != nil {
				t.Fatal(err)
			}
			if all != tc.all || !slices.Equal(keys, tc.keys) {
				t.Errorf("Scope = %v all=%v, want %v all=%v", keys, all, tc.keys, tc.all)
			}
		})
	}
}

// TestNoRules: without rules everyone sees everything (the keyless local
// mode, a team sharing all its data).
func TestNoRules(t *testing.T) {
	p := access.New(config.Access{})
	if p.Restricts() || !p.MaySee(access.Who{User: "x"}, "labs") {
		t.Fatal("a policy without rules restricts")
	}
	if _, all, err := p.Scope(context.Background(), access.Who{User: "x"}, "labs", nil); !all || err != nil {
		t.Fatalf("Scope = all %v, %v; want all", all, err)
	}
}

// TestMappingError: a mapping table that cannot be read is an error, never
// a grant of everything.
func TestMappingError(t *testing.T) {
	p := access.New(config.Access{Groups: []config.Grant{{Name: "ward", Scope: map[string]config.ScopeGrant{
		"labs": {Table: "other", UserColumn: "clinician", ValueColumn: "patient_id"}}}}})
	keys, all, err := p.Scope(context.Background(), access.Who{User: "carol", Groups: []string{"ward"}}, "labs", mapper{})
	if err == nil || all || keys != nil {
		t.Fatalf("Scope = %v all=%v err=%v; want an error", keys, all, err)
	}
}

// TestWhoFrom: the identity a context carries is used only for its user.
func TestWhoFrom(t *testing.T) {
	ctx := access.WithWho(context.Background(), access.Who{User: "carol", Groups: []string{"ward"}})
	if w := access.WhoFrom(ctx, "carol"); !slices.Equal(w.Groups, []string{"ward"}) {
		t.Errorf("WhoFrom(carol) = %+v", w)
	}
	if w := access.WhoFrom(ctx, "bob"); w.User != "bob" || w.Groups != nil {
		t.Errorf("WhoFrom(bob) = %+v, want bob without groups", w)
	}
}
