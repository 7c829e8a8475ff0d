package llmreply

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

// Parse reads a model's reply against the semantic model m, checking
// values and grounding options with the values the model lists. It is
// ParseWith(raw, m, nil).
func Parse(raw string, m *model.Model) (Reply, error) { return ParseWith(raw, m, nil) }

// ParseWith reads a model's reply: JSON of one kind (also inside a code
// fence or among other text), else prose. vals gives the allowed values of
// database-sourced columns (nil: only the model's listed values). Errors
// are *Error wrapping ErrTooLarge, ErrMalformed, ErrNoOptions or
// ErrUnsupported. It never panics.
func ParseWith(raw string, m *model.Model, vals Values) (Reply, error) {
	if len(raw) > MaxReply {
		return Reply{}, fail(ErrTooLarge, "%d bytes, at most %d", len(raw), MaxReply)
	}
	if !utf8.ValidString(raw) {
		raw = strings.ToValidUTF8(raw, "\uFFFD")
	}
	if m == nil {
		m = &model.Model{}
	}
	obj, found, broken := findJSON(raw)
	var r Reply
	var err error
	switch {
	case found:
		r, err = fromJSON(obj, m, vals)
	case broken:
		// A JSON reply that does not decode is not guessed at from its
		// pieces: half a statement must not run.
		return Reply{}, fail(ErrMalformed, "the JSON object does not decode")
	default:
		r, err = fromProse(raw, m, vals)
	}
	if err != nil {
		return Reply{}, err
	}
	if r.Kind == KindSQL {
		r.Values = CheckValues(r.SQL, m, vals)
	}
	return r, nil
}

// findJSON looks for the reply's JSON object: the whole text, a fenced
// block, or the first balanced object in the text that names a kind (or a
// statement or question). broken reports an object that looked like a reply
// but did not decode.
func findJSON(raw string) (obj map[string]json.RawMessage, found, broken bool) {
	try := func(s string) bool {
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, "{") {
			return false
		}
		var o map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &o); err != nil {
			if looksLikeReply(s) {
				broken = true
			}
			return false
		}
		if !looksLikeReplyObject(o) {
			return false
		}
		obj = o
		return true
	}
	if try(raw) {
		return obj, true, false
	}
	for _, f := range fences(raw) {
		if try(f.body) {
			return obj, true, false
		}
	}
	// The first balanced objects in the text.
	starts := 0
	for i := 0; i < len(raw) && starts < 16; i++ {
		if raw[i] != '{' {
			continue
		}
		starts++
		end := balanced(raw, i)
		if end < 0 {
			if looksLikeReply(raw[i:]) {
				broken = true
			}
			continue
		}
		if try(raw[i:end]) {
			return obj, true, false
		}
		i = end - 1
	}
	return nil, false, broken
}

var replyKeys = []string{"kind", "type", "responseType", "sql", "generatedSql", "question", "reason"}

func looksLikeReply(s string) bool {
	for _, k := range replyKeys {
		if strings.Contains(s, `"`+k+`"`) {
			return true
		}
	}
	return false
}

func looksLikeReplyObject(o map[string]json.RawMessage) bool {
	for _, k := range replyKeys {
		if _, ok := o[k]; ok {
			return true
		}
	}
	return false
}

// balanced returns the end (exclusive) of the JSON object starting at
// s[i] == '{', or -1 when it is not closed.
func balanced(s string, i int) int {
	depth, inStr, esc := 0, false, false
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// str reads the first of keys holding a JSON string.
func str(o map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		var s string
		if v, ok := o[k]; ok && json.Unmarshal(v, &s) == nil && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func fromJSON(o map[string]json.RawMessage, m *model.Model, vals Values) (Reply, error) {
	kind := Kind(strings.ToLower(strings.TrimSpace(str(o, "kind", "type", "responseType"))))
	if kind == "" {
		// No kind: infer it from the fields present.
		switch {
		case str(o, "sql", "generatedSql") != "":
			kind = KindSQL
		case str(o, "question") != "" || o["clarifications"] != nil:
			kind = KindClarification
		case str(o, "reason") != "":
			kind = KindUnanswerable
		}
	}
	assumptions := readAssumptions(o["assumptions"])
	switch kind {
	case KindSQL:
		sql, err := cleanSQL(str(o, "sql", "generatedSql", "query"))
		if err != nil {
			return Reply{}, err
		}
		return Reply{Kind: KindSQL, SQL: sql, Assumptions: assumptions}, nil
	case KindClarification:
		q, opts, best := readClarification(o)
		c, err := normalize(q, opts, best, m, vals)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Kind: KindClarification, Clarification: c, Assumptions: assumptions}, nil
	case KindUnanswerable:
		reason := bound(str(o, "reason", "explanation", "message"), MaxText)
		if reason == "" {
			reason = "the model found no way to answer this from the data"
		}
		return Reply{Kind: KindUnanswerable, Reason: reason}, nil
	case KindPlan:
		raw, ok := o["plan"]
		if !ok || string(raw) == "null" {
			return Reply{}, planError("kind plan without a plan")
		}
		p, values, err := readPlan(raw, m, vals)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Kind: KindPlan, Plan: p, Values: values, Assumptions: assumptions}, nil
	}
	return Reply{}, fail(ErrMalformed, "unknown kind %q", bound(string(kind), 40))
}

// rawOption is an option as a model writes it: an object or a string.
type rawOption struct {
	Label       string
	Description string
}

func readOptions(v json.RawMessage) []rawOption {
	var items []json.RawMessage
	if json.Unmarshal(v, &items) != nil {
		return nil
	}
	var out []rawOption
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, rawOption{Label: s})
			continue
		}
		var o map[string]json.RawMessage
		if json.Unmarshal(it, &o) == nil {
			out = append(out, rawOption{Label: str(o, "label", "value", "text", "name"), Description: str(o, "description")})
		}
	}
	return out
}

// readClarification reads the question, the options and the best guess
// (an index, or -1), also from the older "clarifications" list.
func readClarification(o map[string]json.RawMessage) (string, []rawOption, int) {
	q, opts := str(o, "question"), readOptions(o["options"])
	if q == "" || len(opts) == 0 {
		var cs []map[string]json.RawMessage
		if json.Unmarshal(o["clarifications"], &cs) == nil && len(cs) > 0 {
			if q == "" {
				q = str(cs[0], "question")
			}
			if len(opts) == 0 {
				opts = readOptions(cs[0]["options"])
			}
		}
	}
	best := -1
	if v, ok := o["best_guess"]; ok {
		var i int
		var s string
		switch {
		case json.Unmarshal(v, &i) == nil:
			best = i
		case json.Unmarshal(v, &s) == nil:
			for j, op := range opts {
				if strings.EqualFold(strings.TrimSpace(op.Label), strings.TrimSpace(s)) {
					best = j
					break
				}
			}
		}
	}
	return q, opts, best
}

func readAssumptions(v json.RawMessage) []clarify.Assumption {
	var items []json.RawMessage
	if len(v) == 0 || json.Unmarshal(v, &items) != nil {
		return nil
	}
	var out []clarify.Assumption
	for _, it := range items {
		if len(out) == MaxAssumptions {
			break
		}
		var text, chosen, why string
		var s string
		var o map[string]json.RawMessage
		switch {
		case json.Unmarshal(it, &s) == nil:
			text = s
		case json.Unmarshal(it, &o) == nil:
			text = str(o, "term", "text", "assumption")
			chosen = str(o, "chosen", "assumedValue", "assumed", "value", "meaning")
			why = str(o, "why", "reasoning", "reason")
		}
		text, chosen, why = bound(text, MaxText), bound(chosen, MaxText), bound(why, MaxText)
		if text == "" && chosen == "" {
			continue
		}
		out = append(out, clarify.Assumption{
			Slot:       "llm_assumption:" + strconv.Itoa(len(out)+1),
			Kind:       understand.KindTerm,
			Text:       text,
			Chosen:     chosen,
			Method:     string(understand.MethodLLM),
			Confidence: Stated,
			Why:        why,
		})
	}
	return out
}

// cleanSQL trims a statement, unwraps a code fence around it and drops one
// final semicolon; the guard judges the rest.
func cleanSQL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
		if fs := fences(s); len(fs) > 0 {
			s = strings.TrimSpace(fs[0].body)
		}
	}
	s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	if s == "" {
		return "", fail(ErrMalformed, "empty statement")
	}
	if len(s) > MaxSQL {
		return "", fail(ErrTooLarge, "statement of %d bytes, at most %d", len(s), MaxSQL)
	}
	if bytes.IndexByte([]byte(s), 0) >= 0 {
		return "", fail(ErrMalformed, "statement with a NUL byte")
	}
	return s, nil
}
