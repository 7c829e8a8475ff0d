package llm

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Kinds of failure, checked with errors.Is. Every error a call returns is an
// *Error whose Kind is one of these (or wraps the context's error when the
// caller cancelled).
var (
	// ErrRateLimited: the endpoint answered 429; Error.RetryAfter holds the
	// wait it asked for, when it said.
	ErrRateLimited = errors.New("rate limited by the model endpoint")
	// ErrServer: the endpoint failed (5xx, or an error event in a stream).
	ErrServer = errors.New("the model endpoint failed")
	// ErrBadResponse: the reply is not the protocol (malformed JSON, no
	// choices, an unexpected content type).
	ErrBadResponse = errors.New("malformed reply from the model endpoint")
	// ErrUnsupported: the endpoint does not support what was asked (tools,
	// a JSON schema, a route).
	ErrUnsupported = errors.New("not supported by the model endpoint")
	// ErrAuth: the endpoint refused the key (401, 403).
	ErrAuth = errors.New("the model endpoint refused the API key")
	// ErrNotFound: the route or the model does not exist (404).
	ErrNotFound = errors.New("not found at the model endpoint")
	// ErrBadRequest: the endpoint rejected the request (other 4xx), or the
	// request was invalid before sending.
	ErrBadRequest = errors.New("the model endpoint rejected the request")
	// ErrTimeout: the call's Timeout ran out.
	ErrTimeout = errors.New("the model endpoint timed out")
	// ErrFirstToken: a stream's first token did not arrive within
	// FirstTokenTimeout. It is also an ErrTimeout.
	ErrFirstToken = errors.New("no first token from the model in time")
	// ErrTruncated: a stream ended before its end; what arrived is not a
	// whole reply.
	ErrTruncated = errors.New("the model's reply was cut off")
	// ErrConnection: the endpoint could not be reached or reset the
	// connection.
	ErrConnection = errors.New("cannot reach the model endpoint")
)

// Error is a failed call. Its message is safe to show a user: it never holds
// the API key, and at most a short excerpt of what the server sent.
type Error struct {
	// Kind is one of the Err* values above.
	Kind error
	// Op is what was being done: "chat", "stream", "list models".
	Op string
	// Status is the HTTP status, when there was one.
	Status int
	// RetryAfter is the wait the server asked for (Retry-After), if any.
	RetryAfter time.Duration
	// Attempts is how many requests were made.
	Attempts int
	// Detail is a short, redacted excerpt of the server's message.
	Detail string
	cause  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm ")
	b.WriteString(e.Op)
	b.WriteString(": ")
	b.WriteString(e.Kind.Error())
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, ", retry after %s", e.RetryAfter)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Is matches the Kind, and ErrTimeout for ErrFirstToken.
func (e *Error) Is(target error) bool {
	return target == e.Kind || (e.Kind == ErrFirstToken && target == ErrTimeout)
}

// Unwrap returns the cause (a context error when the caller cancelled).
func (e *Error) Unwrap() error { return e.cause }

// KindName is the metric label of an error: "rate_limited", "server", … or
// "canceled"; "" for nil.
func KindName(err error) string {
	var e *Error
	if err == nil {
		return ""
	}
	if !errors.As(err, &e) {
		return "other"
	}
	switch e.Kind {
	case ErrRateLimited:
		return "rate_limited"
	case ErrServer:
		return "server"
	case ErrBadResponse:
		return "bad_response"
	case ErrUnsupported:
		return "unsupported"
	case ErrAuth:
		return "auth"
	case ErrNotFound:
		return "not_found"
	case ErrBadRequest:
		return "bad_request"
	case ErrTimeout:
		return "timeout"
	case ErrFirstToken:
		return "first_token_timeout"
	case ErrTruncated:
		return "truncated"
	case ErrConnection:
		return "connection"
	case errCanceled:
		return "canceled"
	}
	return "other"
}

// errCanceled is the Kind of a call the caller cancelled; the Error then
// unwraps to context.Canceled or context.DeadlineExceeded.
var errCanceled = errors.New("call cancelled")

// excerptLen bounds how much of a server's text reaches an error message.
const excerptLen = 200

// excerpt returns a short, single-line, key-free excerpt of server text.
func excerpt(s, key string) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > excerptLen {
		cut := excerptLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
