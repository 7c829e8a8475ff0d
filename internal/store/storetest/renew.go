package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// testRenew renews leases through two store instances, as a turn's
// heartbeat and another process would: a renewal extends only a lease its
// owner still holds, and never takes back one that was lost.
func testRenew(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	a, b := open(t, dsn), open(t, dsn)
	const short = 50 * time.Millisecond
	expire := func() { time.Sleep(4 * short) }

	steps := []struct {
		name  string
		s     store.Store
		op    string // lock, renew, unlock or expire (let short leases run out)
		owner string
		ttl   time.Duration
		want  bool
	}{
		{"nobody holds it: A cannot renew", a, "renew", "A", time.Hour, false},
		{"renewing took nothing: B takes it", b, "lock", "B", short, true},
		{"B renews for an hour", b, "renew", "B", time.Hour, true},
		{"", nil, "expire", "", 0, false},
		{"B's renewal outlived its first lease: A is refused", a, "lock", "A", time.Hour, false},
		{"A cannot renew B's lease", a, "renew", "A", time.Hour, false},
		{"B renews from the other process, short", a, "renew", "B", short, true},
		{"", nil, "expire", "", 0, false},
		{"B renews its expired lease nobody took", b, "renew", "B", short, true},
		{"", nil, "expire", "", 0, false},
		{"A takes the expired lease", a, "lock", "A", time.Hour, true},
		{"B lost it: its renewal fails", b, "renew", "B", time.Hour, false},
		{"and took nothing back: B is refused", b, "lock", "B", time.Hour, false},
		{"A renews", a, "renew", "A", time.Hour, true},
		{"A releases it", a, "unlock", "A", 0, false},
		{"a released lease is not renewed", a, "renew", "A", time.Hour, false},
		{"nor taken back by renewing: B takes it", b, "lock", "B", time.Hour, true},
	}
	for _, st := range steps {
		var (
			got bool
			err error
		)
		switch st.op {
		case "expire":
			expire()
			continue
		case "unlock":
			if err := st.s.Unlock(ctx, "c1", st.owner); err != nil {
				t.Fatalf("%s: Unlock: %v", st.name, err)
			}
			continue
		case "lock":
			got, err = st.s.Lock(ctx, "c1", st.owner, st.ttl)
		case "renew":
			got, err = st.s.Renew(ctx, "c1", st.owner, st.ttl)
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", st.name, st.op, err)
		}
		if got != st.want {
			t.Fatalf("%s: %s = %v, want %v", st.name, st.op, got, st.want)
		}
	}
	if _, err := a.Renew(ctx, "c1", "B", 0); err == nil {
		t.Error("Renew with a zero ttl succeeded")
	}
	if _, err := a.Renew(ctx, "c1", "", time.Hour); err == nil {
		t.Error("Renew without an owner succeeded")
	}
}
