// Package access decides what a user may see: which sources, and for a
// source whose model has a scope (one patient, one customer), which scope
// values. It holds the operator's rules (config access:) and resolves them
// for one identity; authentication (who the user is) happens before, in
// package auth, and enforcement after, in the engine and the guard, which
// refuse any statement outside the values resolved here.
package access

import (
	"context"
	"fmt"
	"slices"

	"github.com/clarify-sql/clarify/internal/config"
)

// Who is the identity rights are resolved for: the user's name and the
// groups their identity brings (a token's groups claim).
type Who struct {
	User   string
	Groups []string
}

type whoKey struct{}

// WithWho returns ctx carrying who, for the services a request reaches.
func WithWho(ctx context.Context, who Who) context.Context {
	return context.WithValue(ctx, whoKey{}, who)
}

// WhoFrom returns the identity ctx carries, or a user with no groups.
func WhoFrom(ctx context.Context, user string) Who {
	if w, ok := ctx.Value(whoKey{}).(Who); ok && w.User == user {
		return w
	}
	return Who{User: user}
}

// Mapper reads the scope values a mapping table grants a user (package
// source implements it on the source's own database).
type Mapper interface {
	ScopeMapping(ctx context.Context, table, userColumn, valueColumn, user string) ([]string, error)
}

// Policy is the operator's rules. The zero Policy (no rules) lets
// everyone see everything. It is safe for concurrent use.
type Policy struct {
	users  map[string]config.Grant
	groups map[string]config.Grant
}

// New returns the policy of the configured rules.
func New(a config.Access) *Policy {
	p := &Policy{users: map[string]config.Grant{}, groups: map[string]config.Grant{}}
	for _, g := range a.Users {
		p.users[g.Name] = g
	}
	for _, g := range a.Groups {
		p.groups[g.Name] = g
	}
	return p
}

// Restricts reports whether there are rules at all.
func (p *Policy) Restricts() bool {
	return p != nil && (len(p.users) > 0 || len(p.groups) > 0)
}

// grants returns the rules that apply to who: their own and their groups'.
func (p *Policy) grants(who Who) []config.Grant {
	var out []config.Grant
	groups := slices.Clone(who.Groups)
	if g, ok := p.users[who.User]; ok {
		out = append(out, g)
		groups = append(groups, g.Groups...)
	}
	slices.Sort(groups)
	for _, name := range slices.Compact(groups) {
		if g, ok := p.groups[name]; ok {
			out = append(out, g)
		}
	}
	return out
}

// MaySee reports whether who may use source at all.
func (p *Policy) MaySee(who Who, source string) bool {
	if !p.Restricts() {
		return true
	}
	for _, g := range p.grants(who) {
		if gives(g, source) {
			return true
		}
	}
	return false
}

// gives reports whether one rule grants a source: listed in its sources
// ("*" for every source), or, with no sources listed, named in its scope.
func gives(g config.Grant, source string) bool {
	if g.Sources == nil {
		_, ok := g.Scope[source]
		return ok
	}
	return slices.Contains(g.Sources, source) || slices.Contains(g.Sources, "*")
}

// Sources filters names to those who may use.
func (p *Policy) Sources(who Who, names []string) []string {
	var out []string
	for _, n := range names {
		if p.MaySee(who, n) {
			out = append(out, n)
		}
	}
	return out
}

// Scope returns the scope values who may see on source: all reports every
// value (no rules, or a grant of all); otherwise keys lists them, sorted,
// perhaps none. Mapping tables are read through m at each call, so a
// change in the table takes effect at the next turn.
func (p *Policy) Scope(ctx context.Context, who Who, source string, m Mapper) (keys []string, all bool, err error) {
	if !p.Restricts() {
		return nil, true, nil
	}
	for _, g := range p.grants(who) {
		if !gives(g, source) {
			continue
		}
		sg, ok := g.Scope[source]
		if !ok {
			continue
		}
		switch {
		case sg.All:
			return nil, true, nil
		case len(sg.Values) > 0:
			keys = append(keys, sg.Values...)
		case sg.Table != "":
			if m == nil {
				return nil, false, fmt.Errorf("scope of %s for %s: a mapping table needs the source's database", source, g.Name)
			}
			got, err := m.ScopeMapping(ctx, sg.Table, sg.UserColumn, sg.ValueColumn, who.User)
			if err != nil {
				return nil, false, fmt.Errorf("scope of %s for %s: %w", source, g.Name, err)
			}
			keys = append(keys, got...)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys), false, nil
}
