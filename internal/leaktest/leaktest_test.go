package leaktest_test

import (
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/leaktest"
)

// parked blocks until release is closed: a goroutine with a frame whose
// name the test knows.
func parked(started chan<- struct{}, release <-chan struct{}) {
	started <- struct{}{}
	<-release
}

const parkedFrame = "clarify/internal/leaktest_test.parked"

// TestGoroutines: a goroutine is listed while it has a frame in the named
// function, and Gone waits for it to return.
func TestGoroutines(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	go parked(started, release)
	<-started
	if got := leaktest.Goroutines(parkedFrame); len(got) != 1 {
		t.Fatalf("Goroutines(%q) = %d stacks, want the 1 parked goroutine", parkedFrame, len(got))
	}
	if got := leaktest.Goroutines("clarify/internal/leaktest_test.nowhere"); len(got) != 0 {
		t.Errorf("Goroutines of a function nothing runs = %d stacks, want none", len(got))
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(release)
	}()
	leaktest.Gone(t, parkedFrame, "the release")
	if got := leaktest.Goroutines(parkedFrame); len(got) != 0 {
		t.Errorf("Gone returned with %d parked goroutine(s) left", len(got))
	}
}
