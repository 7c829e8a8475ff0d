// Thresholds typed as answers: "more than 500 pages", "under $50",
// "above 30%", "over 100 million", "hired before 1990". Read when a vague
// word's question is answered in the user's own words, against the column
// the answer names or else the column the word's options compare.

package understand

import (
	"fmt"
	"math"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// answerComparators are the comparisons an answer may start with, longest
// first, and the words that compare dates.
var answerComparators = []struct{ words, op string }{
	{"more than", ">"}, {"greater than", ">"}, {"higher than", ">"}, {"larger than", ">"}, {"bigger than", ">"},
	{"longer than", ">"}, {"older than", ">"}, {"at least", ">="}, {"no less than", ">="}, {"or more", ">="},
	{"and up", ">="}, {"and above", ">="}, {"fewer than", "<"}, {"less than", "<"}, {"lower than", "<"},
	{"smaller than", "<"}, {"shorter than", "<"}, {"younger than", "<"}, {"cheaper than", "<"}, {"at most", "<="},
	{"no more than", "<="}, {"or less", "<="}, {"or fewer", "<="}, {"up to", "<="}, {"over", ">"}, {"above", ">"},
	{"exceeding", ">"}, {"under", "<"}, {"below", "<"}, {"after", ">"}, {"since", ">="}, {"before", "<"},
	{"until", "<="}, {"in", "="}, {">=", ">="}, {"<=", "<="}, {">", ">"}, {"<", "<"}, {"=", "="},
}

// magnitudes scale a number written with a word after it.
var magnitudes = map[string]float64{"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "millions": 1e6,
	"b": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9}

// readThreshold reads a comparison with a number typed as an answer about
// entity e. The column is the one the answer names among e's (and those
// e reaches through many-to-one joins), else def. A year compared with a
// date column is a date ("hired before 1990" is before 1990-01-01); a
// percentage compared with a column of fractions is divided by 100.
func (b *builder) readThreshold(answer string, e *model.Entity, def *model.Column, fractions bool) (model.Cond, bool) {
	norm := " " + strings.Join(strings.Fields(text.Normalize(answer)), " ") + " "
	op := ""
	for _, c := range answerComparators {
		if strings.Contains(norm, " "+c.words+" ") {
			op = c.op
			break
		}
	}
	toks := text.Tokenize(text.Normalize(answer))
	num, found, percent := 0.0, false, false
	for i, t := range toks {
		if t.Kind != text.Number {
			continue
		}
		num, found = t.Num, true
		if i+1 < len(toks) {
			if m, ok := magnitudes[toks[i+1].Text]; ok {
				num *= m
			}
			percent = toks[i+1].Text == "%" || toks[i+1].Text == "percent"
		}
		break
	}
	if !found {
		return nil, false
	}
	if op == "" {
		op = ">=" // a bare number is the threshold the word starts at
	}
	col := b.namedColumn(toks, e)
	if col == nil {
		col = def
	}
	if col == nil {
		return nil, false
	}
	ref := &model.ColumnRef{Entity: col.Entity().Name, Column: col.Name}
	if col.Temporal() && num >= 1000 && num < 3000 && num == math.Trunc(num) {
		return yearCond(ref, op, int(num)), true
	}
	if !col.Numeric() {
		return nil, false
	}
	if percent && fractions && num > 1 {
		num /= 100
	}
	lit := model.Operand{Literal: num}
	if num == math.Trunc(num) && col.Type != "real" && col.Type != "numeric" {
		lit = model.Operand{Literal: int64(num)}
	}
	return model.Compare{Left: model.Operand{Column: ref}, Op: op, Right: []model.Operand{lit}}, true
}

// yearCond compares a date column with a calendar year.
func yearCond(ref *model.ColumnRef, op string, year int) model.Cond {
	start := fmt.Sprintf("%04d-01-01", year)
	next := fmt.Sprintf("%04d-01-01", year+1)
	cmp := func(op, v string) model.Cond {
		return model.Compare{Left: model.Operand{Column: ref}, Op: op, Right: []model.Operand{{Literal: v}}}
	}
	switch op {
	case ">", "<=":
		// after 1964, until 1964: the whole year is on the near side
		if op == ">" {
			return cmp(">=", next)
		}
		return cmp("<", next)
	case "=":
		return model.And{Items: []model.Cond{cmp(">=", start), cmp("<", next)}}
	}
	return cmp(op, start)
}

// namedColumn returns the column of e (or of an entity e reaches through
// many-to-one joins) whose words the tokens name, preferring the longest
// name; nil when none is named.
func (b *builder) namedColumn(toks []text.Token, e *model.Entity) *model.Column {
	have := " "
	for _, t := range toks {
		have += t.Stem + " "
	}
	var best *model.Column
	bestLen := 0
	for _, other := range b.a.model.Entities {
		if other != e && !b.a.model.ToOne(e, other) {
			continue
		}
		for _, c := range other.Columns {
			if !c.Numeric() && !c.Temporal() {
				continue
			}
			words := append([]string{humanizeName(c.Name), c.Title()}, c.Synonyms...)
			for _, w := range words {
				k := text.StemPhrase(w)
				if k != "" && strings.Contains(have, " "+k+" ") && len(k) > bestLen && (other == e || best == nil || best.Entity() != e) {
					best, bestLen = c, len(k)
				}
			}
		}
	}
	return best
}
