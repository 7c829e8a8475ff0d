package source

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestKeptPlan: a connection's set prepares a text it has not run, runs
// one it has, deallocates the least recently used past maxKept, and
// changes only when a batch ended cleanly (commit).
func TestKeptPlan(t *testing.T) {
	k := newKept()
	sd := &pgconn.StatementDescription{ParamOIDs: []uint32{23}}
	text := func(i int) string { return fmt.Sprintf("SELECT %d", i) }

	name := func(i int) string { return fmt.Sprintf("%s%d", k.prefix, i) }
	p := k.plan(text(0), sd)
	if !p.prepare || p.evict != "" || p.sd.Name != name(0) || p.sd.SQL != text(0) {
		t.Fatalf("first text: %+v", p)
	}
	if sd.Name != "" {
		t.Fatal("the plan named the pool's description")
	}
	// a batch that failed: nothing kept, the same name next time
	if again := k.plan(text(0), sd); !again.prepare || again.sd.Name != name(0) {
		t.Fatalf("after a failed batch: %+v", again)
	}
	k.commit(p)
	if !k.reset {
		t.Error("a clean batch prepared the reset statement")
	}
	if again := k.plan(text(0), sd); again.prepare || again.sd.Name != name(0) {
		t.Fatalf("a kept text: %+v", again)
	}
	for i := 1; i < maxKept; i++ {
		k.commit(k.plan(text(i), sd))
	}
	// text 0 used again: text 1 is now the least recently used
	k.commit(k.plan(text(0), sd))
	p = k.plan(text(maxKept), sd)
	if !p.prepare || p.evict != name(1) || p.sd.Name != name(maxKept) {
		t.Fatalf("past the bound: %+v", p)
	}
	k.commit(p)
	if _, ok := k.byText[text(1)]; ok || k.order.Len() != maxKept {
		t.Errorf("after the eviction: text 1 kept %v, %d kept", ok, k.order.Len())
	}
	if again := k.plan(text(1), sd); !again.prepare {
		t.Errorf("an evicted text is prepared again: %+v", again)
	}
}

// TestKeptNames: the names of two connections' sets never meet (through
// a pooler in transaction mode, one connection's Bind could otherwise
// run another's statement), and a set names what it holds.
func TestKeptNames(t *testing.T) {
	a, b := newKept(), newKept()
	if a.prefix == b.prefix || !strings.HasPrefix(a.prefix, "clarify_") || len(a.prefix) != len("clarify_")+16+1 {
		t.Fatalf("prefixes %q and %q", a.prefix, b.prefix)
	}
	if a.resetName() == b.resetName() {
		t.Fatalf("both reset statements are named %q", a.resetName())
	}
	sd := &pgconn.StatementDescription{}
	if got := a.names(); len(got) != 0 {
		t.Fatalf("an empty set names %v", got)
	}
	a.commit(a.plan("SELECT 1", sd))
	a.commit(a.plan("SELECT 2", sd))
	if got, want := a.names(), []string{a.resetName(), a.prefix + "1", a.prefix + "0"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
}

// TestSameShape: a statement prepared on a connection matches the pool's
// description unless a parameter's or a column's type, or a column's name,
// or their number differs.
func TestSameShape(t *testing.T) {
	base := func() *pgconn.StatementDescription {
		return &pgconn.StatementDescription{
			ParamOIDs: []uint32{23, 25},
			Fields:    []pgconn.FieldDescription{{Name: "id", DataTypeOID: 23}, {Name: "name", DataTypeOID: 25}},
		}
	}
	for _, tc := range []struct {
		name   string
		change func(*pgconn.StatementDescription)
		same   bool
	}{
		{"same", func(*pgconn.StatementDescription) {}, true},
		{"other name of statement", func(d *pgconn.StatementDescription) { d.Name = "clarify_3" }, true},
		{"parameter type", func(d *pgconn.StatementDescription) { d.ParamOIDs[0] = 20 }, false},
		{"one parameter fewer", func(d *pgconn.StatementDescription) { d.ParamOIDs = d.ParamOIDs[:1] }, false},
		{"column type", func(d *pgconn.StatementDescription) { d.Fields[0].DataTypeOID = 25 }, false},
		{"column renamed", func(d *pgconn.StatementDescription) { d.Fields[1].Name = "title" }, false},
		{"column added", func(d *pgconn.StatementDescription) {
			d.Fields = append(d.Fields, pgconn.FieldDescription{Name: "x", DataTypeOID: 23})
		}, false},
	} {
		d := base()
		tc.change(d)
		if got := sameShape(d, base()); got != tc.same {
			t.Errorf("%s: sameShape %v, want %v", tc.name, got, tc.same)
		}
	}
}
