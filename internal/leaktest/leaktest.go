package leaktest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Goroutines returns the stacks of the goroutines that have a frame in a
// function whose qualified name contains fn, such as
// "clarify/internal/source." for a package or
// "clarify/internal/server.(*Server).Shutdown" for one method. It may be
// called from any goroutine.
func Goroutines(fn string) []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, fn) {
			out = append(out, g)
		}
	}
	return out
}

// patience is how long Gone waits for goroutines to finish returning.
const patience = 20 * time.Second

// Gone fails t, naming them, if goroutines with a frame in fn (as
// Goroutines reads it) are still there a generous while after owner (what
// the failure calls the code that should have stopped them) said it had
// stopped them. It polls: a goroutine that has told its owner it is done
// may still be returning. It must be called from the test's goroutine.
func Gone(t testing.TB, fn, owner string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		left := Goroutines(fn)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutine(s) in %s outlived %s:\n\n%s", len(left), fn, owner, strings.Join(left, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
