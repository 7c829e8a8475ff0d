package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/server"
)

// benchFlood measures the per-user rate limits as an attacker meets them:
// one user floods the server with new conversations from many clients,
// while another user asks at a person's pace. It reports how many of the
// flood's conversations were created, how the rest were refused (429 with
// Retry-After), and whether the polite user was ever refused or slowed.
func (e *env) benchFlood(ctx context.Context, args []string) error {
	fs := newFlagSet("bench flood", e)
	var c common
	c.register(fs)
	clients := fs.Int("clients", 20, "the flooding user's concurrent clients")
	dur := fs.Duration("duration", 60*time.Second, "how long the flood lasts")
	question := fs.String("question", "how many wounds are there?", "the question every request asks")
	source := fs.String("source", "clinic", "source")
	every := fs.Duration("polite-every", 3*time.Second, "how often the polite user asks")
	store := fs.String("store", "", "store of the server under test (default sqlite in a temp dir)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *clients < 1 || *dur <= 0 || *every <= 0 {
		return usagef("--clients, --duration and --polite-every must be positive")
	}
	_, dir, err := c.load()
	if err != nil {
		return err
	}
	// the server's default rate limits, two users
	cfg := fmt.Sprintf("server:\n  api_keys:\n    - {user: flood, sha256: %s}\n    - {user: polite, sha256: %s}\n",
		server.HashKey(benchKey(0)), server.HashKey(benchKey(1)))
	srv, err := startChild(ctx, dir, *store, []byte(cfg))
	if err != nil {
		return err
	}
	defer srv.stop()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *clients + 1}}
	defer client.CloseIdleConnections()
	post := func(ctx context.Context, key string) (int, string, time.Duration, error) {
		body := fmt.Sprintf(`{"question": %q, "source": %q, "interactive": false}`, *question, *source)
		req, err := http.NewRequestWithContext(ctx, "POST", "http://"+srv.addr+"/v1/conversations", strings.NewReader(body))
		if err != nil {
			return 0, "", 0, err
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Retry-After"), time.Since(start), nil
	}

	fctx, stop := context.WithTimeout(ctx, *dur)
	defer stop()
	var (
		mu         sync.Mutex
		codes      = map[int]int{}
		retryAfter = map[string]int{}
		politeOK   []time.Duration
		politeBad  []string
		wg         sync.WaitGroup
	)
	for i := 0; i < *clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fctx.Err() == nil {
				code, ra, _, err := post(fctx, benchKey(0))
				if err != nil {
					continue // the flood ended mid-request
				}
				mu.Lock()
				codes[code]++
				if code == http.StatusTooManyRequests {
					retryAfter[ra]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(*every)
		defer t.Stop()
		for {
			select {
			case <-fctx.Done():
				return
			case <-t.C:
			}
			code, _, took, err := post(fctx, benchKey(1))
			mu.Lock()
			switch {
			case err != nil && fctx.Err() != nil:
			case err != nil:
				politeBad = append(politeBad, err.Error())
			case code/100 != 2:
				politeBad = append(politeBad, fmt.Sprintf("HTTP %d", code))
			default:
				politeOK = append(politeOK, took)
			}
			mu.Unlock()
		}
	}()
	wg.Wait()

	total := 0
	for _, n := range codes {
		total += n
	}
	fmt.Fprintf(e.stdout, "flood: %d clients of one user for %s, %d requests\n", *clients, *dur, total)
	statuses := make([]int, 0, len(codes))
	for s := range codes {
		statuses = append(statuses, s)
	}
	slices.Sort(statuses)
	for _, s := range statuses {
		fmt.Fprintf(e.stdout, "  HTTP %d: %d\n", s, codes[s])
	}
	ras := make([]string, 0, len(retryAfter))
	for ra := range retryAfter {
		ras = append(ras, ra)
	}
	slices.Sort(ras)
	for _, ra := range ras {
		fmt.Fprintf(e.stdout, "  429 with Retry-After %q: %d\n", ra, retryAfter[ra])
	}
	created := codes[http.StatusOK] + codes[http.StatusCreated] + codes[http.StatusAccepted]
	fmt.Fprintf(e.stdout, "  conversations created: %d (%.1f a minute)\n", created, float64(created)/dur.Minutes())
	fmt.Fprintf(e.stdout, "polite user, one question every %s: %d answered (p50 %s, max %s), %d refused or failed\n",
		*every, len(politeOK), pct(politeOK, 0.5), pct(politeOK, 1), len(politeBad))
	for _, b := range politeBad[:min(3, len(politeBad))] {
		fmt.Fprintln(e.stdout, "  failure:", b)
	}
	return nil
}
