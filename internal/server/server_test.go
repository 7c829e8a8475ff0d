package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/store"
)

// engines serves the demo engines with their clock at the data's as_of.
type engines struct{ m map[string]*engine.Engine }

func (e engines) Engine(_ context.Context, s string) (*engine.Engine, error) {
	if en, ok := e.m[s]; ok {
		return en, nil
	}
	if s == "down" {
		return nil, fmt.Errorf("source down: connect: %w", source.ErrUnreachable)
	}
	return nil, &registry.UnknownSourceError{Name: s, Known: e.Names()}
}
func (e engines) Default() string { return "clinic" }
func (e engines) Names() []string { return []string{"clinic", "labs"} }
func (e engines) Info(_ context.Context, n string) (registry.Info, error) {
	return registry.Info{Name: n, Dialect: "sqlite"}, nil
}

type harness struct {
	t     *testing.T
	url   string
	svc   *conversation.Service
	srv   *server.Server
	src   *source.Source
	clock *fakeClock
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// start serves the API over loopback with a fresh SQLite store.
func start(t *testing.T, keys ...server.Key) *harness {
	t.Helper()
	return startWith(t, nil, keys...)
}

// startWith is start with the store wrapped by wrap (when not nil).
func startWith(t *testing.T, wrap func(store.Store) store.Store, keys ...server.Key) *harness {
	t.Helper()
	// these tests ask faster than a person: rate limits have their own
	return startConfig(t, wrap, func(c *server.Config) { c.RateLimit = &server.RateLimit{} }, keys...)
}

// startConfig is startWith with the server's config adjusted by tune.
func startConfig(t *testing.T, wrap func(store.Store) store.Store, tune func(*server.Config), keys ...server.Key) *harness {
	t.Helper()
	ctx := context.Background()
	opened, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { opened.Close() })
	//lint:ignore ST1023 st is the interface: wrap replaces the concrete store with another implementation
	var st store.Store = opened
	if wrap != nil {
		st = wrap(opened)
	}
	clk := &fakeClock{now: time.Now()}
	en := engines{m: map[string]*engine.Engine{"clinic": demotest.Engine(t, "clinic"), "labs": demotest.Engine(t, "labs")}}
	svc := conversation.New(en, st, conversation.Options{Clock: clk.Now, MessageLimit: 6, PollInterval: 50 * time.Millisecond})
	t.Cleanup(svc.Close)
	cfg := server.Config{Keys: keys, MaxBody: 4 << 10, Heartbeat: 200 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if tune != nil {
		tune(&cfg)
	}
	srv := server.New(svc, en, st.Ping, cfg)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return &harness{t: t, url: ts.URL, svc: svc, srv: srv, src: demotest.Source(t, "clinic", source.Options{}), clock: clk}
}

func (h *harness) do(method, path, key string, body any, out any) int {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, h.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			h.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

type result struct {
	ConversationID string `json:"conversation_id"`
	Status         string `json:"status"`
	Clarification  *struct {
		ID      string `json:"id"`
		Kind    string `json:"kind"`
		Slot    string `json:"slot"`
		Options []struct {
			ID        string `json:"id"`
			Label     string `json:"label"`
			BestGuess bool   `json:"best_guess"`
			Preview   *struct {
				Rows int `json:"rows"`
			} `json:"preview"`
		} `json:"options"`
	} `json:"clarification"`
	Answer *struct {
		RowCount    int `json:"row_count"`
		Assumptions []struct {
			Slot   string `json:"slot"`
			Text   string `json:"text"`
			Method string `json:"method"`
		} `json:"assumptions"`
		Statement string `json:"statement"`
	} `json:"answer"`
	Error *struct{ Code, Message string } `json:"error"`
}

func optionID(t *testing.T, r result, part string) string {
	t.Helper()
	for _, o := range r.Clarification.Options {
		if strings.Contains(strings.ToLower(o.Label), part) {
			return o.ID
		}
	}
	t.Fatalf("no option like %q", part)
	return ""
}

func (h *harness) count(query string) int {
	h.t.Helper()
	res, err := h.src.Query(context.Background(), query, nil, 1)
	if err != nil {
		h.t.Fatal(err)
	}
	return int(res.Rows[0][0].(int64))
}

func TestSeriousWoundsJSON(t *testing.T) {
	h := start(t)
	var r result
	if code := h.do("POST", "/v1/conversations", "", map[string]any{"question": "Show me the patients who have severe wounds", "source": "clinic"}, &r); code != 202 {
		t.Fatalf("ask: %d %+v", code, r)
	}
	if r.Clarification == nil || r.Clarification.Kind != "vague_qualifier" || len(r.ConversationID) < 20 {
		t.Fatalf("want a vague_qualifier clarification, got %+v", r)
	}
	var a result
	code := h.do("POST", "/v1/conversations/"+r.ConversationID+"/messages", "", map[string]any{"answer": map[string]any{
		"clarification_id": r.Clarification.ID, "option_id": optionID(t, r, "infect")}}, &a)
	if code != 200 || a.Answer == nil {
		t.Fatalf("answer: %d %+v", code, a)
	}
	want := h.count("SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1")
	if a.Answer.RowCount != want {
		t.Errorf("%d rows, want %d patients with an infected wound", a.Answer.RowCount, want)
	}
	var v struct {
		Status string `json:"status"`
		Turns  []any  `json:"turns"`
	}
	if code := h.do("GET", "/v1/conversations/"+r.ConversationID, "", nil, &v); code != 200 || v.Status != "answered" || len(v.Turns) != 4 {
		t.Errorf("get: %d %+v", code, v)
	}
}

type sse struct {
	id    int64
	event string
	data  string
}

// sseReader reads the events of one stream.
type sseReader struct{ sc *bufio.Scanner }

func newSSEReader(body io.Reader) *sseReader {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &sseReader{sc: sc}
}

// readSSE reads events until the first one of type until.
func readSSE(t *testing.T, body io.Reader, until string) []sse {
	t.Helper()
	return newSSEReader(body).read(t, until)
}

func (r *sseReader) read(t *testing.T, until string) []sse {
	t.Helper()
	var out []sse
	sc := r.sc
	var cur sse
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.event != "" {
				out = append(out, cur)
				if cur.event == until {
					return out
				}
			}
			cur = sse{}
		case strings.HasPrefix(line, "id: "):
			fmt.Sscan(line[4:], &cur.id)
		case strings.HasPrefix(line, "event: "):
			cur.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
			if !json.Valid([]byte(cur.data)) {
				t.Errorf("event data is not JSON: %s", cur.data)
			}
		}
	}
	return out
}

func (h *harness) stream(method, path string, body any, lastID int64) *http.Response {
	h.t.Helper()
	return h.streamCtx(context.Background(), method, path, body, lastID)
}

func (h *harness) streamCtx(ctx context.Context, method, path string, body any, lastID int64) *http.Response {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequestWithContext(ctx, method, h.url+path, rd)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if lastID > 0 {
		req.Header.Set("Last-Event-ID", fmt.Sprint(lastID))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		h.t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return resp
}

func kinds(evs []sse) []string {
	var k []string
	for _, e := range evs {
		k = append(k, e.event)
	}
	return k
}

func TestSeriousWoundsSSE(t *testing.T) {
	h := start(t)
	resp := h.stream("POST", "/v1/conversations", map[string]any{"question": "Show me the patients who have severe wounds"}, 0)
	evs := readSSE(t, resp.Body, "done")
	resp.Body.Close()
	k := kinds(evs)
	if len(k) < 4 || k[0] != "conversation" || k[len(k)-2] != "clarification" || k[len(k)-1] != "done" {
		t.Fatalf("events %v: want conversation, steps…, clarification, done", k)
	}
	for i, e := range evs {
		if e.id != int64(i+1) {
			t.Fatalf("event ids %v are not 1, 2, 3…", evs)
		}
	}
	var conv struct {
		ID string `json:"conversation_id"`
	}
	json.Unmarshal([]byte(evs[0].data), &conv)
	var cl struct {
		ID      string `json:"id"`
		Options []struct{ ID, Label string }
	}
	json.Unmarshal([]byte(evs[len(evs)-2].data), &cl)
	infected := ""
	for _, o := range cl.Options {
		if strings.Contains(strings.ToLower(o.Label), "infect") {
			infected = o.ID
		}
	}
	resp = h.stream("POST", "/v1/conversations/"+conv.ID+"/messages", map[string]any{"answer": map[string]any{"clarification_id": cl.ID, "option_id": infected}}, 0)
	evs2 := readSSE(t, resp.Body, "done")
	resp.Body.Close()
	k2 := kinds(evs2)
	if k2[0] != "answer" || k2[len(k2)-2] != "result" || k2[len(k2)-1] != "done" {
		t.Fatalf("answer events %v: want answer, steps…, result, done (%v)", k2, evs2)
	}
	for _, want := range []string{"step", "sql", "assumptions", "chart", "suggestions", "text"} {
		found := false
		for _, x := range k2 {
			found = found || x == want
		}
		if !found {
			t.Errorf("answer stream lacks a %q event: %v", want, k2)
		}
	}
	if evs2[0].id != evs[len(evs)-1].id+1 {
		t.Errorf("the second turn's ids do not continue the first's: %d after %d", evs2[0].id, evs[len(evs)-1].id)
	}
	// replay from Last-Event-ID: exactly the events after it, none lost
	from := evs[2].id
	all := append(evs, evs2...)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp = h.streamCtx(ctx, "GET", "/v1/conversations/"+conv.ID+"/events", nil, from)
	var replay []sse
	rd := newSSEReader(resp.Body)
	for len(replay) < len(all)-int(from) {
		more := rd.read(t, "done")
		if len(more) == 0 {
			break
		}
		replay = append(replay, more...)
	}
	resp.Body.Close()
	if len(replay) != len(all)-int(from) {
		t.Fatalf("replay after %d: %d events, want %d", from, len(replay), len(all)-int(from))
	}
	for i, e := range replay {
		if e.id != all[int(from)+i].id || e.event != all[int(from)+i].event {
			t.Fatalf("replay differs at %d: %v vs %v", i, e, all[int(from)+i])
		}
	}
}

func TestErrorsAndLimits(t *testing.T) {
	h := start(t)
	var r result
	h.do("POST", "/v1/conversations", "", map[string]any{"question": "old wounds"}, &r)
	id := r.ConversationID
	var e struct {
		Error struct{ Code, Message string }
	}
	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"malformed JSON", "POST", "/v1/conversations", `{"question": `, 400, "BAD_REQUEST"},
		{"unknown field", "POST", "/v1/conversations", `{"question": "x", "sauce": "clinic"}`, 400, "BAD_REQUEST"},
		{"empty body", "POST", "/v1/conversations", ``, 400, "BAD_REQUEST"},
		{"trailing data", "POST", "/v1/conversations", `{"question": "x"} {}`, 400, "BAD_REQUEST"},
		{"oversize", "POST", "/v1/conversations", `{"question": "` + strings.Repeat("a", 8<<10) + `"}`, 413, "BODY_TOO_LARGE"},
		{"empty question", "POST", "/v1/conversations", `{"question": " "}`, 400, "BAD_REQUEST"},
		{"unknown source", "POST", "/v1/conversations", `{"question": "x", "source": "nope"}`, 400, "UNKNOWN_SOURCE"},
		{"source down", "POST", "/v1/conversations", `{"question": "x", "source": "down"}`, 503, "SOURCE_UNAVAILABLE"},
		{"unknown conversation", "GET", "/v1/conversations/c_nope", nil, 404, "NOT_FOUND"},
		{"stale clarification", "POST", "/v1/conversations/" + id + "/messages", `{"answer": {"clarification_id": "q_old", "option_id": "x"}}`, 409, "STALE_CLARIFICATION"},
		{"bad option", "POST", "/v1/conversations/" + id + "/messages", fmt.Sprintf(`{"answer": {"clarification_id": %q, "option_id": "nope"}}`, r.Clarification.ID), 400, "BAD_REQUEST"},
		{"unknown endpoint", "GET", "/v1/nothing", nil, 404, "NOT_FOUND"},
		{"scope required", "POST", "/v1/conversations", `{"question": "my glucose history", "source": "labs", "interactive": false}`, 422, "SCOPE_REQUIRED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.Error.Code = ""
			if got := h.do(tc.method, tc.path, "", tc.body, &e); got != tc.status || e.Error.Code != tc.code {
				t.Errorf("status %d code %q, want %d %q (%s)", got, e.Error.Code, tc.status, tc.code, e.Error.Message)
			}
		})
	}
	// message limit: the conversation allows 6 messages; texts keep it going
	for i := 0; i < 10; i++ {
		st := h.do("POST", "/v1/conversations/"+id+"/messages", "", map[string]any{"text": "skip"}, &e)
		if st == 429 {
			if e.Error.Code != "MESSAGE_LIMIT" {
				t.Errorf("429 with code %q", e.Error.Code)
			}
			break
		}
		if i == 9 {
			t.Fatal("no MESSAGE_LIMIT after 10 messages")
		}
	}
	// expiry: a clarification unanswered for longer than the TTL
	var r2 result
	h.do("POST", "/v1/conversations", "", map[string]any{"question": "old wounds"}, &r2)
	h.clock.Add(25 * time.Hour)
	if st := h.do("POST", "/v1/conversations/"+r2.ConversationID+"/messages", "", map[string]any{"answer": map[string]any{"clarification_id": r2.Clarification.ID, "skipped": true}}, &e); st != 410 || e.Error.Code != "CLARIFICATION_EXPIRED" {
		t.Errorf("expired: %d %q", st, e.Error.Code)
	}
	// delete
	if st := h.do("DELETE", "/v1/conversations/"+r2.ConversationID, "", nil, nil); st != 204 {
		t.Errorf("delete: %d", st)
	}
	if st := h.do("GET", "/v1/conversations/"+r2.ConversationID, "", nil, &e); st != 404 {
		t.Errorf("after delete: %d", st)
	}
}

// A source that is configured but down is SOURCE_UNAVAILABLE (503) with a
// Retry-After, not UNKNOWN_SOURCE: the client may try again.
func TestSourceUnavailableRetryAfter(t *testing.T) {
	h := start(t)
	resp, err := http.Post(h.url+"/v1/conversations", "application/json", strings.NewReader(`{"question": "x", "source": "down"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || e.Error.Code != "SOURCE_UNAVAILABLE" || resp.Header.Get("Retry-After") == "" {
		t.Errorf("status %d code %q Retry-After %q, want 503 SOURCE_UNAVAILABLE with a Retry-After", resp.StatusCode, e.Error.Code, resp.Header.Get("Retry-After"))
	}
	if strings.Contains(e.Error.Message, "unreachable") {
		t.Errorf("the message carries the error's text: %q", e.Error.Message)
	}
}

// heldTurn is a store whose first Learned (read as a turn starts) waits
// until the turn's context ends: the first turn stops between its first
// event and its work until its client is gone.
type heldTurn struct {
	store.Store
	calls *atomic.Int32
}

func (s heldTurn) Learned(ctx context.Context, user, source string) (store.Learned, error) {
	if s.calls.Add(1) == 1 {
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second): // the test fails below
		}
	}
	return s.Store.Learned(ctx, user, source)
}

// TestDroppedTurnResumes: a client whose connection drops mid-turn cancels
// the turn; when it reconnects with Last-Event-ID the turn runs again and
// the client gets its outcome, so nothing the user did is lost.
func TestDroppedTurnResumes(t *testing.T) {
	h := startWith(t, func(st store.Store) store.Store { return heldTurn{Store: st, calls: new(atomic.Int32)} })
	ctx, cancel := context.WithCancel(context.Background())
	resp := h.streamCtx(ctx, "POST", "/v1/conversations", map[string]any{"question": "Show me the patients who have severe wounds"}, 0)
	first := newSSEReader(resp.Body).read(t, "conversation")
	if len(first) != 1 || first[0].event != "conversation" {
		t.Fatalf("first events %v, want the conversation event", first)
	}
	var conv struct {
		ID string `json:"conversation_id"`
	}
	if err := json.Unmarshal([]byte(first[0].data), &conv); err != nil {
		t.Fatal(err)
	}
	cancel() // the connection drops while the turn is held
	resp.Body.Close()

	rctx, rcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer rcancel()
	resp = h.streamCtx(rctx, "GET", "/v1/conversations/"+conv.ID+"/events", nil, first[0].id)
	defer resp.Body.Close()
	evs := readSSE(t, resp.Body, "done")
	k := kinds(evs)
	if len(k) < 3 || k[0] != "interrupted" || k[len(k)-2] != "clarification" || k[len(k)-1] != "done" {
		t.Fatalf("events after reconnecting: %v, want interrupted (the dropped turn was cancelled), the resumed turn's steps, clarification, done", k)
	}
	for i, e := range evs {
		if e.id != first[0].id+1+int64(i) {
			t.Fatalf("event ids after %d: %v, want consecutive", first[0].id, evs)
		}
	}
}

// TestShutdownWaitsForOpeningStream: Shutdown that comes as a stream is
// being opened either refuses the stream or waits for it; it never returns
// while a stream it ended is still running.
func TestShutdownWaitsForOpeningStream(t *testing.T) {
	h := start(t)
	waited := make(chan bool, 1)
	server.SetStreamOpened(h.srv, func() {
		// the stream is registered and its handler is held here: Shutdown
		// can only return because its own deadline passed
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		h.srv.Shutdown(ctx)
		waited <- ctx.Err() != nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp := h.streamCtx(ctx, "POST", "/v1/conversations", map[string]any{"question": "Show me the patients who have severe wounds"}, 0)
	defer resp.Body.Close()
	if evs := readSSE(t, resp.Body, "shutdown"); len(evs) == 0 || evs[len(evs)-1].event != "shutdown" {
		t.Errorf("events %v, want the stream ended by a shutdown event", kinds(evs))
	}
	if !<-waited {
		t.Error("Shutdown returned while a stream it had ended was still running")
	}
}

// releasedTurn is a store whose first Learned (read as a turn starts)
// waits for release.
type releasedTurn struct {
	store.Store
	release chan struct{}
	calls   *atomic.Int32
}

func (s releasedTurn) Learned(ctx context.Context, user, source string) (store.Learned, error) {
	if s.calls.Add(1) == 1 {
		<-s.release
	}
	return s.Store.Learned(ctx, user, source)
}

// TestShutdownFinishesTurn: a graceful shutdown ends open streams with a
// final event at once, but waits for the turn in flight, which is stored
// with its outcome.
func TestShutdownFinishesTurn(t *testing.T) {
	release := make(chan struct{})
	h := startWith(t, func(st store.Store) store.Store {
		return releasedTurn{Store: st, release: release, calls: new(atomic.Int32)}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp := h.streamCtx(ctx, "POST", "/v1/conversations", map[string]any{"question": "Show me the patients who have severe wounds"}, 0)
	defer resp.Body.Close()
	rd := newSSEReader(resp.Body)
	first := rd.read(t, "conversation")
	var conv struct {
		ID string `json:"conversation_id"`
	}
	if len(first) != 1 || json.Unmarshal([]byte(first[0].data), &conv) != nil {
		t.Fatalf("first events %v, want the conversation event", first)
	}
	stopped := make(chan struct{})
	go func() { h.srv.Shutdown(ctx); close(stopped) }()
	if evs := rd.read(t, "shutdown"); len(evs) == 0 || evs[len(evs)-1].event != "shutdown" {
		t.Fatalf("stream events during shutdown: %v, want a final shutdown event", kinds(evs))
	}
	select {
	case <-stopped:
		t.Fatal("Shutdown returned while a turn was still running")
	default:
	}
	close(release)
	<-stopped
	var view struct {
		Status  string `json:"status"`
		Pending *struct {
			ID string `json:"id"`
		} `json:"pending_clarification"`
	}
	if code := h.do("GET", "/v1/conversations/"+conv.ID, "", nil, &view); code != 200 {
		t.Fatalf("GET after shutdown: %d", code)
	}
	if view.Status != "awaiting_clarification" || view.Pending == nil {
		t.Errorf("after shutdown the turn left status %q, pending %v; want it finished: awaiting_clarification with the question", view.Status, view.Pending)
	}
}

func TestBusy(t *testing.T) {
	h := start(t)
	var r result
	h.do("POST", "/v1/conversations", "", map[string]any{"question": "Show me the patients who have severe wounds"}, &r)
	// many answers at once: exactly one wins, the others are busy (409) or stale
	var wg sync.WaitGroup
	codes := make(chan int, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e result
			codes <- h.do("POST", "/v1/conversations/"+r.ConversationID+"/messages", "", map[string]any{"answer": map[string]any{"clarification_id": r.Clarification.ID, "skipped": true}}, &e)
		}()
	}
	wg.Wait()
	close(codes)
	ok, conflict := 0, 0
	for c := range codes {
		switch c {
		case 200:
			ok++
		case 409:
			conflict++
		default:
			t.Errorf("unexpected status %d", c)
		}
	}
	if ok != 1 || conflict != 7 {
		t.Errorf("%d answered and %d conflicts, want 1 and 7", ok, conflict)
	}
}

func TestUsersAndLearning(t *testing.T) {
	h := start(t, server.Key{User: "ana", SHA256: server.HashKey("ana-key")}, server.Key{User: "bo", SHA256: server.HashKey("bo-key")})
	var e struct{ Error struct{ Code string } }
	if st := h.do("POST", "/v1/conversations", "", map[string]any{"question": "old wounds"}, &e); st != 401 || e.Error.Code != "UNAUTHORIZED" {
		t.Fatalf("no key: %d %q", st, e.Error.Code)
	}
	if st := h.do("POST", "/v1/conversations", "wrong", map[string]any{"question": "old wounds"}, &e); st != 401 {
		t.Fatalf("wrong key: %d", st)
	}
	askAnswer := func(key string) result {
		var r result
		h.do("POST", "/v1/conversations", key, map[string]any{"question": "old wounds by clinic"}, &r)
		if r.Status != "needs_clarification" {
			return r
		}
		var a result
		h.do("POST", "/v1/conversations/"+r.ConversationID+"/messages", key, map[string]any{"answer": map[string]any{"clarification_id": r.Clarification.ID, "option_id": optionID(t, r, "6 months")}}, &a)
		return r
	}
	first := askAnswer("ana-key")
	// another user cannot see or answer ana's conversation
	if st := h.do("GET", "/v1/conversations/"+first.ConversationID, "bo-key", nil, &e); st != 404 {
		t.Errorf("bo reads ana's conversation: %d", st)
	}
	askAnswer("ana-key")
	askAnswer("ana-key")
	// the fourth time ana is not asked; the choice is shown as her usual one
	var r result
	if st := h.do("POST", "/v1/conversations", "ana-key", map[string]any{"question": "old wounds by clinic"}, &r); st != 200 {
		t.Fatalf("after three identical answers ana was asked again: %d %+v", st, r.Clarification)
	}
	found := false
	for _, a := range r.Answer.Assumptions {
		if a.Slot == "vague:old" && a.Method == "preference" {
			found = true
		}
	}
	if !found {
		t.Errorf("the learned choice is not shown as an assumption: %+v", r.Answer.Assumptions)
	}
	// bo is still asked
	var rb result
	if st := h.do("POST", "/v1/conversations", "bo-key", map[string]any{"question": "old wounds by clinic"}, &rb); st != 202 {
		t.Errorf("bo was not asked: %d", st)
	}
	var prefs struct {
		Preferences []struct {
			Key     string `json:"key"`
			Applied bool   `json:"applied"`
		} `json:"preferences"`
	}
	h.do("GET", "/v1/preferences", "ana-key", nil, &prefs)
	key := ""
	for _, p := range prefs.Preferences {
		if strings.HasSuffix(p.Key, "vague:old") && p.Applied {
			key = p.Key
		}
	}
	if key == "" {
		t.Fatalf("preferences %+v lack the applied vague:old", prefs)
	}
	if st := h.do("DELETE", "/v1/preferences/"+key, "ana-key", nil, nil); st != 204 {
		t.Errorf("forget: %d", st)
	}
	if st := h.do("POST", "/v1/conversations", "ana-key", map[string]any{"question": "old wounds by clinic"}, &r); st != 202 {
		t.Errorf("after forgetting, ana was not asked again: %d", st)
	}
	// never ask me: answered with assumptions
	h.do("PUT", "/v1/preferences/never_ask", "bo-key", map[string]any{"value": true}, nil)
	if st := h.do("POST", "/v1/conversations", "bo-key", map[string]any{"question": "big wounds"}, &r); st != 200 {
		t.Errorf("never ask: %d", st)
	}
}

func TestRemember(t *testing.T) {
	h := start(t)
	var r result
	h.do("POST", "/v1/conversations", "", map[string]any{"question": "small wounds by location"}, &r)
	var a result
	h.do("POST", "/v1/conversations/"+r.ConversationID+"/messages", "", map[string]any{"answer": map[string]any{"clarification_id": r.Clarification.ID, "option_id": optionID(t, r, "10"), "remember": true}}, &a)
	if st := h.do("POST", "/v1/conversations", "", map[string]any{"question": "small wounds by location"}, &r); st != 200 {
		t.Errorf("a remembered choice was asked again: %d", st)
	}
}

func TestChangeAssumptionAndFollowUp(t *testing.T) {
	h := start(t)
	var r result
	if st := h.do("POST", "/v1/conversations", "", map[string]any{"question": "big wounds at Harbor Health", "interactive": false}, &r); st != 200 {
		t.Fatalf("non-interactive: %d", st)
	}
	before := r.Answer.RowCount
	var c result
	if st := h.do("POST", "/v1/conversations/"+r.ConversationID+"/assumptions/vague:large", "", map[string]any{"option_id": "area_gt_10"}, &c); st != 200 {
		t.Fatalf("change: %d %+v", st, c.Error)
	}
	if c.Answer.RowCount <= before || !strings.Contains(c.Answer.Statement, "Harbor Health") {
		t.Errorf("changed threshold: %d rows (was %d), statement %q", c.Answer.RowCount, before, c.Answer.Statement)
	}
	var f result
	if st := h.do("POST", "/v1/conversations/"+r.ConversationID+"/messages", "", map[string]any{"text": "only the infected ones"}, &f); st != 200 {
		t.Fatalf("follow-up: %d %+v", st, f.Error)
	}
	if f.Answer.RowCount >= c.Answer.RowCount || !strings.Contains(f.Answer.Statement, "nfected") {
		t.Errorf("refined: %d rows (was %d), statement %q", f.Answer.RowCount, c.Answer.RowCount, f.Answer.Statement)
	}
}

func TestOpenAPIAndOps(t *testing.T) {
	h := start(t)
	var doc map[string]any
	if st := h.do("GET", "/v1/openapi.json", "", nil, &doc); st != 200 || doc["openapi"] != "3.1.0" {
		t.Errorf("openapi: %d %v", st, doc["openapi"])
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if st := h.do("GET", p, "", nil, nil); st != 200 {
			t.Errorf("%s: %d", p, st)
		}
	}
	resp, err := http.Get(h.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(data, []byte("clarify_http_requests_total")) {
		t.Error("metrics lack clarify_http_requests_total")
	}
	var stats map[string]any
	if st := h.do("GET", "/v1/stats", "", nil, &stats); st != 200 || stats["stats"] == nil {
		t.Errorf("stats: %d %v", st, stats)
	}
}

// TestOpsNeedAKey: with API keys, the metrics and the API description
// need a key like the API (they name users' sources and error rates);
// the probes do not.
func TestOpsNeedAKey(t *testing.T) {
	h := start(t, server.Key{User: "ana", SHA256: server.HashKey("ana-secret")})
	for _, p := range []string{"/metrics", "/v1/openapi.json"} {
		if st := h.do("GET", p, "", nil, nil); st != http.StatusUnauthorized {
			t.Errorf("%s without a key: %d, want 401", p, st)
		}
		if st := h.do("GET", p, "ana-secret", nil, nil); st != http.StatusOK {
			t.Errorf("%s with a key: %d, want 200", p, st)
		}
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if st := h.do("GET", p, "", nil, nil); st != http.StatusOK {
			t.Errorf("%s without a key: %d, want 200", p, st)
		}
	}
}

// TestStatsPerUser: with keys, /v1/stats counts the caller's own
// conversations; an admin key sees everyone's.
func TestStatsPerUser(t *testing.T) {
	h := start(t, server.Key{User: "ana", SHA256: server.HashKey("ana-secret"), Admin: true},
		server.Key{User: "bo", SHA256: server.HashKey("bo-secret")},
		server.Key{User: "cy", SHA256: server.HashKey("cy-secret")})
	for range 2 {
		if code := h.do("POST", "/v1/conversations", "bo-secret", map[string]any{"question": "how many wounds", "source": "clinic"}, nil); code != 200 {
			t.Fatalf("bo's question: %d", code)
		}
	}
	for key, want := range map[string]struct {
		scope string
		n     float64
	}{"ana-secret": {"all", 2}, "bo-secret": {"user", 2}, "cy-secret": {"user", 0}} {
		var out struct {
			Scope string         `json:"scope"`
			Stats map[string]any `json:"stats"`
		}
		if code := h.do("GET", "/v1/stats", key, nil, &out); code != 200 {
			t.Fatalf("%s: %d", key, code)
		}
		if out.Scope != want.scope || out.Stats["conversations"] != want.n {
			t.Errorf("%s: scope %q, %v conversations; want %q, %v", key, out.Scope, out.Stats["conversations"], want.scope, want.n)
		}
	}
}

func TestCrossOrigin(t *testing.T) {
	h := start(t)
	req, _ := http.NewRequest("POST", h.url+"/v1/conversations", strings.NewReader(`{"question":"old wounds"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("a cross-site POST got %d, want 403", resp.StatusCode)
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("CORS is on by default")
	}
}
