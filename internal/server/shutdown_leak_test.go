package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/leaktest"
	"github.com/clarify-sql/clarify/internal/server"
)

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
		left = leaktest.Goroutines("clarify/internal/server.(*Server).Shutdown")
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
