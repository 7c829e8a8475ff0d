package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client talks to one OpenAI-compatible endpoint and model. It is safe for
// concurrent use.
type Client struct {
	cfg   Config
	stats *Stats
}

// New returns a client for cfg, or the reasons cfg is unusable.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("llm config: %w", err)
	}
	return &Client{cfg: cfg.withDefaults(), stats: newStats()}, nil
}

// Model is the configured model name.
func (c *Client) Model() string { return c.cfg.Model }

// Stats returns a snapshot of the client's counters since it was made.
func (c *Client) Stats() Snapshot { return c.stats.snapshot() }

// Chat sends req and returns the whole reply.
func (c *Client) Chat(ctx context.Context, req Request) (Response, error) {
	return c.call(ctx, "chat", req, nil)
}

// Stream sends req as a streamed call: each piece of the reply is passed to
// fn as it arrives, and the assembled reply is returned at the end. A stream
// that ends before the server says it is done is an ErrTruncated error, never
// a shorter reply. An error returned by fn stops the call and is returned.
// Failed attempts are retried only while nothing has been passed to fn.
func (c *Client) Stream(ctx context.Context, req Request, fn func(Delta) error) (Response, error) {
	if fn == nil {
		fn = func(Delta) error { return nil }
	}
	return c.call(ctx, "stream", req, fn)
}

// Causes that tell our own timeouts apart from the caller's cancellation.
var (
	errCallTimeout       = errors.New("call timeout")
	errFirstTokenTimeout = errors.New("first token timeout")
)

// attemptState is what one attempt reports back to the retry loop.
type attemptState struct {
	start     time.Time // start of the call, for time to first token
	delivered bool      // something was passed to the stream callback
}

// Retry describes a retry about to happen, for Config.OnRetry.
type Retry struct {
	// Attempt is the number of the attempt that failed, from 1.
	Attempt int
	// Wait is how long the client waits before the next attempt.
	Wait time.Duration
	// Err is why the attempt failed.
	Err error
}

func (c *Client) call(ctx context.Context, op string, req Request, fn func(Delta) error) (Response, error) {
	start := time.Now()
	resp, err := c.run(ctx, op, req, fn, start)
	resp.Latency = time.Since(start)
	if fn == nil && err == nil {
		resp.TimeToFirstToken = resp.Latency
	}
	c.record(Call{Model: c.cfg.Model, Stream: fn != nil, Usage: resp.Usage, Latency: resp.Latency,
		TimeToFirstToken: resp.TimeToFirstToken, Attempts: resp.Attempts, Err: err})
	if err != nil {
		return Response{}, err
	}
	return resp, nil
}

func (c *Client) run(ctx context.Context, op string, req Request, fn func(Delta) error, start time.Time) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, &Error{Kind: ErrBadRequest, Op: op, Detail: err.Error()}
	}
	body, err := c.wireBody(req, fn != nil)
	if err != nil {
		return Response{}, &Error{Kind: ErrBadRequest, Op: op, Detail: "cannot encode the request: " + excerpt(err.Error(), c.cfg.APIKey)}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, errCallTimeout)
	defer cancel()
	st := &attemptState{start: start}
	for attempt := 1; ; attempt++ {
		resp, err := c.attempt(ctx, op, body, fn, st)
		resp.Attempts = attempt
		if err == nil {
			return resp, nil
		}
		var e *Error
		if !errors.As(err, &e) {
			return Response{}, err // the callback's own error
		}
		e.Attempts = attempt
		if !retryable(e) || st.delivered || attempt > c.cfg.MaxRetries {
			return Response{}, e
		}
		wait := c.backoff(attempt, e.RetryAfter)
		if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
			return Response{}, e // waiting would outlive the call
		}
		if c.cfg.OnRetry != nil {
			c.cfg.OnRetry(Retry{Attempt: attempt, Wait: wait, Err: e})
		}
		c.stats.retry()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return Response{}, c.ctxError(ctx, op, attempt)
		case <-t.C:
		}
	}
}

// retryable reports whether another attempt may succeed.
func retryable(e *Error) bool {
	switch e.Kind {
	case ErrRateLimited, ErrServer, ErrConnection, ErrTruncated:
		return true
	}
	return e.Status == http.StatusRequestTimeout
}

// backoff is the wait before the attempt after attempt n: the server's
// Retry-After when it gave one, else an exponential backoff with jitter.
func (c *Client) backoff(n int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	d := c.cfg.Backoff
	for i := 1; i < n && d < c.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, c.cfg.MaxBackoff)
	return d/2 + rand.N(d/2+1)
}

// ctxError is the error for a call stopped by its context: our timeout, or
// the caller's cancellation (which the error unwraps to).
func (c *Client) ctxError(ctx context.Context, op string, attempts int) *Error {
	if errors.Is(context.Cause(ctx), errCallTimeout) {
		return &Error{Kind: ErrTimeout, Op: op, Attempts: attempts, Detail: "no complete reply within " + c.cfg.Timeout.String(), cause: context.DeadlineExceeded}
	}
	return &Error{Kind: errCanceled, Op: op, Attempts: attempts, cause: ctx.Err()}
}

// attempt makes one HTTP request and reads its reply.
func (c *Client) attempt(ctx context.Context, op string, body []byte, fn func(Delta) error, st *attemptState) (Response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var firstToken *time.Timer
	if fn != nil && !st.delivered {
		firstToken = time.AfterFunc(c.cfg.FirstTokenTimeout, func() { cancel(errFirstTokenTimeout) })
		defer firstToken.Stop()
	}
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, c.cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return Response{}, &Error{Kind: ErrBadRequest, Op: op, Detail: "cannot build the request"}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if fn != nil {
		hreq.Header.Set("Accept", "text/event-stream")
	} else {
		hreq.Header.Set("Accept", "application/json")
	}
	c.authorize(hreq)
	res, err := c.cfg.HTTPClient.Do(hreq)
	if err != nil {
		return Response{}, c.transportError(ctx, actx, op, err, ErrConnection)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return Response{}, c.statusError(op, res)
	}
	if fn == nil {
		return c.readJSON(ctx, actx, op, res.Body)
	}
	if ct := res.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
		// The server ignored "stream": a whole reply, passed on in one piece.
		resp, err := c.readJSON(ctx, actx, op, res.Body)
		if err != nil {
			return resp, err
		}
		if firstToken != nil {
			firstToken.Stop()
		}
		resp.TimeToFirstToken = time.Since(st.start)
		st.delivered = true
		return resp, deliverWhole(resp, fn)
	}
	s := &sse{c: c, op: op, fn: fn, st: st, firstToken: firstToken}
	return s.read(ctx, actx, res.Body)
}

func (c *Client) authorize(r *http.Request) {
	if c.cfg.APIKey != "" {
		r.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
}

// transportError classifies an error from sending or reading: our timeouts,
// the caller's cancellation, else kind (a connection failure or a cut stream).
func (c *Client) transportError(ctx, actx context.Context, op string, err error, kind error) *Error {
	switch {
	case ctx.Err() != nil:
		return c.ctxError(ctx, op, 0)
	case errors.Is(context.Cause(actx), errFirstTokenTimeout):
		return &Error{Kind: ErrFirstToken, Op: op, Detail: "nothing within " + c.cfg.FirstTokenTimeout.String(), cause: context.DeadlineExceeded}
	}
	detail := "the connection failed"
	if kind == ErrTruncated {
		detail = "the connection broke mid-reply"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message holds the whole URL
	}
	return &Error{Kind: kind, Op: op, Detail: detail + " (" + excerpt(err.Error(), c.cfg.APIKey) + ")", cause: err}
}

// maxErrorBody bounds how much of an error reply is read.
const maxErrorBody = 8 << 10

// statusError turns a non-200 reply into an Error.
func (c *Client) statusError(op string, res *http.Response) *Error {
	raw, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	msg := serverMessage(raw)
	e := &Error{Op: op, Status: res.StatusCode, Detail: excerpt(msg, c.cfg.APIKey)}
	switch s := res.StatusCode; {
	case s == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		e.RetryAfter = retryAfter(res.Header.Get("Retry-After"), c.cfg.Now())
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		e.Kind = ErrAuth
	case s == http.StatusNotFound:
		e.Kind = ErrNotFound
	case s == http.StatusRequestTimeout:
		e.Kind = ErrTimeout
	case s == http.StatusNotImplemented:
		e.Kind = ErrUnsupported
	case s >= 500:
		e.Kind = ErrServer
	case unsupportedText(msg):
		e.Kind = ErrUnsupported
	default:
		e.Kind = ErrBadRequest
	}
	return e
}

// serverMessage finds the human message in an error body, whichever of the
// common shapes it has: OpenAI's {"error":{"message"}}, {"error":"…"}
// (Ollama), {"message"} (vLLM), {"detail"}; else the raw text.
func serverMessage(raw []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var nested struct {
		Message string `json:"message"`
	}
	var flat string
	switch {
	case json.Unmarshal(v.Error, &nested) == nil && nested.Message != "":
		return nested.Message
	case json.Unmarshal(v.Error, &flat) == nil && flat != "":
		return flat
	case v.Message != "":
		return v.Message
	case v.Detail != nil:
		return fmt.Sprint(v.Detail)
	}
	return string(raw)
}

// unsupportedText reports whether a 400's message says a feature is not
// supported, as servers without tools or JSON schema word it.
func unsupportedText(msg string) bool {
	m := strings.ToLower(msg)
	for _, w := range []string{"not support", "unsupported", "not implemented", "does not support"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || s > 24*3600 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// maxBody bounds a whole (non-streamed) reply.
const maxBody = 16 << 20

// readJSON reads a whole chat-completions reply.
func (c *Client) readJSON(ctx, actx context.Context, op string, body io.Reader) (Response, error) {
	raw, err := io.ReadAll(io.LimitReader(body, maxBody))
	if err != nil {
		return Response{}, c.transportError(ctx, actx, op, err, ErrConnection)
	}
	var w wireResponse
	if err := json.Unmarshal(raw, &w); err != nil {
		return Response{}, &Error{Kind: ErrBadResponse, Op: op, Detail: "the body is not JSON: " + excerpt(string(raw), c.cfg.APIKey)}
	}
	if w.Error != nil {
		return Response{}, &Error{Kind: ErrServer, Op: op, Detail: excerpt(w.Error.Message, c.cfg.APIKey)}
	}
	if len(w.Choices) == 0 || w.Choices[0].Message == nil {
		return Response{}, &Error{Kind: ErrBadResponse, Op: op, Detail: "the reply has no message"}
	}
	ch := w.Choices[0]
	resp := Response{Model: w.Model}
	if ch.Message.Content != nil {
		resp.Content = *ch.Message.Content
	}
	if ch.Message.Refusal != nil {
		resp.Refusal = *ch.Message.Refusal
	}
	if ch.FinishReason != nil {
		resp.FinishReason = *ch.FinishReason
	}
	for _, tc := range ch.Message.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: string(tc.Function.Arguments)})
	}
	if w.Usage != nil {
		resp.Usage = Usage{PromptTokens: w.Usage.PromptTokens, CompletionTokens: w.Usage.CompletionTokens, TotalTokens: w.Usage.TotalTokens}
	}
	return resp, nil
}

// deliverWhole passes a whole reply to a stream callback.
func deliverWhole(resp Response, fn func(Delta) error) error {
	if resp.Content != "" {
		if err := fn(Delta{Content: resp.Content}); err != nil {
			return err
		}
	}
	for i, tc := range resp.ToolCalls {
		if err := fn(Delta{ToolCall: &ToolCallDelta{Index: i, ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments}}); err != nil {
			return err
		}
	}
	return nil
}

// checkRequest rejects a request no server could answer.
func checkRequest(req Request) error {
	if len(req.Messages) == 0 {
		return errors.New("no messages")
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant:
		case RoleTool:
			if m.ToolCallID == "" {
				return fmt.Errorf("message %d: a tool message needs the id of the call it answers", i)
			}
		default:
			return fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	for _, t := range req.Tools {
		if t.Name == "" {
			return errors.New("a tool has no name")
		}
		if len(t.Parameters) > 0 && !json.Valid(t.Parameters) {
			return fmt.Errorf("tool %s: parameters are not JSON", t.Name)
		}
	}
	if req.ToolChoice.Mode != "" && req.ToolChoice.Mode != "auto" && req.ToolChoice.Mode != "none" && req.ToolChoice.Mode != "required" {
		return fmt.Errorf("unknown tool choice %q", req.ToolChoice.Mode)
	}
	switch req.Format.Type {
	case FormatText, FormatJSONObject:
	case FormatJSONSchema:
		if req.Format.Name == "" || !json.Valid(req.Format.Schema) {
			return errors.New("a JSON-schema format needs a name and a schema")
		}
	default:
		return fmt.Errorf("unknown response format %q", req.Format.Type)
	}
	return nil
}
