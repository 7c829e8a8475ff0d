package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/server"
)

// benchServe runs a bounded load: N concurrent conversations against a
// `clarify serve` child process over loopback, each streaming its
// question, answering the clarification and keeping its event stream open;
// it reports time to first event and to answer, throughput, and the
// server's resident memory per open conversation.
func (e *env) benchServe(ctx context.Context, args []string) error {
	fs := newFlagSet("bench serve", e)
	var c common
	c.register(fs)
	n := fs.Int("conversations", 1000, "concurrent conversations")
	question := fs.String("question", "Which patients have severe wounds?", "the question each conversation asks (it must need a clarification)")
	source := fs.String("source", "clinic", "source")
	store := fs.String("store", "", "store of the server under test (default sqlite in a temp dir)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	_, dir, err := c.load()
	if err != nil {
		return err
	}
	// one API key per simulated user: what one user answers is learned for
	// that user only
	var cfg strings.Builder
	cfg.WriteString("server:\n  api_keys:\n")
	writeBenchKeys(&cfg, *n+50)
	srv, err := startChild(ctx, dir, *store, []byte(cfg.String()))
	if err != nil {
		return err
	}
	defer srv.stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *n, MaxConnsPerHost: 0, IdleConnTimeout: time.Minute}}
	// warm up (value caches, indexes, connection pools), so the memory
	// measured below is what open conversations cost
	warm := min(*n, 50)
	var wopen sync.WaitGroup
	var wmu sync.Mutex
	var wconvs []openConv
	wopen.Add(warm)
	wrelease := make(chan struct{})
	close(wrelease)
	var wwg sync.WaitGroup
	for i := 0; i < warm; i++ {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			_, _, oc, err := oneConversation(ctx, client, srv.addr, benchKey(*n+i), *source, *question, &wopen, wrelease)
			if err == nil {
				wmu.Lock()
				wconvs = append(wconvs, oc)
				wmu.Unlock()
			}
		}()
	}
	wwg.Wait()
	client.CloseIdleConnections()
	base := settledRSS(srv.cmd.Process.Pid)
	fmt.Fprintf(e.stdout, "server pid %d on %s, store %s, RSS after %d warm-up conversations %.1f MiB\n", srv.cmd.Process.Pid, srv.addr, redactDSN(srv.store), warm, float64(base)/1024)
	// what open conversations cost: N event streams held open on a quiet
	// server (spread over the warm-up conversations)
	var warmConvs []openConv
	wmu.Lock()
	warmConvs = append(warmConvs, wconvs...)
	wmu.Unlock()
	if len(warmConvs) > 0 {
		many := make([]openConv, *n)
		for i := range many {
			many[i] = warmConvs[i%len(warmConvs)]
		}
		held, err := holdOpen(ctx, client, srv.addr, many)
		if err != nil {
			return err
		}
		withOpen := settledRSS(srv.cmd.Process.Pid)
		held()
		per := float64(withOpen-base) / float64(*n)
		fmt.Fprintf(e.stdout, "server RSS with %d conversations open: %.1f MiB (+%.1f MiB): %.1f KiB per open conversation, %.2f MiB per 100 (seed budget 50 MiB per 100)\n",
			*n, float64(withOpen)/1024, float64(withOpen-base)/1024, per, per*100/1024)
		client.CloseIdleConnections()
		time.Sleep(time.Second)
	}
	var (
		mu              sync.Mutex
		convs           []openConv
		firstEv, answer []time.Duration
		failures        []string
		open            sync.WaitGroup
		release         = make(chan struct{})
	)
	srvCPU0, _ := cpuTicks(srv.cmd.Process.Pid)
	ownCPU0, _ := cpuTicks(os.Getpid())
	start := time.Now()
	var wg sync.WaitGroup
	open.Add(*n)
	for i := 0; i < *n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, a, oc, err := oneConversation(ctx, client, srv.addr, benchKey(i), *source, *question, &open, release)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failures = append(failures, err.Error())
				return
			}
			firstEv = append(firstEv, f)
			answer = append(answer, a)
			convs = append(convs, oc)
		}()
	}
	// all conversations answered and their streams open
	waitDone := make(chan struct{})
	go func() { open.Wait(); close(waitDone) }()
	select {
	case <-waitDone:
	case <-ctx.Done():
		// every request goroutine ends: released, they see the cancelled
		// context and return; nothing outlives the command
		close(release)
		wg.Wait()
		<-waitDone
		return ctx.Err()
	}
	elapsed := time.Since(start)
	srvCPU1, _ := cpuTicks(srv.cmd.Process.Pid)
	ownCPU1, _ := cpuTicks(os.Getpid())
	time.Sleep(500 * time.Millisecond)
	peak, _ := rssKB(srv.cmd.Process.Pid)
	close(release)
	wg.Wait()
	client.CloseIdleConnections()
	ok := len(answer)
	fmt.Fprintf(e.stdout, "conversations: %d ok, %d failed in %s (%.0f conversations/s, %.0f turns/s)\n",
		ok, len(failures), elapsed.Round(time.Millisecond), float64(ok)/elapsed.Seconds(), 2*float64(ok)/elapsed.Seconds())
	fmt.Fprintf(e.stdout, "time to first event: p50 %s  p99 %s\n", pct(firstEv, 0.5), pct(firstEv, 0.99))
	fmt.Fprintf(e.stdout, "time to answer (ask, clarification, answer): p50 %s  p95 %s  p99 %s\n", pct(answer, 0.5), pct(answer, 0.95), pct(answer, 0.99))
	if ok > 0 {
		// CPU time per conversation depends less on what else the machine
		// runs than throughput does
		fmt.Fprintf(e.stdout, "CPU per conversation: server %.2f ms, this client %.2f ms\n",
			float64(srvCPU1-srvCPU0)*10/float64(ok), float64(ownCPU1-ownCPU0)*10/float64(ok))
	}
	fmt.Fprintf(e.stdout, "server RSS at the end of the load (%d streams open, garbage of %d turns not yet returned): %.1f MiB\n", ok, 2*ok, float64(peak)/1024)
	for i, f := range failures {
		if i == 5 {
			fmt.Fprintf(e.stdout, "… %d more failures\n", len(failures)-5)
			break
		}
		fmt.Fprintln(e.stdout, "failure:", f)
	}
	if len(failures) > 0 {
		return &failure{msg: fmt.Sprintf("%d conversations failed", len(failures))}
	}
	return nil
}

// child is a `clarify serve` process a bench command measures.
type child struct {
	cmd   *exec.Cmd
	addr  string
	store string // the DSN of its store
	tmp   string // holds its configuration and default store; stop removes it
	logs  *bytes.Buffer
}

// benchKey is the API key of the i-th simulated user.
func benchKey(i int) string { return fmt.Sprintf("bench-key-%d", i) }

// writeBenchKeys writes the entries of a configuration's api_keys list for
// users simulated users, u0 with benchKey(0) and on.
func writeBenchKeys(b *strings.Builder, users int) {
	for i := range users {
		fmt.Fprintf(b, "    - {user: u%d, sha256: %s}\n", i, server.HashKey(benchKey(i)))
	}
}

// startChild starts `clarify serve` on a loopback port for a bench
// command, with the demo data in dataDir, the configuration cfg, and the
// store at the DSN store or, when store is empty, in a new SQLite file.
// The configuration and that file live in a temporary directory that
// stop removes.
func startChild(ctx context.Context, dataDir, store string, cfg []byte) (*child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "clarify-bench-")
	if err != nil {
		return nil, err
	}
	if store == "" {
		store = "sqlite:" + filepath.Join(tmp, "store.db")
	}
	cfgPath := filepath.Join(tmp, "bench.yaml")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	c := &child{addr: addr, store: store, tmp: tmp, logs: &bytes.Buffer{}}
	c.cmd = exec.CommandContext(ctx, self, "serve", "--addr", addr, "--data-dir", dataDir, "--store", store, "--config", cfgPath)
	c.cmd.Stdout, c.cmd.Stderr = io.Discard, io.Discard
	if err := c.cmd.Start(); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return c, nil
			}
		}
	}
	c.stop()
	return nil, fmt.Errorf("the server under test did not start")
}

// stop interrupts the child, kills it if it has not ended after ten
// seconds, and removes its temporary directory.
func (c *child) stop() {
	defer os.RemoveAll(c.tmp)
	_ = c.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// oneConversation asks, answers the clarification with the best guess,
// then keeps the conversation's event stream open until released.
// openConv is a finished conversation that can be held open.
type openConv struct {
	key, id string
	last    int64
}

// holdOpen opens the event stream of every conversation and keeps it open
// until the returned function is called.
func holdOpen(ctx context.Context, client *http.Client, addr string, convs []openConv) (func(), error) {
	var bodies []io.Closer
	for _, c := range convs {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/v1/conversations/"+c.id+"/events?after="+strconv.FormatInt(c.last, 10), nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Authorization", "Bearer "+c.key)
		resp, err := client.Do(req)
		if err != nil {
			for _, b := range bodies {
				b.Close()
			}
			return nil, err
		}
		bodies = append(bodies, resp.Body)
	}
	return func() {
		for _, b := range bodies {
			b.Close()
		}
	}, nil
}

func oneConversation(ctx context.Context, client *http.Client, addr, key, source, question string, open *sync.WaitGroup, release chan struct{}) (first, answered time.Duration, oc openConv, err error) {
	signalled := false
	defer func() {
		if !signalled {
			open.Done()
		}
	}()
	start := time.Now()
	evs, err := streamTurn(ctx, client, key, "http://"+addr+"/v1/conversations", map[string]any{"question": question, "source": source}, func() {
		if first == 0 {
			first = time.Since(start)
		}
	})
	if err != nil {
		return 0, 0, oc, err
	}
	var conv struct {
		ID string `json:"conversation_id"`
	}
	var cl struct {
		ID      string `json:"id"`
		Options []struct {
			ID        string `json:"id"`
			BestGuess bool   `json:"best_guess"`
		} `json:"options"`
	}
	for _, ev := range evs {
		switch ev.typ {
		case "conversation":
			json.Unmarshal(ev.data, &conv)
		case "clarification":
			json.Unmarshal(ev.data, &cl)
		}
	}
	if cl.ID == "" {
		return 0, 0, oc, fmt.Errorf("no clarification was asked")
	}
	opt := cl.Options[0].ID
	for _, o := range cl.Options {
		if o.BestGuess {
			opt = o.ID
		}
	}
	evs, err = streamTurn(ctx, client, key, "http://"+addr+"/v1/conversations/"+conv.ID+"/messages",
		map[string]any{"answer": map[string]any{"clarification_id": cl.ID, "option_id": opt}}, nil)
	if err != nil {
		return 0, 0, oc, err
	}
	if len(evs) < 2 || evs[len(evs)-2].typ != "result" {
		return 0, 0, oc, fmt.Errorf("the answer turn ended without a result")
	}
	answered = time.Since(start)
	last := evs[len(evs)-1].id
	oc = openConv{key: key, id: conv.ID, last: last}
	// keep the conversation open: follow its event stream
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/v1/conversations/"+conv.ID+"/events?after="+strconv.FormatInt(last, 10), nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, oc, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return 0, 0, oc, fmt.Errorf("events: status %d", resp.StatusCode)
	}
	signalled = true
	open.Done()
	select {
	case <-release:
	case <-ctx.Done():
	}
	return first, answered, oc, nil
}

type benchEvent struct {
	id   int64
	typ  string
	data []byte
}

// streamTurn POSTs with Accept: text/event-stream and reads to done.
func streamTurn(ctx context.Context, client *http.Client, key, url string, body any, onFirst func()) ([]benchEvent, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	var out []benchEvent
	var cur benchEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.typ != "" {
				if len(out) == 0 && onFirst != nil {
					onFirst()
				}
				out = append(out, cur)
				if cur.typ == "done" {
					return out, nil
				}
			}
			cur = benchEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.id, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			cur.typ = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = []byte(line[6:])
		}
	}
	return out, fmt.Errorf("stream ended before done: %v", sc.Err())
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)].Round(100 * time.Microsecond)
}

// settledRSS waits until a process's resident memory stops moving (less
// than 0.5% between samples a second apart, at most 30 s) and returns it.
func settledRSS(pid int) int64 {
	prev, _ := rssKB(pid)
	for i := 0; i < 30; i++ {
		time.Sleep(time.Second)
		cur, _ := rssKB(pid)
		if d := cur - prev; d*200 < cur && -d*200 < cur {
			return cur
		}
		prev = cur
	}
	return prev
}

// cpuTicks reads the CPU time a process used so far, user and system, in
// clock ticks of 10 ms (Linux).
func cpuTicks(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// the fields after the command, which is in parentheses and may hold
	// spaces: utime and stime are the 12th and 13th of them
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	u, err := strconv.ParseInt(f[11], 10, 64)
	if err != nil {
		return 0, err
	}
	st, err := strconv.ParseInt(f[12], 10, 64)
	return u + st, err
}

// rssKB reads a process's resident set size (Linux).
func rssKB(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			return strconv.ParseInt(strings.Fields(v)[0], 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmRSS")
}

// benchFairness measures what heavy questions cost everyone else: the
// latency of light questions asked in a loop by a few clients, first on
// a quiet server, then while N other clients (each its own user) ask a
// heavy question in a loop, on the same source of a `clarify serve`
// child process. The sources are those of --config (all four demo
// sources without one), so a source's max_concurrent and
// heavy_concurrent can be compared by running twice.
func (e *env) benchFairness(ctx context.Context, args []string) error {
	fs := newFlagSet("bench fairness", e)
	var c common
	c.register(fs)
	heavy := fs.Int("heavy", 20, "clients asking the heavy question in a loop")
	light := fs.Int("light", 2, "clients asking the light question in a loop")
	heavyQ := fs.String("heavy-question", "average trade price per symbol per day in the last year", "a question whose statement is expensive")
	lightQ := fs.String("light-question", "How many symbols are there?", "a question whose statement is cheap")
	source := fs.String("source", "trades", "source both questions go to")
	store := fs.String("store", "", "store of the server under test (default sqlite in a temp dir)")
	dur := fs.Duration("duration", 20*time.Second, "how long light questions are measured in each phase")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *heavy < 0 || *light < 1 || *dur <= 0 {
		return usagef("--heavy must not be negative, --light and --duration must be positive")
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	childCfg, err := fairnessConfig(cfg, *light+*heavy)
	if err != nil {
		return err
	}
	srv, err := startChild(ctx, dir, *store, childCfg)
	if err != nil {
		return err
	}
	defer srv.stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *light + *heavy, IdleConnTimeout: time.Minute}}
	defer client.CloseIdleConnections()
	ask := func(ctx context.Context, user int, q string) (time.Duration, error) {
		start := time.Now()
		evs, err := streamTurn(ctx, client, benchKey(user), "http://"+srv.addr+"/v1/conversations",
			map[string]any{"question": q, "source": *source, "interactive": false}, nil)
		if err != nil {
			return 0, err
		}
		for _, ev := range evs {
			if ev.typ == "result" {
				return time.Since(start), nil
			}
		}
		for _, ev := range evs {
			if ev.typ == "error" {
				return 0, fmt.Errorf("%q: %s", q, ev.data)
			}
		}
		return 0, fmt.Errorf("%q: the turn ended without a result", q)
	}
	// warm up: value caches, pools, and the statements' shapes learned
	for i := 0; i < 3; i++ {
		for _, q := range []string{*lightQ, *heavyQ} {
			d, err := ask(ctx, 0, q)
			if err != nil {
				return err
			}
			if i == 2 {
				fmt.Fprintf(e.stdout, "alone: %q answered in %s\n", q, d.Round(100*time.Microsecond))
			}
		}
	}
	quiet, qfail := lightLoop(ctx, ask, *light, *lightQ, *dur)
	// the heavy clients ask until the light ones are done
	hctx, stopHeavy := context.WithCancel(ctx)
	var hwg sync.WaitGroup
	var hmu sync.Mutex
	var heavyDone, heavyFailed int
	var heavyTimes []time.Duration
	for i := 0; i < *heavy; i++ {
		hwg.Add(1)
		go func() {
			defer hwg.Done()
			for hctx.Err() == nil {
				d, err := ask(hctx, *light+i, *heavyQ)
				hmu.Lock()
				switch {
				case err == nil:
					heavyDone++
					heavyTimes = append(heavyTimes, d)
				case hctx.Err() == nil:
					heavyFailed++
				}
				hmu.Unlock()
			}
		}()
	}
	time.Sleep(2 * time.Second) // let the heavy load build up
	loaded, lfail := lightLoop(ctx, ask, *light, *lightQ, *dur)
	stopHeavy()
	hwg.Wait()
	fmt.Fprintf(e.stdout, "light question %q on %s, %d clients, %s per phase\n", *lightQ, *source, *light, *dur)
	fmt.Fprintf(e.stdout, "  quiet:            %4d answers  p50 %s  p95 %s  %d failed\n", len(quiet), pct(quiet, 0.5), pct(quiet, 0.95), len(qfail))
	fmt.Fprintf(e.stdout, "  with %2d heavy:    %4d answers  p50 %s  p95 %s  %d failed\n", *heavy, len(loaded), pct(loaded, 0.5), pct(loaded, 0.95), len(lfail))
	for _, f := range append(qfail, lfail...)[:min(3, len(qfail)+len(lfail))] {
		fmt.Fprintln(e.stdout, "  failure:", f)
	}
	if p := pct(quiet, 0.5); p > 0 {
		fmt.Fprintf(e.stdout, "  p50 ratio %.2fx, p95 ratio %.2fx\n", float64(pct(loaded, 0.5))/float64(p), float64(pct(loaded, 0.95))/float64(pct(quiet, 0.95)))
	}
	fmt.Fprintf(e.stdout, "heavy question %q: %d answers (p50 %s), %d failed, while measured\n", *heavyQ, heavyDone, pct(heavyTimes, 0.5), heavyFailed)
	return nil
}

// lightLoop has n clients ask q in a loop for d and returns the latencies
// of the answers and the failures (a timed-out turn is one).
func lightLoop(ctx context.Context, ask func(context.Context, int, string) (time.Duration, error), n int, q string, d time.Duration) ([]time.Duration, []string) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var out []time.Duration
	var failed []string
	end := time.Now().Add(d)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) && ctx.Err() == nil {
				took, err := ask(ctx, i, q)
				mu.Lock()
				if err != nil {
					failed = append(failed, err.Error())
				} else {
					out = append(out, took)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out, failed
}

// fairnessConfig returns the child's configuration: one key per client,
// rate limits off (they would hide what the source does), and the sources
// of cfg.
func fairnessConfig(cfg *config.Config, users int) ([]byte, error) {
	var b strings.Builder
	b.WriteString("server:\n  rate_limit: {questions_per_minute: 0, burst: 0, concurrent_turns: 0}\n  api_keys:\n")
	writeBenchKeys(&b, users)
	if cfg != nil && len(cfg.Sources) > 0 {
		out, err := yaml.Marshal(map[string]any{"sources": cfg.Sources})
		if err != nil {
			return nil, fmt.Errorf("write the sources of the configuration: %w", err)
		}
		b.Write(out)
	}
	return []byte(b.String()), nil
}
