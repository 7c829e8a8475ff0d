package llm

import (
	"bytes"
	"encoding/json"
	"time"
)

// Roles of a message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one message of a conversation.
type Message struct {
	Role    string
	Content string
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall
	// ToolCallID is, for a tool message, the call it answers.
	ToolCallID string
}

// ToolCall is a function call the model asked for.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the JSON text of the arguments as the model wrote it; it
	// is the caller's job to decode and check it.
	Arguments string
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments.
	Parameters json.RawMessage
}

// ToolChoice tells the model whether to call tools. The zero value leaves it
// to the server's default.
type ToolChoice struct {
	// Mode is "auto", "none" or "required".
	Mode string
	// Function, when set, forces a call of that function.
	Function string
}

// FormatType is the kind of reply asked for.
type FormatType string

// Reply formats.
const (
	FormatText       FormatType = ""            // plain text: no response_format is sent
	FormatJSONSchema FormatType = "json_schema" // structured output by a JSON schema
	FormatJSONObject FormatType = "json_object" // JSON mode: any JSON object
)

// Format is the response format of a request.
type Format struct {
	Type FormatType
	// Name and Schema describe the JSON schema for FormatJSONSchema.
	Name   string
	Schema json.RawMessage
	// Strict asks the server to follow the schema exactly.
	Strict bool
}

// Request is one chat-completions call.
type Request struct {
	Messages   []Message
	Tools      []Tool
	ToolChoice ToolChoice
	Format     Format
	// Temperature overrides the config's when set.
	Temperature *float64
	// MaxTokens bounds the reply when positive.
	MaxTokens int
}

// Usage is the token count of a call, as the server reported it (zero when
// it did not).
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
}

// Response is the assembled reply of a call.
type Response struct {
	// Model is the model the server says answered.
	Model   string
	Content string
	// Refusal is the model's refusal, on servers that report it apart
	// from the content (OpenAI with structured outputs).
	Refusal      string
	ToolCalls    []ToolCall
	FinishReason string
	Usage        Usage
	// Latency is the whole call, retries included.
	Latency time.Duration
	// TimeToFirstToken is, for a stream, the wait until the first content or
	// tool-call delta; for a plain call, the same as Latency.
	TimeToFirstToken time.Duration
	// Attempts is how many HTTP requests the call took.
	Attempts int
}

// Delta is one piece of a streamed reply.
type Delta struct {
	// Content is more text of the reply.
	Content string
	// ToolCall, when set, is a piece of a tool call.
	ToolCall *ToolCallDelta
}

// ToolCallDelta is a piece of a streamed tool call: its ID and Name come
// once, its Arguments arrive in parts to be concatenated.
type ToolCallDelta struct {
	// Index is the call's position in the reply, from 0.
	Index     int
	ID        string
	Name      string
	Arguments string
}

// wire types: the OpenAI chat-completions JSON.

type wireRequest struct {
	Model          string          `json:"model"`
	Messages       []wireMessage   `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	Tools          []wireTool      `json:"tools,omitempty"`
	ToolChoice     any             `json:"tool_choice,omitempty"`
	ResponseFormat *wireFormat     `json:"response_format,omitempty"`
	Stream         bool            `json:"stream,omitempty"`
	StreamOptions  *wireStreamOpts `json:"stream_options,omitempty"`
}

type wireStreamOpts struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string   `json:"name,omitempty"`
	Arguments argsText `json:"arguments,omitempty"`
}

type wireTool struct {
	Type     string          `json:"type"`
	Function wireFunctionDef `json:"function"`
}

type wireFunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type wireFormat struct {
	Type       string          `json:"type"`
	JSONSchema *wireJSONSchema `json:"json_schema,omitempty"`
}

type wireJSONSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

type wireResponse struct {
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
	Error   *wireError   `json:"error"`
}

type wireChoice struct {
	Index        int           `json:"index"`
	Message      *wireReplyMsg `json:"message"`
	Delta        *wireReplyMsg `json:"delta"`
	FinishReason *string       `json:"finish_reason"`
}

type wireReplyMsg struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []wireToolCall `json:"tool_calls"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type wireError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

type wireModels struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}

// argsText is a tool call's arguments: a JSON string on the wire, but some
// servers send the object itself, which is kept as its JSON text.
type argsText string

func (a argsText) MarshalJSON() ([]byte, error) { return json.Marshal(string(a)) }

func (a *argsText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*a = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = argsText(s)
	default:
		*a = argsText(b)
	}
	return nil
}

// wireBody builds the JSON body of a request.
func (c *Client) wireBody(req Request, stream bool) ([]byte, error) {
	w := wireRequest{
		Model:       c.cfg.Model,
		Temperature: c.cfg.Temperature,
		MaxTokens:   req.MaxTokens,
		Stream:      stream,
	}
	if req.Temperature != nil {
		w.Temperature = *req.Temperature
	}
	if stream {
		w.StreamOptions = &wireStreamOpts{IncludeUsage: true}
	}
	for _, m := range req.Messages {
		wm := wireMessage{Role: m.Role, ToolCallID: m.ToolCallID}
		content := m.Content
		if m.Role != RoleAssistant || content != "" || len(m.ToolCalls) == 0 {
			wm.Content = &content
		}
		for _, tc := range m.ToolCalls {
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{ID: tc.ID, Type: "function",
				Function: wireFunction{Name: tc.Name, Arguments: argsText(tc.Arguments)}})
		}
		w.Messages = append(w.Messages, wm)
	}
	for _, t := range req.Tools {
		w.Tools = append(w.Tools, wireTool{Type: "function",
			Function: wireFunctionDef(t)})
	}
	switch {
	case req.ToolChoice.Function != "":
		w.ToolChoice = map[string]any{"type": "function", "function": map[string]string{"name": req.ToolChoice.Function}}
	case req.ToolChoice.Mode != "":
		w.ToolChoice = req.ToolChoice.Mode
	}
	switch req.Format.Type {
	case FormatText:
	case FormatJSONObject:
		w.ResponseFormat = &wireFormat{Type: string(FormatJSONObject)}
	case FormatJSONSchema:
		w.ResponseFormat = &wireFormat{Type: string(FormatJSONSchema),
			JSONSchema: &wireJSONSchema{Name: req.Format.Name, Schema: req.Format.Schema, Strict: req.Format.Strict}}
	}
	return json.Marshal(w)
}
