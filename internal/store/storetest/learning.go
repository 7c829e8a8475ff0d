package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
)

// testLeases takes leases through two store instances, as two processes.
func testLeases(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	a, b := open(t, dsn), open(t, dsn)
	mustCreate(t, a, conversation("c1"))

	steps := []struct {
		name  string
		s     store.Store
		op    string // lock or unlock
		owner string
		want  bool
	}{
		{"A takes it", a, "lock", "A", true},
		{"B is refused", b, "lock", "B", false},
		{"A extends it", a, "lock", "A", true},
		{"A extends it from the other process", b, "lock", "A", true},
		{"B is still refused", b, "lock", "B", false},
		{"B cannot release A's lease", b, "unlock", "B", false},
		{"so B is still refused", b, "lock", "B", false},
		{"A releases it", a, "unlock", "A", false},
		{"B takes it", b, "lock", "B", true},
		{"A is refused", a, "lock", "A", false},
		{"B releases it", b, "unlock", "B", false},
		{"B releases it again", b, "unlock", "B", false},
		{"A takes it back", a, "lock", "A", true},
	}
	for _, st := range steps {
		if st.op == "unlock" {
			if err := st.s.Unlock(ctx, "c1", st.owner); err != nil {
				t.Fatalf("%s: Unlock: %v", st.name, err)
			}
			continue
		}
		got, err := st.s.Lock(ctx, "c1", st.owner, time.Hour)
		if err != nil {
			t.Fatalf("%s: Lock: %v", st.name, err)
		}
		if got != st.want {
			t.Fatalf("%s: Lock = %v, want %v", st.name, got, st.want)
		}
	}
	// Leases are per conversation.
	if ok, err := b.Lock(ctx, "c2", "B", time.Hour); err != nil || !ok {
		t.Errorf("Lock of another conversation = %v, %v", ok, err)
	}
	if _, err := a.Lock(ctx, "c1", "A", 0); err == nil {
		t.Error("Lock with a zero ttl succeeded")
	}
	if _, err := a.Lock(ctx, "c1", "", time.Hour); err == nil {
		t.Error("Lock without an owner succeeded")
	}
}

// testLeaseExpiry lets a short lease run out: another owner may then take
// it, and the first owner is refused.
func testLeaseExpiry(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	a, b := open(t, dsn), open(t, dsn)
	const ttl = 50 * time.Millisecond
	if ok, err := a.Lock(ctx, "c1", "A", ttl); err != nil || !ok {
		t.Fatalf("Lock A = %v, %v", ok, err)
	}
	time.Sleep(4 * ttl)
	if ok, err := b.Lock(ctx, "c1", "B", time.Hour); err != nil || !ok {
		t.Fatalf("Lock B after A's lease expired = %v, %v; want true", ok, err)
	}
	if ok, err := a.Lock(ctx, "c1", "A", time.Hour); err != nil || ok {
		t.Fatalf("Lock A after B took the lease = %v, %v; want false", ok, err)
	}
	// A's late unlock does not release B's lease.
	if err := a.Unlock(ctx, "c1", "A"); err != nil {
		t.Fatal(err)
	}
	if ok, err := a.Lock(ctx, "c1", "A", time.Hour); err != nil || ok {
		t.Fatalf("Lock A after its late unlock = %v, %v; want false", ok, err)
	}
}

func testPreferences(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	answers := []store.Answer{
		// clinic/severity: "serious" 3 times, "all" once → serious, 3.
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious", At: at(1)},
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "all", At: at(2)},
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious", At: at(3)},
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious", At: at(4)},
		// clinic/window: a tie of two each; "last_week" was given last.
		{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_week", At: at(1)},
		{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_month", At: at(2)},
		{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_month", At: at(3)},
		{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_week", At: at(9)},
		// clinic/metric: a tie at the same instant: the later recorded wins.
		{UserID: "u1", Source: "clinic", Slot: "metric", Value: "count", At: at(5)},
		{UserID: "u1", Source: "clinic", Slot: "metric", Value: "text:visits", At: at(5)},
		// lab/severity: the same slot key in another source.
		{UserID: "u1", Source: "lab", Slot: "severity", Value: "high", At: at(6)},
		// Another user's answers never show.
		{UserID: "u2", Source: "clinic", Slot: "severity", Value: "all", At: at(7)},
		{UserID: "u2", Source: "clinic", Slot: "severity", Value: "all", At: at(8)},
		{UserID: "u2", Source: "clinic", Slot: "severity", Value: "all", At: at(9)},
		{UserID: "u2", Source: "clinic", Slot: "severity", Value: "all", At: at(10)},
	}
	for _, a := range answers {
		if err := s.RecordAnswer(ctx, a); err != nil {
			t.Fatalf("RecordAnswer(%+v): %v", a, err)
		}
	}
	utc := func(tm time.Time) time.Time { return tm.UTC().Truncate(time.Microsecond) }
	clinic := []store.Preference{
		{UserID: "u1", Source: "clinic", Slot: "metric", Value: "text:visits", Count: 1, UpdatedAt: utc(at(5))},
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious", Count: 3, UpdatedAt: utc(at(4))},
		{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_week", Count: 2, UpdatedAt: utc(at(9))},
	}
	lab := []store.Preference{
		{UserID: "u1", Source: "lab", Slot: "severity", Value: "high", Count: 1, UpdatedAt: utc(at(6))},
	}
	tests := []struct {
		name, user, source string
		want               []store.Preference
	}{
		{"one source", "u1", "clinic", clinic},
		{"other source", "u1", "lab", lab},
		{"all sources", "u1", "", append(append([]store.Preference{}, clinic...), lab...)},
		{"unknown source", "u1", "shop", []store.Preference{}},
		{"unknown user", "u3", "", []store.Preference{}},
		{"other user", "u2", "", []store.Preference{
			{UserID: "u2", Source: "clinic", Slot: "severity", Value: "all", Count: 4, UpdatedAt: utc(at(10))},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Preferences(ctx, tc.user, tc.source)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				got = []store.Preference{}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Preferences(%q, %q) (-want +got):\n%s", tc.user, tc.source, diff)
			}
		})
	}
	if err := s.RecordAnswer(ctx, store.Answer{UserID: "u1", Slot: "severity"}); err == nil {
		t.Error("RecordAnswer without a value succeeded")
	}
}

func testPreferencesRemember(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	record := func(value string, remember bool, min int) {
		t.Helper()
		a := store.Answer{UserID: "u1", Source: "clinic", Slot: "severity", Value: value,
			Remember: remember, At: t0.Add(time.Duration(min) * time.Minute)}
		if err := s.RecordAnswer(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	prefs := func() store.Preference {
		t.Helper()
		ps, err := s.Preferences(ctx, "u1", "clinic")
		if err != nil || len(ps) != 1 {
			t.Fatalf("Preferences = %+v, %v; want one", ps, err)
		}
		return ps[0]
	}
	record("serious", false, 1)
	record("serious", false, 2)
	record("all", true, 3) // remembered: wins over the more frequent value
	want := store.Preference{UserID: "u1", Source: "clinic", Slot: "severity", Value: "all",
		Remember: true, Count: 1, UpdatedAt: t0.Add(3 * time.Minute).UTC().Truncate(time.Microsecond)}
	if diff := cmp.Diff(want, prefs()); diff != "" {
		t.Errorf("after remember (-want +got):\n%s", diff)
	}
	record("serious", false, 4) // later answers without remember keep the remembered value
	if got := prefs(); got.Value != "all" || !got.Remember {
		t.Errorf("after a later plain answer: %+v, want the remembered value", got)
	}
	record("minor", true, 5) // a new remembered value replaces the old one
	if got := prefs(); got.Value != "minor" || !got.Remember || got.Count != 1 {
		t.Errorf("after remembering another value: %+v", got)
	}
}

func testForgetPreference(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	for _, a := range []store.Answer{
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious", Remember: true},
		{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious"},
		{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_month"},
		{UserID: "u1", Source: "lab", Slot: "severity", Value: "high"},
		{UserID: "u1", Source: "lab", Slot: "window", Value: "last_week"},
		{UserID: "u2", Source: "clinic", Slot: "severity", Value: "all", Remember: true},
	} {
		if err := s.RecordAnswer(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	slots := func(user string) []string {
		t.Helper()
		ps, err := s.Preferences(ctx, user, "")
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, p := range ps {
			out = append(out, p.Source+"/"+p.Slot)
		}
		return out
	}
	if err := s.ForgetPreference(ctx, "u1", "clinic", "severity"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"clinic/window", "lab/severity", "lab/window"}, slots("u1")); diff != "" {
		t.Errorf("after forgetting clinic/severity (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"clinic/severity"}, slots("u2")); diff != "" {
		t.Errorf("forgetting touched another user (-want +got):\n%s", diff)
	}
	// After forgetting, counting starts again from zero.
	if err := s.RecordAnswer(ctx, store.Answer{UserID: "u1", Source: "clinic", Slot: "severity", Value: "all"}); err != nil {
		t.Fatal(err)
	}
	ps, err := s.Preferences(ctx, "u1", "clinic")
	if err != nil || len(ps) != 2 || ps[0].Slot != "severity" || ps[0].Value != "all" || ps[0].Count != 1 || ps[0].Remember {
		t.Errorf("after forgetting and answering again: %+v, %v", ps, err)
	}
	// An empty source forgets the slot in every source.
	if err := s.ForgetPreference(ctx, "u1", "", "window"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"clinic/severity", "lab/severity"}, slots("u1")); diff != "" {
		t.Errorf("after forgetting window everywhere (-want +got):\n%s", diff)
	}
	if err := s.ForgetPreference(ctx, "u1", "clinic", "nothing"); err != nil {
		t.Errorf("forgetting a slot never answered: %v", err)
	}
}

func testNeverAsk(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	steps := []struct {
		user string
		set  *bool
		want bool
	}{
		{"u1", nil, false},
		{"u1", ptr(true), true},
		{"u2", nil, false},
		{"u1", ptr(true), true},
		{"u1", ptr(false), false},
		{"u2", ptr(true), true},
		{"u1", nil, false},
	}
	for i, st := range steps {
		if st.set != nil {
			if err := s.SetNeverAsk(ctx, st.user, *st.set); err != nil {
				t.Fatalf("step %d: SetNeverAsk: %v", i, err)
			}
		}
		got, err := s.NeverAsk(ctx, st.user)
		if err != nil || got != st.want {
			t.Fatalf("step %d: NeverAsk(%s) = %v, %v; want %v", i, st.user, got, err, st.want)
		}
		// Learned reads the same switch
		l, err := s.Learned(ctx, st.user, "")
		if err != nil || l.NeverAsk != st.want {
			t.Fatalf("step %d: Learned(%s).NeverAsk = %v, %v; want %v", i, st.user, l.NeverAsk, err, st.want)
		}
	}
}

// testLearned: Learned returns the preferences Preferences returns, with
// the user's switch, for one source or all.
func testLearned(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	for _, a := range []store.Answer{
		{UserID: "u1", Source: "clinic", Slot: "size", Value: "opt:large"},
		{UserID: "u1", Source: "clinic", Slot: "size", Value: "opt:large"},
		{UserID: "u1", Source: "clinic", Slot: "size", Value: "opt:small", Remember: true},
		{UserID: "u1", Source: "labs", Slot: "when", Value: "opt:week"},
		{UserID: "u2", Source: "clinic", Slot: "size", Value: "opt:huge"},
	} {
		if err := s.RecordAnswer(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetNeverAsk(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	for _, source := range []string{"clinic", ""} {
		want, err := s.Preferences(ctx, "u1", source)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Learned(ctx, "u1", source)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(store.Learned{NeverAsk: true, Preferences: want}, got); diff != "" {
			t.Errorf("Learned(u1, %q) (-want +got):\n%s", source, diff)
		}
		if len(want) == 0 || want[0].Value != "opt:small" || !want[0].Remember || want[0].Count != 1 {
			t.Errorf("preferences of %q = %+v; want the remembered small first, given once", source, want)
		}
	}
	if got, err := s.Learned(ctx, "u3", ""); err != nil || got.NeverAsk || len(got.Preferences) != 0 {
		t.Errorf("Learned of a user with nothing = %+v, %v; want nothing", got, err)
	}
}

func ptr[T any](v T) *T { return &v }
