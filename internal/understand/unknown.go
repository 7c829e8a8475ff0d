// Unknown words, in the last pass: content words that link to nothing and
// numbers nothing used are asked about, with suggestions, never dropped;
// an explained word is rewritten before the question is linked again.
// Words read despite a typo are shown as assumptions.

package understand

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// partOfValue reports whether the number at mention i is written into a
// value named right after it ("25-OH vitamin D").
func (b *builder) partOfValue(i int) bool {
	if i+1 >= len(b.ms) {
		return false
	}
	n := b.ms[i+1]
	if n.start != b.ms[i].end || (n.kind != kValue && n.kind != kGroup) {
		return false
	}
	num := b.l.texts[b.ms[i].start]
	for _, v := range n.vals {
		if strings.Contains(v.label, num) {
			return true
		}
	}
	return false
}

// unexplained marks the tokens worth looking up in the whole of a table
// still loading (nil when there are none): the words unknownWords asks
// about, and values matched only by part of their name or despite a typo
// (loose: a value they name in full may be in a later row, "green-3150"
// among values "green-…"; looked up everywhere), and values found only in
// tables the question neither names nor reaches through a join (looked up
// in those it names: "t0s named green-3150" where only t23's first rows
// held it), and names found only in tables it reaches through a join while
// a table it names has a name column still loading (pending): warm, that
// table's own name would be read ("t47s named amber-4", which t5's first
// rows and t47's later ones hold, counted t47s joined to such a t5).
func (b *builder) unexplained(named map[*model.Entity]bool, pending map[*model.Column]map[string]bool) (keep []bool, loose bool) {
	mark := func(start, end int) {
		if keep == nil {
			keep = make([]bool, len(b.l.toks))
		}
		for i := start; i < end; i++ {
			keep[i] = true
		}
	}
	for _, p := range b.unknown {
		mark(p[0], p[1])
		loose = true
	}
	for _, m := range b.ms {
		if m.kind != kValue && m.kind != kGroup {
			continue
		}
		switch {
		case m.partial || m.conf < 1:
			mark(m.start, m.end)
			loose = true
		case len(named) > 0 && !slices.ContainsFunc(m.vals, func(v valCand) bool { return reaches(named, v.col.Entity()) }):
			mark(m.start, m.end)
		case len(named) > 0 && ownNameUnknown(named, pending, m.vals):
			mark(m.start, m.end)
		}
	}
	return keep, loose
}

// ownNameUnknown reports whether vals are names (values of name columns)
// of other entities than the named ones only, while a named entity has a
// name column of its own whose values are still loading or were left out
// of the index: it may hold the name too.
func ownNameUnknown(named map[*model.Entity]bool, pending map[*model.Column]map[string]bool, vals []valCand) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if named[v.col.Entity()] || v.col.Role != model.RoleName {
			return false
		}
	}
	for c := range pending {
		if c.Role == model.RoleName && named[c.Entity()] {
			return true
		}
	}
	return false
}

// reaches reports whether one of the named entities is e or joins to it
// ("trades of NVDA": the symbol a trade refers to).
func reaches(named map[*model.Entity]bool, e *model.Entity) bool {
	for n := range named {
		if n == e || e.Model().Reachable(n, e) {
			return true
		}
	}
	return false
}

// namedEntities are the entities the question names by a word for them
// ("t0s", "orders"). Not the builder's context: that also counts the
// entity a value was found in, which is what unexplained asks about.
func namedEntities(ms []*mention) map[*model.Entity]bool {
	named := map[*model.Entity]bool{}
	for _, m := range ms {
		if m.kind != kEntity {
			continue
		}
		for _, e := range m.entries {
			if e.entity != nil {
				named[e.entity] = true
			}
		}
	}
	return named
}

// unknownWords asks about content words that link to nothing, and about
// numbers nothing used.
func (b *builder) unknownWords() {
	var phrases [][2]int
	for i := 0; i < len(b.ms); i++ {
		m := b.ms[i]
		// a comparative left over ("fewer … than" that named no columns)
		// is a condition that would be dropped: always asked about
		_, cmp := comparatives[b.l.toks[m.start].Text]
		// a number nothing used would be a condition silently dropped
		// ("students in grade 12"): asked about like an unknown word
		// (a number word too: "two or more courses"; not "one" or "ones",
		// pronouns as often as numbers)
		if m.kind == kNumber && !m.used && (b.l.toks[m.start].Kind == text.Number || m.num >= 2) && !b.partOfValue(i) {
			phrases = append(phrases, [2]int{m.start, m.end})
			continue
		}
		if m.kind != kUnknown || m.used || !contentWord(b.l.toks[m.start]) || b.relatedWord(m) && !cmp {
			continue
		}
		if !cmp && b.ignorable(i) {
			m.used = true
			b.in.Ignored = append(b.in.Ignored, b.words(m))
			continue
		}
		j := i
		for j+1 < len(b.ms) && b.ms[j+1].kind == kUnknown && contentWord(b.l.toks[b.ms[j+1].start]) {
			j++
		}
		phrases = append(phrases, [2]int{b.ms[i].start, b.ms[j].end})
		i = j
	}
	b.danglingComparisons()
	b.unknown = phrases
	for _, p := range phrases {
		words := b.l.words(&mention{start: p[0], end: p[1]})
		prio := Important
		if b.q.Subject == nil {
			prio = Critical
		}
		sl := &Slot{Key: "unknown:" + words, Kind: KindUnknown, Priority: prio, Text: words, Ask: true, Confidence: 0.4,
			Context: fmt.Sprintf("I don't know what %q means in this data.", words)}
		for _, s := range b.suggest(words) {
			sl.Options = append(sl.Options, &Option{ID: "use:" + s, Label: capitalize(s), rewrite: s})
		}
		if b.q.Subject != nil {
			sl.Options = append(sl.Options, &Option{ID: "ignore", Label: fmt.Sprintf("Ignore %q", words), ignore: true})
		}
		if len(sl.Options) == 0 {
			continue
		}
		if b.q.Subject == nil {
			// nothing answerable: an honest "I can't", never a guess
			sl.NoGuess = true
			sl.Question = fmt.Sprintf("I can't answer %q from this data. It holds %s: did you mean one of these?", words, b.holds())
			b.settle(sl, func(answer string) (*Option, string) {
				return &Option{ID: "use:" + answer, Label: answer, rewrite: answer}, ""
			})
			continue
		}
		sl.Options[0].BestGuess = true
		if sl.Options[0].ignore {
			sl.Question = fmt.Sprintf("I don't know %q. Should I ignore it, or can you say it another way?", words)
		} else {
			sl.Question = fmt.Sprintf("I don't know %q. Did you mean %s, or something else?", words, strings.ToLower(sl.Options[0].Label))
		}
		b.settle(sl, func(answer string) (*Option, string) {
			return &Option{ID: "use:" + answer, Label: answer, rewrite: answer}, ""
		})
	}
}

// ignorable reports whether the unknown word at mention i says nothing
// about which rows or what number: a word about the question itself ("in
// this table"), a word many stored values share as the name of their kind
// ("bikes" beside Road Bikes and Mountain Bikes), or a verb between
// things the question names ("battles that lost ships", "countries where
// Spanish is spoken"), which the join between them already says. A verb
// form nouns share ("films", "live") counts only after a word that makes
// it a verb ("who live", "did not lose").
func (b *builder) ignorable(i int) bool {
	w := b.l.texts[b.ms[i].start]
	if metaSet[w] || b.l.vx.KindWord(text.ValueStem(w)) {
		return true
	}
	verb, sure := text.VerbForm(w)
	// "sections offered per year", "grades handed out", "students
	// majoring in": a participle right after the rows it describes
	if verb && i > 0 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing")) && b.q.Subject != nil {
		if p := b.ms[i-1]; p.kind == kEntity || p.kind == kValue || p.kind == kGroup {
			return true
		}
	}
	if !verb || b.q.Subject == nil || !b.linksSomething() {
		return false
	}
	if sure {
		return true
	}
	if i == 0 {
		return false
	}
	// "which country speaks the most languages": a verb right after the
	// entity that does it
	if p := b.ms[i-1]; p.kind == kEntity && strings.HasSuffix(w, "s") && b.singular(p) {
		return true
	}
	switch b.words(b.ms[i-1]) {
	case "who", "that", "which", "to", "do", "does", "did", "not", "they", "we", "i", "you", "he", "she", "it",
		"can", "could", "will", "would", "should", "may", "might", "must", "has", "have", "had", "never", "always":
		return true
	}
	return false
}

// linksSomething reports whether the question names something of the
// model besides its subject, which a verb may link the subject to.
func (b *builder) linksSomething() bool {
	for _, m := range b.ms {
		switch m.kind {
		case kEntity, kColumn, kValue, kGroup, kMeasure, kFlag, kTerm, kNumber, kTime:
			if m != b.subjectM {
				return true
			}
		}
	}
	return false
}

var metaSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range metaWords {
		m[w] = true
	}
	return m
}()

// relatedWord reports whether an unknown word is a form of a word the
// model knows ("supplied" beside "supplier"): it links two known things
// and carries no condition of its own.
func (b *builder) relatedWord(m *mention) bool {
	s := b.l.stems[m.start]
	if len([]rune(s)) < 5 {
		return false
	}
	// the stems that begin with s follow s in sorted order
	stems := b.a.lex.sortedVocab
	i := sort.SearchStrings(stems, s)
	return i < len(stems) && strings.HasPrefix(stems[i], s)
}

// suggest returns up to three things of the model whose names resemble
// words, or the main entities when nothing does.
func (b *builder) suggest(words string) []string {
	out := b.a.lex.suggest.similar(text.Normalize(words), 3)
	if len(out) > 0 || b.q.Subject != nil {
		return out
	}
	seen := map[string]bool{}
	for _, e := range b.a.model.Entities {
		if l := e.PluralLabel(); !seen[l] && len(out) < 3 {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

func (b *builder) hasUnknown() bool {
	for _, m := range b.ms {
		if m.kind == kUnknown && contentWord(b.l.toks[m.start]) {
			return true
		}
	}
	return false
}

// contentWord reports whether an unlinked token is a word that means
// something (not a stray letter or number).
func contentWord(t text.Token) bool {
	if t.Kind != text.Word || len([]rune(t.Text)) < 2 {
		return false
	}
	for _, r := range t.Text {
		if r >= '0' && r <= '9' {
			return false
		}
	}
	return true
}

// spelling records each word read despite a typo as an assumption.
func (b *builder) spelling() {
	for _, m := range b.ms {
		if len(m.fuzzy) == 0 || m.kind == kUnknown {
			continue
		}
		label := m.entry().label
		if len(m.vals) > 0 && m.vals[0].label != "" {
			label = m.vals[0].label
		}
		if label == "" {
			label = strings.Join(b.l.texts[m.start:m.end], " ")
		}
		for _, typed := range m.fuzzy {
			sl := &Slot{Key: "spelling:" + typed, Kind: KindSpelling, Priority: Helpful, Text: typed, Method: MethodFuzzy,
				Confidence: m.conf, Why: "the closest known word",
				Options: []*Option{{ID: optionID(label), Label: label}}}
			b.settle(sl, nil)
		}
	}
}

// applyRewrites replaces unknown words the user explained ("glorp" → "wound
// area") before the question is linked again.
func applyRewrites(q string, res map[string]Resolution) string {
	keys := make([]string, 0, len(res))
	for k := range res {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r := res[k]
		phrase, ok := strings.CutPrefix(k, "unknown:")
		if !ok || r.Skipped {
			continue
		}
		with := r.FreeText
		if r.OptionID != "" {
			if r.OptionID == "ignore" {
				with = ""
			} else if v, ok := strings.CutPrefix(r.OptionID, "use:"); ok {
				with = v
			}
		}
		q = text.ReplaceWords(q, phrase, text.Normalize(with))
	}
	return q
}
