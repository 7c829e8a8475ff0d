package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// envChildDSN tells the test binary, run again as a child, to act as a
// second process on the store this DSN names.
const envChildDSN = "CLARIFY_STORE_CHILD_DSN"

const appendsPerProcess = 50

// TestTwoProcesses shares one store between this process and a child: both
// append to one conversation at once (no gap, no duplicate seq), and the
// lease the child took is still refused to this process after it exits.
func TestTwoProcesses(t *testing.T) {
	t.Parallel()
	for _, tc := range backends {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := tc.newDSN(t)
			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			c := &store.Conversation{ID: "c1", UserID: "u1", Status: store.StatusActive}
			if _, err := s.CreateConversation(ctx, c, store.Event{Type: "conversation"}); err != nil {
				t.Fatal(err)
			}

			child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestChildProcess$", "-test.count=1")
			child.Env = append(os.Environ(), envChildDSN+"="+dsn)
			out := make(chan error, 1)
			var output []byte
			go func() {
				var err error
				output, err = child.CombinedOutput()
				out <- err
			}()
			// Start appending once the child does, so the two interleave.
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if evs, err := s.Events(ctx, "c1", 1); err != nil || len(evs) > 0 {
					break
				}
			}
			appendErr := appendMany(ctx, s, "parent")
			if err := <-out; err != nil {
				t.Fatalf("child process: %v\n%s", err, output)
			}
			if appendErr != nil {
				t.Fatal(appendErr)
			}

			evs, err := s.Events(ctx, "c1", 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1+2*appendsPerProcess {
				t.Fatalf("%d events, want %d", len(evs), 1+2*appendsPerProcess)
			}
			switches := 0
			for i, e := range evs {
				if e.Seq != int64(i+1) {
					t.Fatalf("event %d has seq %d", i+1, e.Seq)
				}
				if i > 1 && string(e.Data[:10]) != string(evs[i-1].Data[:10]) {
					switches++
				}
			}
			t.Logf("the writer changed %d times between the processes", switches)
			if ok, err := s.Lock(ctx, "c1", "parent", time.Minute); err != nil || ok {
				t.Errorf("Lock while the child's lease runs = %v, %v; want false", ok, err)
			}
		})
	}
}

// appendMany appends events to c1 with read–update–retry.
func appendMany(ctx context.Context, s store.Store, who string) error {
	for i := range appendsPerProcess {
		for attempt := 0; ; attempt++ {
			c, err := s.Conversation(ctx, "c1")
			if err != nil {
				return err
			}
			ev := store.Event{Type: "step", Data: fmt.Appendf(nil, `{"who":%q,"i":%d}`, who, i)}
			_, err = s.UpdateConversation(ctx, c, ev)
			if err == nil {
				break
			}
			if !errors.Is(err, store.ErrConflict) || attempt > 10000 {
				return fmt.Errorf("%s append %d: %w", who, i, err)
			}
		}
	}
	return nil
}

// TestChildProcess is the child of TestTwoProcesses; alone it does nothing.
func TestChildProcess(t *testing.T) {
	dsn := os.Getenv(envChildDSN)
	if dsn == "" {
		t.Skip("runs only as the child process of TestTwoProcesses")
	}
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ok, err := s.Lock(ctx, "c1", "child", time.Hour); err != nil || !ok {
		t.Fatalf("child Lock = %v, %v", ok, err)
	}
	if err := appendMany(ctx, s, "child"); err != nil {
		t.Fatal(err)
	}
}
