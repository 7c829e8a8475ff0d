package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// maxEvent bounds one server-sent event.
const maxEvent = 4 << 20

// maxToolCalls bounds the tool calls of one reply.
const maxToolCalls = 128

// sse reads one streamed reply: server-sent events whose data are
// chat.completion.chunk objects, ended by "data: [DONE]".
type sse struct {
	c          *Client
	op         string
	fn         func(Delta) error
	st         *attemptState
	firstToken *time.Timer

	resp     Response
	done     bool // [DONE] seen
	finished bool // a finish_reason seen
}

func (s *sse) read(ctx, actx context.Context, body io.Reader) (Response, error) {
	r := bufio.NewReaderSize(body, 64<<10)
	var data bytes.Buffer
	for !s.done {
		line, err := readLine(r)
		if len(line) == 0 && err == nil && data.Len() > 0 {
			// a blank line dispatches the event
			if derr := s.dispatch(data.Bytes()); derr != nil {
				return Response{}, derr
			}
			data.Reset()
		}
		if err == io.EOF {
			// An event not ended by a blank line is incomplete and dropped
			// (as the SSE spec says), except a final [DONE].
			if string(bytes.TrimSpace(data.Bytes())) == "[DONE]" {
				s.done = true
			}
			break
		}
		if err != nil {
			if errors.Is(err, errEventTooLong) {
				return Response{}, &Error{Kind: ErrBadResponse, Op: s.op, Detail: "an event is longer than " + fmt.Sprint(maxEvent) + " bytes"}
			}
			return Response{}, s.c.transportError(ctx, actx, s.op, err, ErrTruncated)
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			if data.Len()+len(value) > maxEvent {
				return Response{}, &Error{Kind: ErrBadResponse, Op: s.op, Detail: "an event is longer than " + fmt.Sprint(maxEvent) + " bytes"}
			}
			data.Write(value)
		case "":
			// a comment (": keep-alive") or a blank line
		}
	}
	if !s.done && !s.finished {
		if ctx.Err() != nil || context.Cause(actx) != nil {
			return Response{}, s.c.transportError(ctx, actx, s.op, io.ErrUnexpectedEOF, ErrTruncated)
		}
		return Response{}, &Error{Kind: ErrTruncated, Op: s.op, Detail: "the stream ended before the reply did", cause: io.ErrUnexpectedEOF}
	}
	return s.resp, nil
}

var errEventTooLong = errors.New("event too long")

// readLine reads one line without its end (\n, \r\n), bounded by maxEvent.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxEvent {
			return nil, errEventTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				return bytes.TrimRight(line, "\r\n"), nil
			}
			return nil, err
		}
		return bytes.TrimRight(line, "\r\n"), nil
	}
}

// dispatch handles one event's data.
func (s *sse) dispatch(data []byte) error {
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		s.done = true
		return nil
	}
	var w wireResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return &Error{Kind: ErrBadResponse, Op: s.op, Detail: "a chunk is not JSON: " + excerpt(string(data), s.c.cfg.APIKey)}
	}
	if w.Error != nil {
		return &Error{Kind: ErrServer, Op: s.op, Detail: "error in the stream: " + excerpt(w.Error.Message, s.c.cfg.APIKey)}
	}
	if w.Model != "" {
		s.resp.Model = w.Model
	}
	if w.Usage != nil {
		s.resp.Usage = Usage{PromptTokens: w.Usage.PromptTokens, CompletionTokens: w.Usage.CompletionTokens, TotalTokens: w.Usage.TotalTokens}
	}
	for _, ch := range w.Choices {
		if ch.Index != 0 {
			continue // we ask for one choice
		}
		if ch.Delta != nil {
			if err := s.delta(ch.Delta); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			s.finished = true
			s.resp.FinishReason = *ch.FinishReason
		}
	}
	return nil
}

func (s *sse) delta(d *wireReplyMsg) error {
	if d.Content != nil && *d.Content != "" {
		s.resp.Content += *d.Content
		if err := s.deliver(Delta{Content: *d.Content}); err != nil {
			return err
		}
	}
	if d.Refusal != nil && *d.Refusal != "" {
		s.resp.Refusal += *d.Refusal
		s.token()
	}
	for _, tc := range d.ToolCalls {
		td, err := s.toolCall(tc)
		if err != nil {
			return err
		}
		if err := s.deliver(Delta{ToolCall: &td}); err != nil {
			return err
		}
	}
	return nil
}

// toolCall folds a tool-call delta into the reply. OpenAI numbers the calls
// by index; some servers omit the index (Ollama, Gemini) or repeat index 0
// for calls with different ids, so a call is also found by its id, and a
// delta with neither continues the last call. An index is a position in
// the reply: one outside [0, maxToolCalls) is a malformed reply, refused
// before it is used.
func (s *sse) toolCall(tc wireToolCall) (ToolCallDelta, error) {
	if tc.Index != nil && (*tc.Index < 0 || *tc.Index >= maxToolCalls) {
		return ToolCallDelta{}, &Error{Kind: ErrBadResponse, Op: s.op, Detail: fmt.Sprintf("tool call index %d is out of range", *tc.Index)}
	}
	calls := s.resp.ToolCalls
	idx := len(calls) - 1
	switch {
	case tc.Index != nil && (*tc.Index >= len(calls) || tc.ID == "" || calls[*tc.Index].ID == "" || calls[*tc.Index].ID == tc.ID):
		idx = *tc.Index
	case tc.ID != "":
		idx = len(calls)
		for i, c := range calls {
			if c.ID == tc.ID {
				idx = i
			}
		}
	}
	if idx < 0 {
		idx = 0
	}
	if idx >= maxToolCalls {
		return ToolCallDelta{}, &Error{Kind: ErrBadResponse, Op: s.op, Detail: fmt.Sprintf("tool call index %d is out of range", idx)}
	}
	for len(s.resp.ToolCalls) <= idx {
		s.resp.ToolCalls = append(s.resp.ToolCalls, ToolCall{})
	}
	c := &s.resp.ToolCalls[idx]
	if tc.ID != "" && c.ID == "" {
		c.ID = tc.ID
	}
	if tc.Function.Name != "" && c.Name == "" {
		c.Name = tc.Function.Name
	}
	c.Arguments += string(tc.Function.Arguments)
	return ToolCallDelta{Index: idx, ID: tc.ID, Name: tc.Function.Name, Arguments: string(tc.Function.Arguments)}, nil
}

// token notes the first token: it stops the first-token timer.
func (s *sse) token() {
	if s.resp.TimeToFirstToken == 0 {
		s.resp.TimeToFirstToken = time.Since(s.st.start)
		if s.firstToken != nil {
			s.firstToken.Stop()
		}
	}
}

func (s *sse) deliver(d Delta) error {
	s.token()
	s.st.delivered = true
	return s.fn(d)
}
