package source_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/source"
)

// TestKeeperKeepsAConnectionBetweenQuestions: on PostgreSQL the statement
// pool keeps the connection a question used open across a pause longer
// than its idle time, so the next question runs on the same server
// process (no new connection, no new process's first statement); without
// the keeper the pause closes it. Past keepFor after the last statement
// the pool lets it go.
func TestKeeperKeepsAConnectionBetweenQuestions(t *testing.T) {
	// database/sql closes idle connections at most once a second. The
	// keeper pings every idle/2: a ping later than that (a loaded machine,
	// the race detector) loses the connection, so idle is not the
	// smallest the test could use (500 ms failed once in CI).
	const idle = 1500 * time.Millisecond
	backend := func(t *testing.T, src *source.Source) string {
		t.Helper()
		res, err := src.Query(context.Background(), "SELECT pg_backend_pid()", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res.Rows[0][0])
	}
	// waitFor polls cond for up to d.
	waitFor := func(d time.Duration, cond func() bool) bool {
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if cond() {
				return true
			}
		}
		return cond()
	}
	t.Run("kept", func(t *testing.T) {
		s := pgServer(t, source.Options{})
		const window = 6 * time.Second
		if err := source.KeepConnection(s.src, idle, window); err != nil {
			t.Fatal(err)
		}
		first := backend(t, s.src)
		time.Sleep(idle + 2500*time.Millisecond)
		if n := source.OpenConnections(s.src); n != 1 {
			t.Errorf("%d connections open after a pause, want 1", n)
		}
		if again := backend(t, s.src); again != first {
			t.Errorf("server process %s after a pause, was %s: the connection was not kept", again, first)
		}
		// no statement for longer than keepFor: the pool lets it go
		if !waitFor(window+idle+2*time.Second, func() bool { return source.OpenConnections(s.src) == 0 }) {
			t.Errorf("%d connections still open past keepFor", source.OpenConnections(s.src))
		}
	})
	t.Run("not kept", func(t *testing.T) {
		s := pgServer(t, source.Options{})
		if err := source.KeepConnection(s.src, idle, 0); err != nil {
			t.Fatal(err)
		}
		first := backend(t, s.src)
		if !waitFor(idle+2500*time.Millisecond, func() bool { return source.OpenConnections(s.src) == 0 }) {
			t.Fatalf("%d connections open after a pause without the keeper: the test cannot tell", source.OpenConnections(s.src))
		}
		if again := backend(t, s.src); again == first {
			t.Errorf("the same server process %s after the pause", first)
		}
	})
}

// BenchmarkQueryAfterPause times, on PostgreSQL, a statement asked after a
// pause longer than the pool's idle time (1 s here, a minute in the
// product), with the keeper ("kept") and without it ("not-kept", a new
// connection and server process each time). The pauses are not timed:
//
//	go test -run '^$' -bench QueryAfterPause -benchtime 5x -count 6 ./internal/source/
func BenchmarkQueryAfterPause(b *testing.B) {
	const idle = time.Second
	m := benchModel(b, "events")
	var tg benchTarget
	for _, t := range benchTargets(b) {
		if t.name == "postgres" {
			tg = t.open(b)
		}
	}
	for _, kept := range []bool{true, false} {
		name := map[bool]string{true: "kept", false: "not-kept"}[kept]
		b.Run(name, func(b *testing.B) {
			src, err := source.Open(context.Background(), "bench", tg.dsn, m, source.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			keepFor := time.Duration(0)
			if kept {
				keepFor = time.Hour
			}
			if err := source.KeepConnection(src, idle, keepFor); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			q := "SELECT colour, count(*) FROM events WHERE amount < $1 GROUP BY colour"
			if _, err := src.Query(ctx, q, []any{int64(50)}, 0); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				time.Sleep(idle + 1500*time.Millisecond)
				b.StartTimer()
				if _, err := src.Query(ctx, q, []any{int64(50)}, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
