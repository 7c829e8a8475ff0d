package llmreply

import (
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// Ground marks each option of c whose words name something of the model or
// the data: an entity, a column, a measure, a term, a ranking metric, one
// of the model's own option labels, an allowed value (the model's, or
// vals' for database-sourced columns), or a period when the model has
// dates. The rest are marked ungrounded.
func Ground(c *Clarification, m *model.Model, vals Values) {
	if c == nil {
		return
	}
	g := newGrounds(m, vals)
	for i := range c.Options {
		c.Options[i].Grounded = g.names(c.Options[i].Label + " \n " + c.Options[i].Description)
	}
}

// grounds are the stemmed phrases that name things of a model.
type grounds struct {
	// phrases by their first stem.
	phrases  map[string][][]string
	hasDates bool
}

func newGrounds(m *model.Model, vals Values) *grounds {
	g := &grounds{phrases: map[string][][]string{}}
	if m == nil {
		return g
	}
	add := func(ss ...string) {
		for _, s := range ss {
			g.add(s)
		}
	}
	for _, e := range m.Entities {
		add(e.Name, e.Label, e.Plural, e.TableName())
		add(e.Synonyms...)
		for _, c := range e.Columns {
			if c.Role == model.RoleTime {
				g.hasDates = true
			}
			add(c.Name, c.Label, c.Title())
			add(c.Synonyms...)
			add(c.FalseSynonyms...)
			if c.Values != nil {
				for _, it := range c.Values.Items {
					add(it.Value, it.Label)
					add(it.Synonyms...)
				}
				for _, gr := range c.Values.Groups {
					add(gr.Name)
					add(gr.Synonyms...)
				}
			}
			if vals != nil && (c.Role == model.RoleName || c.Role == model.RoleDimension) {
				if vs, ok := vals.Allowed(c); ok {
					add(vs...)
				}
			}
		}
	}
	for _, ms := range m.Measures {
		add(ms.Name, ms.Label)
		add(ms.Synonyms...)
	}
	for _, t := range m.Terms {
		add(t.Name)
		add(t.Phrases...)
	}
	for _, v := range m.Vague {
		for _, o := range v.Options {
			add(o.Label)
		}
	}
	for _, r := range m.Rankings {
		for _, mt := range r.Metrics {
			add(mt.Label)
		}
	}
	for _, t := range m.Policies.TimeWindowOptions {
		add(t.Label)
	}
	if h := m.Policies.History; h != nil {
		add(h.HistoryWords...)
		add(h.LatestWords...)
	}
	if f := m.Policies.Format; f != nil {
		add(f.PlotWords...)
		add(f.TableWords...)
	}
	return g
}

func stems(s string) []string {
	toks := text.Tokenize(text.Normalize(s))
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, t.Stem)
	}
	return out
}

func (g *grounds) add(s string) {
	s = strings.ReplaceAll(s, "_", " ")
	if len([]rune(strings.TrimSpace(s))) < 2 {
		return
	}
	st := stems(s)
	if len(st) == 0 {
		return
	}
	g.phrases[st[0]] = append(g.phrases[st[0]], st)
}

// names reports whether s contains a phrase of the model, or a period.
func (g *grounds) names(s string) bool {
	st := stems(s)
	for i, w := range st {
		for _, p := range g.phrases[w] {
			if i+len(p) <= len(st) && equal(st[i:i+len(p)], p) {
				return true
			}
		}
	}
	if g.hasDates {
		// A fixed day: grounding does not depend on the date, only on
		// whether the words are a period.
		if _, ok := timeexpr.ParseWindow(s, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)); ok {
			return true
		}
	}
	return false
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// normalize builds a clarification from a model's question and options:
// labels cleaned and bounded, duplicates and ungrounded options dropped, at
// most MaxOptions kept with the best guess among them (the model's, else
// the first). Fewer than MinOptions grounded options is ErrNoOptions.
func normalize(q string, raw []rawOption, best int, m *model.Model, vals Values) (*Clarification, error) {
	q = bound(q, MaxText)
	if q == "" {
		return nil, fail(ErrNoOptions, "no question")
	}
	c := &Clarification{Question: q}
	seen := map[string]int{}
	bestKey := ""
	for i, ro := range raw {
		label := cleanLabel(ro.Label)
		desc := bound(ro.Description, MaxDescription)
		if label == "" {
			label, desc = cleanLabel(desc), ""
		}
		if label == "" {
			continue
		}
		key := text.StemPhrase(label)
		if key == "" {
			key = strings.ToLower(label)
		}
		if i == best {
			bestKey = key
		}
		if _, dup := seen[key]; dup {
			c.Dropped = append(c.Dropped, Option{Label: label, Description: desc})
			continue
		}
		seen[key] = len(c.Options)
		c.Options = append(c.Options, Option{Label: label, Description: desc})
	}
	bestAt := -1
	if bestKey != "" {
		bestAt = seen[bestKey]
	}
	Ground(c, m, vals)
	var kept []Option
	for i, o := range c.Options {
		if !o.Grounded {
			c.Dropped = append(c.Dropped, o)
			continue
		}
		o.BestGuess = i == bestAt
		kept = append(kept, o)
	}
	if len(kept) < MinOptions {
		return nil, fail(ErrNoOptions, "%d of %d options grounded", len(kept), len(raw))
	}
	kept = fit(kept, c)
	mark := 0
	for i := range kept {
		if kept[i].BestGuess {
			mark = i
		}
		kept[i].BestGuess = false
	}
	kept[mark].BestGuess = true
	c.Options = kept
	return c, nil
}

// fit keeps at most MaxOptions, the best guess always among them; the rest
// go to c.Dropped.
func fit(opts []Option, c *Clarification) []Option {
	if len(opts) <= MaxOptions {
		return opts
	}
	bestAt := -1
	for i, o := range opts {
		if o.BestGuess {
			bestAt = i
		}
	}
	var out []Option
	for i, o := range opts {
		room := MaxOptions - len(out)
		if bestAt > i && bestAt >= MaxOptions {
			room-- // keep a place for the best guess
		}
		if i == bestAt || room > 0 {
			out = append(out, o)
			continue
		}
		c.Dropped = append(c.Dropped, o)
	}
	return out
}

// cleanLabel strips list markers, quotes and final punctuation from an
// option's label and bounds it.
func cleanLabel(s string) string {
	s = bound(s, 4*MaxLabel)
	if mm := listItem.FindStringSubmatch(s); mm != nil {
		s = mm[1]
	}
	s = strings.Trim(s, " \"'`*_.,;:!?")
	return bound(s, MaxLabel)
}
