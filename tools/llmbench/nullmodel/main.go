// Command nullmodel serves a "null model" on loopback: an endpoint speaking
// the OpenAI chat-completions protocol that answers every call with the
// first reply of an engine transcript (by default
// internal/engine/testdata/llm/null.yaml, "unanswerable"). With it,
// `clarify eval --engine hybrid` can do no better than the rules and must do
// no worse; the eval's count of cases that called the model is what the
// rules could not link. It prints the base URL to set as
// CLARIFY_LLM_BASE_URL, serves until interrupted, then reports how many
// calls it answered.
//
//	go run ./tools/llmbench/nullmodel [-addr 127.0.0.1:0] [-transcript FILE]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"
)

// transcript is the part of an llmtest transcript this server replays.
type transcript struct {
	Exchanges []struct {
		Reply struct {
			JSON string `yaml:"json"`
		} `yaml:"reply"`
	} `yaml:"exchanges"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	path := flag.String("transcript", "internal/engine/testdata/llm/null.yaml", "engine transcript whose first reply answers every call")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *path); err != nil {
		fmt.Fprintln(os.Stderr, "nullmodel:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, addr, path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read transcript: %w", err)
	}
	var tr transcript
	if err := yaml.Unmarshal(raw, &tr); err != nil {
		return fmt.Errorf("transcript %s: %w", path, err)
	}
	if len(tr.Exchanges) == 0 || tr.Exchanges[0].Reply.JSON == "" {
		return fmt.Errorf("transcript %s: the first exchange has no JSON reply", path)
	}
	reply := []byte(tr.Exchanges[0].Reply.JSON)
	var calls atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("http://%s/v1\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	fmt.Fprintf(os.Stderr, "nullmodel: answered %d calls\n", calls.Load())
	return err
}
