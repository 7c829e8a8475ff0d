package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Finding is what one probe found out, in plain words.
type Finding struct {
	// Checked is false when the probe was not run (the model did not
	// answer at all).
	Checked bool
	// OK is true when the endpoint did what was asked.
	OK bool
	// Detail says what happened.
	Detail string
}

// Report is what an endpoint supports, as found by Probe.
type Report struct {
	Endpoint string
	Model    string
	KeySet   bool
	// Models are the models the endpoint lists (GET /models); ModelsErr
	// says why there is no list.
	Models    []string
	ModelsErr string
	// Listed reports whether the configured model is among Models.
	Listed bool
	// Answers: a plain chat call got a reply.
	Answers Finding
	// Tools: the model called a function when required to.
	Tools Finding
	// JSONSchema: the reply followed a JSON schema (response_format json_schema).
	JSONSchema Finding
	// JSONMode: the reply was a JSON object (response_format json_object).
	JSONMode Finding
	// Streaming: a streamed reply arrived in pieces and ended properly.
	Streaming Finding
}

// OK reports whether the model answers: the one thing the LLM engine cannot
// do without.
func (r Report) OK() bool { return r.Answers.OK }

// Models lists the endpoint's models (GET /models).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, errCallTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+"/models", nil)
	if err != nil {
		return nil, &Error{Kind: ErrBadRequest, Op: "list models", Detail: "cannot build the request"}
	}
	req.Header.Set("Accept", "application/json")
	c.authorize(req)
	res, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, ctx, "list models", err, ErrConnection)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, c.statusError("list models", res)
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return nil, c.transportError(ctx, ctx, "list models", err, ErrConnection)
	}
	var w wireModels
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, &Error{Kind: ErrBadResponse, Op: "list models", Detail: "the body is not a model list: " + excerpt(string(raw), c.cfg.APIKey)}
	}
	ids := make([]string, 0, len(w.Data))
	for _, m := range w.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// probeTokens bounds each probe's reply; enough for a short JSON object.
const probeTokens = 200

// Probe finds out, each by a small real call, what the endpoint supports:
// its model list, whether the model answers, tools, JSON schema, JSON mode
// and streaming. It never fails: what went wrong is in the report.
func (c *Client) Probe(ctx context.Context) Report {
	r := Report{Endpoint: redactURL(c.cfg.BaseURL), Model: c.cfg.Model, KeySet: c.cfg.APIKey != ""}
	if ids, err := c.Models(ctx); err != nil {
		r.ModelsErr = err.Error()
	} else {
		r.Models = ids
		r.Listed = slices.Contains(ids, c.cfg.Model)
	}
	r.Answers = c.probeAnswer(ctx)
	if !r.Answers.OK {
		skipped := Finding{Detail: "not checked: the model did not answer"}
		r.Tools, r.JSONSchema, r.JSONMode, r.Streaming = skipped, skipped, skipped, skipped
		return r
	}
	r.Tools = c.probeTools(ctx)
	r.JSONSchema = c.probeJSON(ctx, Format{Type: FormatJSONSchema, Name: "probe", Strict: true,
		Schema: json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`)})
	r.JSONMode = c.probeJSON(ctx, Format{Type: FormatJSONObject})
	r.Streaming = c.probeStream(ctx)
	return r
}

func user(text string) []Message { return []Message{{Role: RoleUser, Content: text}} }

func (c *Client) probeAnswer(ctx context.Context) Finding {
	resp, err := c.Chat(ctx, Request{Messages: user("Reply with the single word: ok"), MaxTokens: probeTokens})
	if err != nil {
		return Finding{Checked: true, Detail: err.Error()}
	}
	return Finding{Checked: true, OK: true, Detail: fmt.Sprintf("answered in %s: %q", round(resp.Latency), excerpt(resp.Content, "")) + tokens(resp.Usage)}
}

func (c *Client) probeTools(ctx context.Context) Finding {
	resp, err := c.Chat(ctx, Request{
		Messages:   user("How many rows does the table patients have? Use the tool."),
		Tools:      []Tool{{Name: "count_rows", Description: "Count the rows of a table.", Parameters: json.RawMessage(`{"type":"object","properties":{"table":{"type":"string"}},"required":["table"]}`)}},
		ToolChoice: ToolChoice{Mode: "required"},
		MaxTokens:  probeTokens,
	})
	switch {
	case err != nil:
		return refused("tools", err)
	case len(resp.ToolCalls) == 0:
		return Finding{Checked: true, Detail: "tools were accepted but the model answered in prose instead of calling one: " + quote(resp.Content)}
	}
	tc := resp.ToolCalls[0]
	if tc.Name != "count_rows" || !json.Valid([]byte(tc.Arguments)) {
		return Finding{Checked: true, Detail: fmt.Sprintf("the model called %q with arguments that are not JSON: %s", tc.Name, quote(tc.Arguments))}
	}
	return Finding{Checked: true, OK: true, Detail: fmt.Sprintf("called %s with %s", tc.Name, excerpt(tc.Arguments, ""))}
}

func (c *Client) probeJSON(ctx context.Context, f Format) Finding {
	resp, err := c.Chat(ctx, Request{
		Messages:  user(`Reply with a JSON object whose only key is "answer" and whose value is the string "ok".`),
		Format:    f,
		MaxTokens: probeTokens,
	})
	if err != nil {
		return refused("response_format "+string(f.Type), err)
	}
	var v map[string]any
	if json.Unmarshal([]byte(strings.TrimSpace(resp.Content)), &v) != nil {
		return Finding{Checked: true, Detail: "accepted, but the reply is not a JSON object: " + quote(resp.Content)}
	}
	if _, ok := v["answer"].(string); !ok && f.Type == FormatJSONSchema {
		return Finding{Checked: true, Detail: "accepted, but the reply does not follow the schema: " + quote(resp.Content)}
	}
	return Finding{Checked: true, OK: true, Detail: "replied " + excerpt(resp.Content, "")}
}

func (c *Client) probeStream(ctx context.Context) Finding {
	pieces := 0
	resp, err := c.Stream(ctx, Request{Messages: user("Count from 1 to 5, separated by spaces."), MaxTokens: probeTokens},
		func(Delta) error { pieces++; return nil })
	if err != nil {
		return refused("streaming", err)
	}
	return Finding{Checked: true, OK: true, Detail: fmt.Sprintf("%d pieces, the first after %s: %s", pieces, round(resp.TimeToFirstToken), quote(resp.Content))}
}

// refused words a probe's failure.
func refused(what string, err error) Finding {
	if errors.Is(err, ErrUnsupported) || errors.Is(err, ErrBadRequest) {
		return Finding{Checked: true, Detail: "the endpoint refused " + what + ": " + err.Error()}
	}
	return Finding{Checked: true, Detail: err.Error()}
}

func quote(s string) string { return fmt.Sprintf("%q", excerpt(s, "")) }

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

func tokens(u Usage) string {
	if u.TotalTokens == 0 {
		return " (no token usage reported)"
	}
	return fmt.Sprintf(" (%d tokens)", u.TotalTokens)
}

// Write prints the report in plain words.
func (r Report) Write(w io.Writer) {
	key := "no API key"
	if r.KeySet {
		key = "API key set"
	}
	fmt.Fprintf(w, "Endpoint:    %s (%s)\n", r.Endpoint, key)
	fmt.Fprintf(w, "Model:       %s\n", r.Model)
	switch {
	case r.ModelsErr != "":
		fmt.Fprintf(w, "Models:      could not list them: %s\n", r.ModelsErr)
	case r.Listed:
		fmt.Fprintf(w, "Models:      %d listed, %s among them\n", len(r.Models), r.Model)
	default:
		fmt.Fprintf(w, "Models:      %d listed, but not %s: %s\n", len(r.Models), r.Model, excerpt(strings.Join(r.Models, ", "), ""))
	}
	line := func(name string, f Finding) {
		verdict := "no"
		switch {
		case !f.Checked:
			verdict = "unknown"
		case f.OK:
			verdict = "yes"
		}
		fmt.Fprintf(w, "%-12s %s — %s\n", name+":", verdict, f.Detail)
	}
	line("Answers", r.Answers)
	line("Tools", r.Tools)
	line("JSON schema", r.JSONSchema)
	line("JSON mode", r.JSONMode)
	line("Streaming", r.Streaming)
	switch {
	case !r.OK():
		fmt.Fprintln(w, "\nThe model does not answer: the llm and hybrid engines cannot use this endpoint.")
	case !r.JSONSchema.OK && !r.JSONMode.OK:
		fmt.Fprintln(w, "\nThe model answers, but without structured output: replies will be read from plain text.")
	case !r.JSONSchema.OK:
		fmt.Fprintln(w, "\nThe model answers; without JSON schema support, replies will be asked for in JSON mode and checked.")
	default:
		fmt.Fprintln(w, "\nThe model answers and supports structured output.")
	}
}
