// Text patterns: "cities containing the substring 'West'", "names that
// start with J", "documents with the letter w in their description". Read
// right after linking, before values, so that the pattern's words are not
// taken for stored values; the filter is made once the subject is known.

package understand

import (
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// textPattern is a pattern the question asks a text column to match.
type textPattern struct {
	where string // "contains", "starts", "ends"
	text  string // as typed, lower case
	col   *mention
	// cols are the columns col named when the pattern was read, before
	// the column words were settled among themselves
	cols      []entry
	start, at int // mention span of the words read
}

// patternCues say where the pattern stands in the text.
var patternCues = map[string]string{
	"contain": "contains", "contains": "contains", "containing": "contains", "contained": "contains",
	"substring": "contains", "letter": "contains", "letters": "contains", "word": "contains",
	"start": "starts", "starts": "starts", "starting": "starts", "begin": "starts", "begins": "starts",
	"beginning": "starts", "end": "ends", "ends": "ends", "ending": "ends",
}

// readPatterns finds the text patterns of the question and takes their
// words out of the other readings.
func (b *builder) readPatterns() {
	for i := 0; i < len(b.ms); i++ {
		m := b.ms[i]
		// "documents with 'w' in them": a quotation between "with" and "in"
		if b.words(m) == "with" && i+1 < len(b.ms) {
			if pat, end := b.quotedAt(i + 1); pat != "" && end < len(b.ms) && b.words(b.ms[end]) == "in" {
				p := textPattern{where: "contains", text: pat, start: i, at: end + 1}
				p.col = b.patternColumn(i, end+1)
				if p.col != nil {
					p.cols = append([]entry(nil), p.col.entries...)
				}
				b.patterns = append(b.patterns, p)
				for k := i; k <= end; k++ {
					b.ms[k].kind, b.ms[k].used = kStop, true
				}
				i = end
				continue
			}
		}
		where, ok := patternCues[b.l.texts[m.start]]
		if !ok || m.end-m.start != 1 {
			continue
		}
		p := textPattern{where: where, start: i}
		// "starts with", "ending with": the cue needs its "with"
		if where != "contains" && (i+1 >= len(b.ms) || b.words(b.ms[i+1]) != "with") {
			continue
		}
		// the pattern: a quoted text after the cue, else the next word
		// ("starts with J", "the letter w", "the substring West")
		j := i + 1
		pat, end := "", 0
		for ; j < len(b.ms); j++ {
			if pat, end = b.quotedAt(j); pat != "" || !b.skipInPattern(j) {
				break
			}
		}
		if j >= len(b.ms) {
			continue
		}
		if pat == "" {
			named := b.l.texts[m.start] == "substring" || b.l.texts[m.start] == "letter" || b.l.texts[m.start] == "word" ||
				j > i+1 && b.words(b.ms[j-1]) != "the"
			w := b.ms[j]
			// an unquoted word after "containing" is a pattern only when it
			// names nothing else ("tracks containing love", not "playlists
			// containing Thriller")
			if b.l.toks[w.start].Kind != text.Word || where == "contains" && !named && w.kind != kUnknown {
				continue
			}
			pat, end = b.l.texts[w.start], j+1
		}
		p.text, p.at = pat, end
		p.col = b.patternColumn(i, end)
		if p.col != nil {
			p.cols = append([]entry(nil), p.col.entries...)
		}
		b.patterns = append(b.patterns, p)
		for k := i; k < end; k++ {
			b.ms[k].kind, b.ms[k].used = kStop, true
		}
		i = end - 1
	}
}

// skipInPattern reports whether mention j stands between a cue and its
// pattern ("with", "the", "substring", "letter").
func (b *builder) skipInPattern(j int) bool {
	switch b.words(b.ms[j]) {
	case "with", "the", "a", "an", "substring", "letter", "letters", "word", "string", "text", "of":
		return true
	}
	return false
}

// quotedAt returns the text of a quotation that starts at mention j, and
// the index of the mention after it; "" when none starts there.
func (b *builder) quotedAt(j int) (string, int) {
	q := b.in.Question
	start := b.l.toks[b.ms[j].start].Start
	k := start - 1
	for k >= 0 && q[k] == ' ' {
		k--
	}
	if k < 0 || (q[k] != '\'' && q[k] != '"') {
		return "", 0
	}
	closeAt := strings.IndexByte(q[start:], q[k])
	if closeAt < 0 {
		return "", 0
	}
	end := start + closeAt
	n := j
	for n < len(b.ms) && b.l.toks[b.ms[n].start].Start < end {
		n++
	}
	return strings.TrimSpace(q[start:end]), n
}

// patternColumn is the column mention the pattern applies to: named just
// before the cue ("a city containing", "whose name starts with") or after
// the pattern ("w in their description"); nil when none is named.
func (b *builder) patternColumn(cue, after int) *mention {
	for j := cue - 1; j >= 0 && j >= cue-3; j-- {
		if m := b.ms[j]; m.kind == kColumn {
			return m
		}
	}
	for j := after; j < len(b.ms) && j <= after+3; j++ {
		if m := b.ms[j]; m.kind == kColumn {
			return m
		}
	}
	return nil
}

// patternFilters turns the patterns into conditions on text columns of the
// subject (or of what it reaches through many-to-one joins): the column
// named, or asked about among the subject's text columns when none is.
func (b *builder) patternFilters() {
	for _, p := range b.patterns {
		var col *model.Column
		if p.col != nil {
			for _, e := range append(append([]entry(nil), p.col.entries...), p.cols...) {
				if e.kind == kColumn && !e.column.Numeric() && b.a.model.ToOne(b.q.Base, e.entity) {
					col = e.column
					break
				}
			}
			p.col.used = true
		}
		if col == nil {
			col = b.patternColumnSlot(p)
		}
		if col == nil {
			continue
		}
		lit := p.text
		switch p.where {
		case "contains":
			lit = "%" + lit + "%"
		case "starts":
			lit += "%"
		case "ends":
			lit = "%" + lit
		}
		ref := &model.ColumnRef{Entity: col.Entity().Name, Column: col.Name}
		c := model.Compare{Left: model.Operand{Column: ref}, Op: "like", Right: []model.Operand{{Literal: lit}}}
		label := fmt.Sprintf("%s %s %q", col.Title(), map[string]string{"contains": "contains", "starts": "starts with", "ends": "ends with"}[p.where], p.text)
		b.q.Filters = append(b.q.Filters, query.Filter{Entity: col.Entity(), Cond: c, Label: label, Slot: "pattern:" + p.text})
	}
}

// patternColumnSlot asks which text column a pattern with no column named
// applies to ("documents with 'w' in them"); with one such column, it is
// that one.
func (b *builder) patternColumnSlot(p textPattern) *model.Column {
	var cols []*model.Column
	for _, c := range b.q.Base.Columns {
		switch c.Role {
		case model.RoleName, model.RoleDimension, model.RoleText:
			if !c.Numeric() {
				cols = append(cols, c)
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	if len(cols) == 1 {
		return cols[0]
	}
	words := p.text
	sl := &Slot{Key: "pattern:" + words, Kind: KindColumn, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%q could be looked for in %d columns of %s.", words, len(cols), b.q.Base.PluralLabel())}
	d := b.q.Base.DisplayColumn()
	for _, c := range cols {
		if len(sl.Options) == 4 {
			break
		}
		sl.Options = append(sl.Options, &Option{ID: c.Name, Label: columnLabel(c), column: c, BestGuess: c == d})
	}
	if sl.Best() >= 0 && !sl.Options[sl.Best()].BestGuess {
		sl.Options[0].BestGuess = true
	}
	sl.Question = fmt.Sprintf("Which column should contain %q: the %s, or another one?", words, strings.ToLower(sl.Options[sl.Best()].Label))
	var entries []entry
	for _, c := range cols {
		entries = append(entries, entry{kind: kColumn, column: c, entity: c.Entity()})
	}
	if o := b.settle(sl, func(t string) (*Option, string) { return b.parseColumnAnswer(t, entries) }); o != nil {
		return o.column
	}
	return nil
}
