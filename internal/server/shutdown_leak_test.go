package server_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/server"
)

// goroutinesIn returns the stacks of the goroutines that have a frame in
// a function whose name contains fn.
func goroutinesIn(fn string) []string {
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

// TestShutdownLeavesNoGoroutine: a Shutdown whose deadline passes while a
// stream it ended is still running returns without leaving anything of
// its own behind to wait for the stream.
func TestShutdownLeavesNoGoroutine(t *testing.T) {
	h := start(t)
	var left []string
	checked := make(chan struct{})
	server.SetStreamOpened(h.srv, func() {
		defer close(checked)
		// the stream is registered and its handler held here: Shutdown
		// returns at its deadline, with the stream still open
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		h.srv.Shutdown(ctx)
		left = goroutinesIn("clarify/internal/server.(*Server).Shutdown")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp := h.streamCtx(ctx, "POST", "/v1/conversations", map[string]any{"question": "Show me the patients who have severe wounds"}, 0)
	defer resp.Body.Close()
	readSSE(t, resp.Body, "shutdown")
	<-checked
	if len(left) > 0 {
		t.Errorf("%d goroutine(s) of Shutdown outlived it:\n\n%s", len(left), strings.Join(left, "\n\n"))
	}
}
