package llm_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
)

// bodyTransport answers every request with one streamed body, without a
// network: the bytes reach the client's stream parser as a server's would.
// Chunk, when above zero, is the most bytes one Read of the body returns.
type bodyTransport struct {
	body  []byte
	chunk int
}

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	var body io.Reader = bytes.NewReader(b.body)
	if b.chunk > 0 {
		body = &chunkReader{r: body, n: b.chunk}
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(body),
		Request:    r,
	}, nil
}

// chunkReader returns at most n bytes per Read, as a slow network would.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// streamed is what one streamed call gave: the deltas passed to the
// callback, the assembled reply and the error.
type streamed struct {
	deltas []llm.Delta
	resp   llm.Response
	err    error
}

// streamBody sends one streamed call whose reply body is body, with no
// retries, and fails the test if it does not return within a bound.
func streamBody(t *testing.T, tr bodyTransport) streamed {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: "http://model.invalid/v1", Model: "test-model",
		MaxRetries: -1, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan streamed, 1)
	go func() {
		var out streamed
		out.resp, out.err = c.Stream(context.Background(), llm.Request{Messages: user("hi")}, func(d llm.Delta) error {
			out.deltas = append(out.deltas, d)
			return nil
		})
		done <- out
	}()
	select {
	case out := <-done:
		return out
	case <-time.After(20 * time.Second):
		t.Fatalf("the stream of %d bytes was not read within 20 s", len(tr.body))
		return streamed{}
	}
}

// streamSeeds are the streamed bodies of the transcripts in testdata, as
// the replaying server sends them, and variants of them: CRLF line ends,
// comments and other fields between events, events split over several data
// lines, a stream cut in the middle of an event, a line longer than the
// reader's buffer.
func streamSeeds(t testing.TB) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var bodies [][]byte
	for _, p := range paths {
		for _, ex := range llmtest.Load(t, p).Exchanges {
			if ex.Reply.SSE == nil {
				continue
			}
			var b bytes.Buffer
			for _, data := range ex.Reply.SSE {
				b.WriteString("data: " + data + "\n\n")
			}
			bodies = append(bodies, b.Bytes())
		}
	}
	if len(bodies) < 5 {
		t.Fatalf("only %d streamed transcripts in testdata", len(bodies))
	}
	var seeds [][]byte
	for _, b := range bodies {
		s := string(b)
		seeds = append(seeds, b,
			[]byte(strings.ReplaceAll(s, "\n", "\r\n")),
			[]byte(": keep-alive\n\nevent: chunk\nid: 7\nretry: 10\n"+strings.ReplaceAll(s, "\n\n", "\n\n: ping\n\n")),
			[]byte(s[:len(s)/2]))
	}
	long := `{"choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 100<<10) + `"},"finish_reason":"stop"}]}`
	seeds = append(seeds,
		[]byte("data: "+long+"\n\ndata: [DONE]\n\n"),
		[]byte("data: {\"choices\":[{\"index\":0,\ndata: \"delta\":{\"content\":\"two lines\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]"),
		[]byte("data:{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":{\"k\":1}}}]},\"finish_reason\":\"stop\"}]}\n\n"),
		[]byte(""),
	)
	return seeds
}

// FuzzStream feeds arbitrary bytes to the client as a streamed
// chat-completions body. Whatever the bytes, the call returns in bounded
// time; a failure is an *llm.Error with a kind; a success's reply is what
// its deltas add up to (content, and each tool call's id, name and
// arguments); and how the body is split into reads changes nothing.
func FuzzStream(f *testing.F) {
	for _, s := range streamSeeds(f) {
		f.Add(s, uint8(0))
		f.Add(s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, body []byte, chunk uint8) {
		whole := streamBody(t, bodyTransport{body: body})
		checkStreamed(t, whole)
		if chunk == 0 {
			return
		}
		split := streamBody(t, bodyTransport{body: body, chunk: int(chunk)})
		if diff := cmp.Diff(summary(whole), summary(split)); diff != "" {
			t.Errorf("read in pieces of %d bytes, the stream gives another result (-whole +pieces):\n%s", chunk, diff)
		}
	})
}

// checkStreamed checks one call's result against the properties of
// FuzzStream.
func checkStreamed(t *testing.T, s streamed) {
	t.Helper()
	if s.err != nil {
		var e *llm.Error
		if !errors.As(s.err, &e) {
			t.Fatalf("error %v (%T) is not an *llm.Error", s.err, s.err)
		}
		if e.Kind == nil || llm.KindName(s.err) == "other" {
			t.Fatalf("error %v has no kind", s.err)
		}
		return
	}
	var content strings.Builder
	var calls []llm.ToolCall
	for _, d := range s.deltas {
		content.WriteString(d.Content)
		tc := d.ToolCall
		if tc == nil {
			continue
		}
		if tc.Index < 0 {
			t.Fatalf("a tool-call delta has index %d", tc.Index)
		}
		for len(calls) <= tc.Index {
			calls = append(calls, llm.ToolCall{})
		}
		c := &calls[tc.Index]
		if c.ID == "" {
			c.ID = tc.ID
		}
		if c.Name == "" {
			c.Name = tc.Name
		}
		c.Arguments += tc.Arguments
	}
	if got, want := s.resp.Content, content.String(); got != want {
		t.Errorf("reply content %q, the deltas add up to %q", got, want)
	}
	if diff := cmp.Diff(calls, s.resp.ToolCalls); diff != "" {
		t.Errorf("reply tool calls differ from what the deltas add up to (-deltas +reply):\n%s", diff)
	}
}

// streamSummary is a call's result without what depends on the clock.
type streamSummary struct {
	Deltas  []llm.Delta
	Content string
	Calls   []llm.ToolCall
	Finish  string
	Usage   llm.Usage
	Kind    string
	Detail  string
}

func summary(s streamed) streamSummary {
	out := streamSummary{Deltas: s.deltas, Content: s.resp.Content, Calls: s.resp.ToolCalls,
		Finish: s.resp.FinishReason, Usage: s.resp.Usage, Kind: llm.KindName(s.err)}
	var e *llm.Error
	if errors.As(s.err, &e) {
		out.Detail = e.Detail
	}
	return out
}

// endless is a body that never ends: the same bytes again and again.
type endless struct {
	pattern []byte
	read    int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.pattern[(e.read+int64(i))%int64(len(e.pattern))]
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestStreamEventBound: a server that sends one endless line, or an event
// of endless data lines, gets a malformed-reply error once an event passes
// 4 MiB (the stream parser's bound), not a client that reads on until its
// memory or its timeout runs out.
func TestStreamEventBound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		pattern string
	}{
		{name: "one endless line", pattern: "data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{name: "endless data lines of one event", pattern: "data: xxxxxxxxxxxxxxxxxxxxxxxx\n"},
		{name: "endless CR", pattern: "\r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := &endless{pattern: []byte(tc.pattern)}
			c, err := llm.New(llm.Config{BaseURL: "http://model.invalid/v1", Model: "test-model", MaxRetries: -1,
				HTTPClient: &http.Client{Transport: readerTransport{body}}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Stream(context.Background(), llm.Request{Messages: user("hi")}, func(llm.Delta) error { return nil })
			if !errors.Is(err, llm.ErrBadResponse) {
				t.Fatalf("got %v, want %v", err, llm.ErrBadResponse)
			}
			// 4 MiB of an event's data, plus the field names and line
			// ends around it, plus one buffered read.
			if limit := int64(8 << 20); body.read > limit {
				t.Errorf("read %d bytes before giving up, want at most %d", body.read, limit)
			}
		})
	}
}

// readerTransport answers with a streamed body read from r.
type readerTransport struct{ r io.Reader }

func (rt readerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(rt.r), Request: r}, nil
}

// TestStreamToolCallIndex: a tool-call index is a position in the reply; one
// outside [0, 128) is a malformed reply, with or without an id (a negative
// index with an id once panicked the client, found by FuzzStream's corpus).
func TestStreamToolCallIndex(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		call  string
		calls int // tool calls in the reply; -1: a malformed-reply error
	}{
		{name: "first", call: `{"index":0,"id":"a","function":{"name":"f"}}`, calls: 1},
		{name: "last allowed", call: `{"index":127,"id":"a","function":{"name":"f"}}`, calls: 128},
		{name: "past the bound", call: `{"index":128,"id":"a","function":{"name":"f"}}`, calls: -1},
		{name: "negative with an id", call: `{"index":-1,"id":"a","function":{"name":"f"}}`, calls: -1},
		{name: "negative without an id", call: `{"index":-1,"function":{"arguments":"{}"}}`, calls: -1},
		{name: "no index, an id", call: `{"id":"a","function":{"name":"f"}}`, calls: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := `data: {"choices":[{"index":0,"delta":{"tool_calls":[` + tc.call + `]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
			s := streamBody(t, bodyTransport{body: []byte(body)})
			if tc.calls < 0 {
				if !errors.Is(s.err, llm.ErrBadResponse) {
					t.Fatalf("got %v, want %v", s.err, llm.ErrBadResponse)
				}
				return
			}
			if s.err != nil {
				t.Fatal(s.err)
			}
			if len(s.resp.ToolCalls) != tc.calls {
				t.Errorf("got %d tool calls, want %d", len(s.resp.ToolCalls), tc.calls)
			}
		})
	}
}
