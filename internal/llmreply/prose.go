package llmreply

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/clarify-sql/clarify/internal/model"
)

// fence is one fenced code block of a reply.
type fence struct {
	lang string
	body string
	// start and end are the byte offsets of the whole block in the text.
	start, end int
}

// fences returns the fenced code blocks of a text (``` or ~~~, an
// unclosed one running to the end).
func fences(s string) []fence {
	var out []fence
	var cur *fence
	var marker string
	var body strings.Builder
	off := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case cur == nil && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			marker = t[:3]
			lang := strings.TrimSpace(strings.TrimLeft(t, marker[:1]))
			if i := strings.IndexFunc(lang, unicode.IsSpace); i >= 0 {
				lang = lang[:i]
			}
			cur = &fence{lang: strings.ToLower(lang), start: off}
			body.Reset()
		case cur != nil && strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]) == "":
			cur.body, cur.end = body.String(), off+len(line)
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
		}
		off += len(line)
	}
	if cur != nil {
		cur.body, cur.end = body.String(), len(s)
		out = append(out, *cur)
	}
	return out
}

var (
	sqlLangs = map[string]bool{"sql": true, "postgresql": true, "postgres": true, "mysql": true, "sqlite": true,
		"psql": true, "pgsql": true, "mariadb": true, "tsql": true, "plsql": true}
	// startsSQL matches the start of a query (after comments and blank lines).
	startsSQL = regexp.MustCompile(`(?is)^\s*(?:(?:--[^\n]*\n|/\*.*?\*/)\s*)*\(?\s*(?:select\s|with\s+(?:recursive\s+)?[\p{L}_"` + "`" + `][^\s(]*\s*(?:\([^)]*\)\s*)?as\s*\()`)
	// bareSQL finds a query in running text: SELECT … FROM, or WITH x AS (.
	bareSQL   = regexp.MustCompile(`(?im)^[ \t>]*(?:select\s[\s\S]*?\sfrom\s|with\s+(?:recursive\s+)?[\p{L}_"` + "`" + `][^\s(]*\s+as\s*\()`)
	refusal   = regexp.MustCompile(`(?i)\b(?:cannot be answered|can(?:'|’)?t be answered|can not be answered|(?:am|i'm|i’m) (?:not able|unable) to answer|unable to answer|i (?:can(?:'|’)?t|cannot|can not) answer|(?:i|the data(?:base)?|the schema) (?:do(?:es)?n(?:'|’)?t|do(?:es)? not) (?:have|contain|include|hold)|there (?:is|are) no (?:data|information|column|columns|table|tables|field|fields|record|records)|not possible to answer|no way to answer|not (?:available|present) in the (?:data|database|schema))\b`)
	listItem  = regexp.MustCompile(`^\s*(?:\d{1,2}[.)]|[-*•+]|\(?[A-Da-d][.)])\s+(\S.*)$`)
	sentences = regexp.MustCompile(`[^.!?\n]*\?`)
)

// fromProse reads a reply in plain words: a statement (in a code block or
// bare), else a question with options, else a refusal.
func fromProse(raw string, m *model.Model, vals Values) (Reply, error) {
	if sql, ok := proseSQL(raw); ok {
		s, err := cleanSQL(sql)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Kind: KindSQL, SQL: s, Prose: true}, nil
	}
	text := withoutFences(raw)
	q, opts := proseQuestion(text)
	var qerr error
	if q != "" {
		c, err := normalize(q, opts, -1, m, vals)
		if err == nil {
			return Reply{Kind: KindClarification, Clarification: c, Prose: true}, nil
		}
		qerr = err
	}
	if loc := refusal.FindStringIndex(text); loc != nil {
		return Reply{Kind: KindUnanswerable, Reason: bound(sentenceAt(text, loc[0]), MaxText), Prose: true}, nil
	}
	if qerr != nil {
		return Reply{}, qerr
	}
	return Reply{}, fail(ErrMalformed, "no statement, question or refusal in the text")
}

// proseSQL finds a statement: the first SQL code block, a plain code block
// that starts like a query, or a bare query in the text.
func proseSQL(raw string) (string, bool) {
	for _, f := range fences(raw) {
		if sqlLangs[f.lang] && strings.TrimSpace(f.body) != "" {
			return f.body, true
		}
		if f.lang == "" && startsSQL.MatchString(f.body) {
			return f.body, true
		}
	}
	text := withoutFences(raw)
	loc := bareSQL.FindStringIndex(text)
	if loc == nil {
		return "", false
	}
	rest := text[loc[0]:]
	end := len(rest)
	// The statement ends at a semicolon or a blank line.
	if i := strings.Index(rest, ";"); i >= 0 && i < end {
		end = i
	}
	if i := strings.Index(rest, "\n\n"); i >= 0 && i < end {
		end = i
	}
	s := strings.TrimSpace(strings.TrimLeft(rest[:end], " \t>"))
	return s, s != ""
}

// withoutFences is the text with its code blocks removed.
func withoutFences(raw string) string {
	fs := fences(raw)
	if len(fs) == 0 {
		return raw
	}
	var b strings.Builder
	prev := 0
	for _, f := range fs {
		if f.start < prev {
			continue
		}
		b.WriteString(raw[prev:f.start])
		b.WriteString("\n")
		prev = f.end
	}
	b.WriteString(raw[prev:])
	return b.String()
}

// maxQuestions is how many question sentences of a reply are considered.
const maxQuestions = 16

// proseQuestion finds the question a text asks and the options it offers:
// a list after it (numbered, bulleted, lettered), or "X or Y?" in the
// question itself.
func proseQuestion(text string) (string, []rawOption) {
	// The first questions only: each is read with the text after it, and a
	// reply of many question marks must stay linear.
	locs := sentences.FindAllStringIndex(text, maxQuestions)
	if len(locs) == 0 {
		return "", nil
	}
	// Prefer the question followed by a list.
	for _, loc := range locs {
		if opts := listAfter(text[loc[1]:]); len(opts) > 0 {
			return strings.TrimSpace(text[loc[0]:loc[1]]), opts
		}
	}
	q := strings.TrimSpace(text[locs[0][0]:locs[0][1]])
	for _, loc := range locs {
		s := strings.TrimSpace(text[loc[0]:loc[1]])
		if opts := alternatives(s); len(opts) > 0 {
			return s, opts
		}
	}
	// A list before the question ("Options: 1. … 2. … Which one?").
	if opts := listAfter(text); len(opts) > 0 {
		return q, opts
	}
	return q, nil
}

// listAfter reads the first list in text: its items, up to a line that is
// neither an item nor its continuation. Prose before the list is skipped.
func listAfter(text string) []rawOption {
	var out []rawOption
	gap := 0
	for _, line := range strings.Split(text, "\n") {
		if mm := listItem.FindStringSubmatch(line); mm != nil {
			out = append(out, splitItem(mm[1]))
			gap = 0
			continue
		}
		if len(out) == 0 {
			continue
		}
		if strings.TrimSpace(line) == "" && gap == 0 {
			gap++
			continue
		}
		break
	}
	if len(out) > 12 {
		out = out[:12]
	}
	return out
}

// splitItem splits "**Label** – description" or "Label: description".
func splitItem(s string) rawOption {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "**") {
		if i := strings.Index(s[2:], "**"); i >= 0 {
			label := s[2 : 2+i]
			rest := strings.TrimLeft(s[4+i:], " :-–—")
			return rawOption{Label: label, Description: rest}
		}
	}
	for _, sep := range []string{": ", " – ", " — ", " - "} {
		if i := strings.Index(s, sep); i > 0 {
			return rawOption{Label: s[:i], Description: strings.TrimSpace(s[i+len(sep):])}
		}
	}
	return rawOption{Label: s}
}

// leadWords are the words before the first of the alternatives in a
// question ("Do you mean …", "Should I rank by …").
var leadWords = map[string]bool{"do": true, "did": true, "you": true, "mean": true, "meant": true, "want": true, "would": true,
	"like": true, "should": true, "i": true, "we": true, "use": true, "is": true, "it": true, "are": true, "by": true,
	"prefer": true, "to": true, "see": true, "show": true, "rank": true, "sort": true, "order": true, "either": true,
	"the": true, "a": true, "an": true, "that": true, "this": true, "shall": true, "can": true, "could": true, "please": true,
	"clarify": true, "whether": true, "was": true, "were": true, "referring": true, "asking": true, "about": true,
	"for": true, "interested": true, "in": true, "so": true, "ok": true, "okay": true}

// alternatives reads "X or Y?", "X, Y or Z?" in a question.
func alternatives(q string) []rawOption {
	q = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(q), "?"))
	if i := strings.LastIndex(q, ":"); i >= 0 {
		q = q[i+1:]
	}
	parts := strings.Split(q, " or ")
	if len(parts) < 2 || len(parts) > 6 {
		return nil
	}
	var items []string
	for i, p := range parts {
		if i < len(parts)-1 {
			items = append(items, strings.Split(p, ", ")...)
		} else {
			items = append(items, p)
		}
	}
	var out []rawOption
	for i, it := range items {
		it = strings.Trim(strings.TrimSpace(it), ",;\"'*")
		if i == 0 {
			it = stripLead(it, leadWords)
		} else {
			it = stripLead(it, map[string]bool{"by": true, "the": true, "a": true, "an": true, "its": true, "their": true, "maybe": true, "perhaps": true})
		}
		if it != "" {
			out = append(out, rawOption{Label: it})
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

func stripLead(s string, lead map[string]bool) string {
	ws := strings.Fields(s)
	i := 0
	for i < len(ws)-1 && lead[strings.ToLower(strings.Trim(ws[i], ",\"'"))] {
		i++
	}
	return strings.Join(ws[i:], " ")
}

// sentenceAt returns the sentence of text around byte offset i.
func sentenceAt(text string, i int) string {
	start := strings.LastIndexAny(text[:i], ".!?\n") + 1
	end := strings.IndexAny(text[i:], ".!?\n")
	if end < 0 {
		end = len(text)
	} else {
		end += i
	}
	return strings.TrimSpace(text[start:end])
}

// bound collapses whitespace, drops control characters and markdown
// emphasis, and cuts s to at most n runes at a word boundary.
func bound(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	s = strings.ReplaceAll(s, "**", "")
	s = strings.Join(strings.Fields(s), " ")
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	cut := string(rs[:n-1])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:-") + "…"
}
