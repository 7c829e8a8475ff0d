// Package llmtest is a test server that speaks the OpenAI chat-completions
// wire protocol and replays transcripts: readable YAML files, each a list of
// exchanges (what the client must send, what the server answers: a JSON
// body, a stream of server-sent events, a status with headers, a delay, a
// cut). It checks every request strictly, so a client that sends the wrong
// method, path, key or body fails the test that uses it.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// Transcript is one recorded conversation with an endpoint.
type Transcript struct {
	// Exchanges are answered in order.
	Exchanges []Exchange `yaml:"exchanges"`
}

// Exchange is one request and its reply.
type Exchange struct {
	Expect Expect `yaml:"expect"`
	Reply  Reply  `yaml:"reply"`
	// Repeat makes this exchange answer every further request.
	Repeat bool `yaml:"repeat"`
}

// Expect is what the client must send.
type Expect struct {
	// Method defaults to POST; Path to /v1/chat/completions.
	Method string `yaml:"method"`
	Path   string `yaml:"path"`
	// Body lists fields the JSON body must have, compared as a subset:
	// objects may have more keys, arrays and scalars must be equal.
	Body map[string]any `yaml:"body"`
	// Absent lists top-level body keys that must not be sent.
	Absent []string `yaml:"absent"`
}

// Reply is what the server answers.
type Reply struct {
	// Status defaults to 200.
	Status  int               `yaml:"status"`
	Headers map[string]string `yaml:"headers"`
	// JSON is a whole body sent as application/json.
	JSON string `yaml:"json"`
	// Raw is a body sent as is, with ContentType.
	Raw         string `yaml:"raw"`
	ContentType string `yaml:"content_type"`
	// SSE are the data of server-sent events, one per chunk, sent as
	// text/event-stream and flushed one by one.
	SSE []string `yaml:"sse"`
	// Delay is waited before the body's first byte.
	Delay time.Duration `yaml:"delay"`
	// Reset aborts the connection after the chunks (no clean end).
	Reset bool `yaml:"reset"`
	// Hang, after the chunks, keeps the response open until the client
	// goes away, then marks the server Gone.
	Hang bool `yaml:"hang"`
}

// Load reads a transcript strictly (unknown keys are errors).
func Load(t testing.TB, path string) Transcript {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read transcript: %v", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var tr Transcript
	if err := dec.Decode(&tr); err != nil {
		t.Fatalf("transcript %s: %v", path, err)
	}
	if len(tr.Exchanges) == 0 {
		t.Fatalf("transcript %s has no exchanges", path)
	}
	return tr
}

// Server replays one transcript.
type Server struct {
	// URL is the API root to configure a client with (…/v1).
	URL string

	t    testing.TB
	key  string
	tr   Transcript
	srv  *httptest.Server
	gone chan struct{}

	mu     sync.Mutex
	next   int
	bodies []map[string]any
}

// Start serves the transcript at path, expecting the API key key ("" for
// none) on every request; the server closes when the test ends.
func Start(t testing.TB, path, key string) *Server {
	t.Helper()
	s := &Server{t: t, key: key, tr: Load(t, path), gone: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// Requests is how many requests the server received.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// Bodies are the JSON bodies received, in order (nil for a GET).
func (s *Server) Bodies() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies)
}

// Gone is closed when a hanging reply saw its client close the connection.
func (s *Server) Gone() <-chan struct{} { return s.gone }

// Exhausted reports whether every exchange was used.
func (s *Server) Exhausted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next >= len(s.tr.Exchanges)
}

func (s *Server) take() (Exchange, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.tr.Exchanges) {
		last := s.tr.Exchanges[len(s.tr.Exchanges)-1]
		return last, last.Repeat
	}
	ex := s.tr.Exchanges[s.next]
	if !ex.Repeat {
		s.next++
	}
	return ex, true
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if r.Method == http.MethodPost {
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		if err := dec.Decode(&body); err != nil {
			s.t.Errorf("request body is not a JSON object: %v", err)
		}
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.mu.Unlock()
	ex, ok := s.take()
	if !ok {
		s.t.Errorf("unexpected request %d: %s %s (the transcript has %d exchanges)", s.Requests(), r.Method, r.URL.Path, len(s.tr.Exchanges))
		http.Error(w, `{"error":{"message":"no more exchanges"}}`, http.StatusTeapot)
		return
	}
	for _, p := range s.check(ex.Expect, r, body) {
		s.t.Errorf("request %d: %s", s.Requests(), p)
	}
	s.reply(w, r, ex.Reply)
}

// check returns every way the request differs from the protocol and from
// the expectation.
func (s *Server) check(want Expect, r *http.Request, body map[string]any) []string {
	var bad []string
	method, path := cmp(want.Method, http.MethodPost), cmp(want.Path, "/v1/chat/completions")
	if r.Method != method || r.URL.Path != path {
		bad = append(bad, fmt.Sprintf("got %s %s, want %s %s", r.Method, r.URL.Path, method, path))
	}
	auth := r.Header.Get("Authorization")
	if s.key == "" && auth != "" || s.key != "" && auth != "Bearer "+s.key {
		bad = append(bad, fmt.Sprintf("Authorization header %q is not the bearer key", auth))
	}
	if r.Method != http.MethodPost {
		return bad
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		bad = append(bad, fmt.Sprintf("Content-Type %q, want application/json", ct))
	}
	bad = append(bad, protocol(body)...)
	if stream, _ := body["stream"].(bool); stream && r.Header.Get("Accept") != "text/event-stream" {
		bad = append(bad, "a stream request without Accept: text/event-stream")
	}
	if want.Body != nil {
		exp := normalize(want.Body)
		got := normalize(body)
		bad = append(bad, subset(exp, got, "body")...)
	}
	for _, k := range want.Absent {
		if _, ok := body[k]; ok {
			bad = append(bad, fmt.Sprintf("body has %q, want it absent", k))
		}
	}
	return bad
}

// topLevel are the chat-completions request fields this server accepts.
var topLevel = []string{"model", "messages", "temperature", "max_tokens", "tools", "tool_choice",
	"response_format", "stream", "stream_options"}

// protocol checks the body's shape against the chat-completions API.
func protocol(body map[string]any) []string {
	var bad []string
	for k := range body {
		if !slices.Contains(topLevel, k) {
			bad = append(bad, fmt.Sprintf("unknown request field %q", k))
		}
	}
	if m, _ := body["model"].(string); m == "" {
		bad = append(bad, "no model")
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		bad = append(bad, "no messages")
	}
	for i, m := range msgs {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		switch role {
		case "system", "user":
			if _, ok := mm["content"].(string); !ok {
				bad = append(bad, fmt.Sprintf("message %d (%s) has no string content", i, role))
			}
		case "assistant":
			if _, ok := mm["content"]; !ok {
				bad = append(bad, fmt.Sprintf("message %d (assistant) has no content field", i))
			}
		case "tool":
			if id, _ := mm["tool_call_id"].(string); id == "" {
				bad = append(bad, fmt.Sprintf("message %d (tool) has no tool_call_id", i))
			}
		default:
			bad = append(bad, fmt.Sprintf("message %d has role %q", i, role))
		}
	}
	tools, _ := body["tools"].([]any)
	for i, t := range tools {
		tm, _ := t.(map[string]any)
		fn, _ := tm["function"].(map[string]any)
		if tm["type"] != "function" || fn == nil || fn["name"] == nil {
			bad = append(bad, fmt.Sprintf("tool %d is not {type: function, function: {name, …}}", i))
		}
	}
	if rf, ok := body["response_format"].(map[string]any); ok {
		switch rf["type"] {
		case "json_object", "text":
		case "json_schema":
			js, _ := rf["json_schema"].(map[string]any)
			if js == nil || js["name"] == nil || js["schema"] == nil {
				bad = append(bad, "response_format json_schema without name and schema")
			}
		default:
			bad = append(bad, fmt.Sprintf("response_format type %v", rf["type"]))
		}
	}
	if _, ok := body["temperature"]; !ok {
		bad = append(bad, "no temperature (servers default to a random one)")
	}
	return bad
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request, rep Reply) {
	for k, v := range rep.Headers {
		w.Header().Set(k, v)
	}
	status := cmp(rep.Status, http.StatusOK)
	switch {
	case rep.SSE != nil:
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
	case rep.JSON != "":
		w.Header().Set("Content-Type", "application/json")
	case rep.ContentType != "":
		w.Header().Set("Content-Type", rep.ContentType)
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.WriteHeader(status)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	switch {
	case rep.JSON != "":
		_, _ = w.Write([]byte(rep.JSON))
	case rep.Raw != "":
		_, _ = w.Write([]byte(rep.Raw))
	}
	for _, data := range rep.SSE {
		if _, err := fmt.Fprintf(w, "data: %s\n\n", data); err != nil {
			return
		}
		_ = rc.Flush()
	}
	switch {
	case rep.Reset:
		panic(http.ErrAbortHandler)
	case rep.Hang:
		<-r.Context().Done()
		close(s.gone)
	}
}

func cmp[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// normalize turns decoded YAML or JSON into plain JSON values (numbers as
// json.Number text) so the two compare.
func normalize(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

// subset reports where got lacks what want has: objects may have more
// keys, arrays must have the same length, scalars must be equal.
func subset(want, got any, at string) []string {
	if wa, ok := want.([]any); ok {
		ga, ok := got.([]any)
		if !ok || len(ga) != len(wa) {
			return []string{fmt.Sprintf("%s = %s, want %s", at, show(got), show(want))}
		}
		var bad []string
		for i := range wa {
			bad = append(bad, subset(wa[i], ga[i], fmt.Sprintf("%s[%d]", at, i))...)
		}
		return bad
	}
	wm, ok := want.(map[string]any)
	if !ok {
		if !reflect.DeepEqual(want, got) && !numbersEqual(want, got) {
			return []string{fmt.Sprintf("%s = %s, want %s", at, show(got), show(want))}
		}
		return nil
	}
	gm, ok := got.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s = %s, want an object", at, show(got))}
	}
	keys := make([]string, 0, len(wm))
	for k := range wm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var bad []string
	for _, k := range keys {
		g, ok := gm[k]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s.%s is missing", at, k))
			continue
		}
		bad = append(bad, subset(wm[k], g, at+"."+k)...)
	}
	return bad
}

func numbersEqual(a, b any) bool {
	an, ok1 := a.(json.Number)
	bn, ok2 := b.(json.Number)
	if !ok1 || !ok2 {
		return false
	}
	af, err1 := an.Float64()
	bf, err2 := bn.Float64()
	return err1 == nil && err2 == nil && af == bf
}

func show(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(raw)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.TrimSpace(s)
}
