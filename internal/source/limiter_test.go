package source_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// waitState polls the limiter until f accepts its state (a goroutine
// reaching the queue is not instantaneous); the test's own timeout ends
// a wait that never comes.
func waitState(t *testing.T, l *source.Limiter, f func(running, waiting [2]int) bool) {
	t.Helper()
	for {
		r, w, _ := l.State()
		if f(r, w) {
			return
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

type admitted struct {
	name string
	slot *source.Slot
}

// queue starts a goroutine that waits for a slot for user and reports it
// on got, once it is in the queue (waiting becomes want).
func queue(t *testing.T, ctx context.Context, l *source.Limiter, wg *sync.WaitGroup, got chan<- admitted, name, user, query string, lane, want int) {
	t.Helper()
	wg.Add(1)
	go func() {
		defer wg.Done()
		s, err := l.Acquire(ctx, user, query)
		if err != nil {
			got <- admitted{name: name + ": " + err.Error()}
			return
		}
		got <- admitted{name: name, slot: s}
	}()
	waitState(t, l, func(_, w [2]int) bool { return w[lane] == want })
}

// TestLimiterFairOrder: with one slot held by user a, a queues two more
// statements and b one: b goes first, then a's in their order.
func TestLimiterFairOrder(t *testing.T) {
	l := source.NewLimiter(source.Concurrency{Max: 1}, model.Postgres)
	ctx := context.Background()
	first, err := l.Acquire(ctx, "a", "q")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan admitted)
	var wg sync.WaitGroup
	queue(t, ctx, l, &wg, got, "a2", "a", "q", 0, 1)
	queue(t, ctx, l, &wg, got, "a3", "a", "q", 0, 2)
	queue(t, ctx, l, &wg, got, "b1", "b", "q", 0, 3)
	first.Release(time.Millisecond, true)
	var order []string
	for range 3 {
		a := <-got
		order = append(order, a.name)
		if a.slot != nil {
			a.slot.Release(time.Millisecond, true)
		}
	}
	wg.Wait()
	if diff := cmp.Diff([]string{"b1", "a2", "a3"}, order); diff != "" {
		t.Errorf("admission order (-want +got):\n%s", diff)
	}
	if r, w, u := l.State(); r != [2]int{} || w != [2]int{} || u != [2]int{} {
		t.Errorf("after all releases: running %v, waiting %v, users %v; want none", r, w, u)
	}
}

// TestLimiterFewestRunningFirst: a user with nothing running goes before
// users who have statements running, whoever queued first.
func TestLimiterFewestRunningFirst(t *testing.T) {
	l := source.NewLimiter(source.Concurrency{Max: 2}, model.Postgres)
	ctx := context.Background()
	a1, _ := l.Acquire(ctx, "a", "q")
	b1, _ := l.Acquire(ctx, "b", "q")
	got := make(chan admitted)
	var wg sync.WaitGroup
	queue(t, ctx, l, &wg, got, "a2", "a", "q", 0, 1)
	queue(t, ctx, l, &wg, got, "c1", "c", "q", 0, 2)
	b1.Release(time.Millisecond, true) // a still runs one: c goes first
	first := <-got
	a1.Release(time.Millisecond, true)
	second := <-got
	for _, a := range []admitted{first, second} {
		if a.slot != nil {
			a.slot.Release(time.Millisecond, true)
		}
	}
	wg.Wait()
	if first.name != "c1" || second.name != "a2" {
		t.Errorf("order %s, %s; want c1, a2", first.name, second.name)
	}
}

// TestLimiterCap: no more than Max statements run; the next waits until
// one is released.
func TestLimiterCap(t *testing.T) {
	for _, max := range []int{1, 3} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			l := source.NewLimiter(source.Concurrency{Max: max}, model.Postgres)
			ctx := context.Background()
			var held []*source.Slot
			for i := range max {
				s, err := l.Acquire(ctx, fmt.Sprint("u", i), "q")
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, s)
			}
			got := make(chan admitted, 1)
			var wg sync.WaitGroup
			queue(t, ctx, l, &wg, got, "extra", "x", "q", 0, 1)
			if r, _, _ := l.State(); r[0] != max {
				t.Errorf("running %d, want %d", r[0], max)
			}
			select {
			case a := <-got:
				t.Fatalf("%s was admitted over the cap", a.name)
			default:
			}
			held[0].Release(time.Millisecond, true)
			a := <-got
			if a.slot == nil {
				t.Fatalf("not admitted after a release: %s", a.name)
			}
			a.slot.Release(time.Millisecond, true)
			for _, s := range held[1:] {
				s.Release(time.Millisecond, true)
			}
			wg.Wait()
		})
	}
}

// TestLimiterHeavyLane: once a shape has run long, its statements wait
// in their own lane while ordinary statements are admitted at once.
func TestLimiterHeavyLane(t *testing.T) {
	l := source.NewLimiter(source.Concurrency{Max: 1, Heavy: 1, HeavyAfter: time.Second}, model.Postgres)
	ctx := context.Background()
	const heavy = "SELECT count(*) FROM a, b"
	s, err := l.Acquire(ctx, "h", heavy)
	if err != nil {
		t.Fatal(err)
	}
	s.Release(5*time.Second, true) // learned: this shape is heavy
	running, err := l.Acquire(ctx, "h", heavy)
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := l.State(); r != [2]int{0, 1} {
		t.Fatalf("running %v, want the heavy statement in the heavy lane", r)
	}
	got := make(chan admitted, 1)
	var wg sync.WaitGroup
	queue(t, ctx, l, &wg, got, "h2", "h2", heavy, 1, 1)
	light, err := l.Acquire(ctx, "l", "SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	if r, w, _ := l.State(); r != [2]int{1, 1} || w != [2]int{0, 1} {
		t.Errorf("running %v, waiting %v; want one of each running and a heavy one waiting", r, w)
	}
	light.Release(time.Millisecond, true)
	running.Release(5*time.Second, false)
	a := <-got
	a.slot.Release(time.Millisecond, false)
	wg.Wait()
	// a statement that did not complete teaches nothing: still heavy
	s, err = l.Acquire(ctx, "h", heavy)
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := l.State(); r != [2]int{0, 1} {
		t.Errorf("running %v, want the heavy lane", r)
	}
	s.Release(0, true)
}

// TestLimiterCancelReleases: a statement whose context ends while it
// waits leaves the queue, and takes no slot.
func TestLimiterCancelReleases(t *testing.T) {
	l := source.NewLimiter(source.Concurrency{Max: 1}, model.Postgres)
	s, err := l.Acquire(context.Background(), "a", "q")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan admitted, 1)
	var wg sync.WaitGroup
	queue(t, ctx, l, &wg, got, "b", "b", "q", 0, 1)
	cancel()
	a := <-got
	wg.Wait()
	if a.slot != nil || a.name != "b: "+context.Canceled.Error() {
		t.Errorf("got %q, want the cancellation", a.name)
	}
	s.Release(time.Millisecond, true)
	if r, w, u := l.State(); r != [2]int{} || w != [2]int{} || u != [2]int{} {
		t.Errorf("running %v, waiting %v, users %v; want none", r, w, u)
	}
	if _, err := l.Acquire(ctx, "c", "q"); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled context was admitted: %v", err)
	}
}

// TestLimiterNoLeaks: many statements of several users, some canceled
// while they wait: every one returns, and the limiter ends empty with no
// goroutine of its own left.
func TestLimiterNoLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	l := source.NewLimiter(source.Concurrency{Max: 2, Heavy: 1, HeavyAfter: time.Millisecond}, model.Postgres)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			switch i % 3 {
			case 0:
				cancel()
			case 1: // canceled while it waits, or about to
				wg.Add(1)
				go func() {
					defer wg.Done()
					runtime.Gosched()
					cancel()
				}()
			}
			s, err := l.Acquire(ctx, fmt.Sprint("u", i%7), fmt.Sprint("q", i%5))
			if err != nil {
				return
			}
			runtime.Gosched()
			s.Release(time.Duration(i%4)*time.Millisecond, true)
		}()
	}
	wg.Wait()
	if r, w, u := l.State(); r != [2]int{} || w != [2]int{} || u != [2]int{} {
		t.Errorf("running %v, waiting %v, users %v; want none", r, w, u)
	}
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 1000 {
			t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLimiterOff: a negative Max turns admission off.
func TestLimiterOff(t *testing.T) {
	if l := source.NewLimiter(source.Concurrency{Max: -1}, model.Postgres); l != nil {
		t.Error("a negative Max left a limiter")
	}
}

// TestConfiguredConcurrency: YAML's nil is the default, 0 turns a cap off.
func TestConfiguredConcurrency(t *testing.T) {
	zero, two := 0, 2
	for _, tc := range []struct {
		name       string
		max, heavy *int
		want       source.Concurrency
	}{
		{"defaults", nil, nil, source.Concurrency{}},
		{"off", &zero, &zero, source.Concurrency{Max: -1, Heavy: -1}},
		{"caps", &two, &two, source.Concurrency{Max: 2, Heavy: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, source.ConfiguredConcurrency(tc.max, tc.heavy, 0)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
