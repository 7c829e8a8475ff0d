package timeexpr

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Parser reads time expressions in the tokens of one question.
type Parser struct {
	toks []text.Token
	now  time.Time // midnight UTC of the engine's today
}

// NewParser returns a parser of toks for a question asked at now (the
// engine's clock).
func NewParser(toks []text.Token, now time.Time) *Parser {
	return &Parser{toks: toks, now: Midnight(now)}
}

// match is a time expression that ends before token end.
type match struct {
	end int
	w   Window
}

// At reads a time expression starting at token i, after an optional
// preamble ("in the", "over the", "during", "за"). It returns the window
// and the index of the first token after the expression.
func (p *Parser) At(i int) (w Window, end int, ok bool) {
	j := i
	switch p.word(j) {
	case "in", "over", "during", "within", "for", "of", "за", "в", "на", "throughout":
		j++
	}
	if p.word(j) == "the" {
		j++
	}
	m, ok := p.expression(j)
	return m.w, m.end, ok
}

// expression reads the expression at token i: a phrase that starts with a
// time word, else a date, a month or a year.
func (p *Parser) expression(i int) (match, bool) {
	if m, ok := p.phrase(i); ok {
		return m, true
	}
	return p.date(i)
}

// phrase reads the expressions that start with a word of their own: "last
// 30 days", "older than 600 days", "more than 90 days old", "today",
// "next week", "this month", "year to date", "all time", "since March",
// "before 2026", "from January to March".
func (p *Parser) phrase(i int) (match, bool) {
	switch w := p.word(i); w {
	case "last", "past", "previous", "preceding", "trailing", "latest", "последние", "последний", "последнюю", "последнее", "прошлый", "прошлую", "прошлом", "прошлые":
		return p.lastN(i)
	case "older", "newer", "younger":
		return p.comparedAge(i, w)
	case "more", "over", "less", "under", "at":
		return p.age(i, w)
	case "today", "сегодня":
		return match{end: i + 1, w: Window{From: day(p.now), To: day(p.now.AddDate(0, 0, 1)), Label: "today"}}, true
	case "tomorrow", "завтра":
		return match{end: i + 1, w: Window{From: day(p.now.AddDate(0, 0, 1)), To: day(p.now.AddDate(0, 0, 2)), Label: "tomorrow"}}, true
	case "yesterday", "вчера":
		return match{end: i + 1, w: Window{From: day(p.now.AddDate(0, 0, -1)), To: day(p.now), Label: "yesterday"}}, true
	case "next", "следующий", "следующей", "следующем", "следующую":
		return p.next(i)
	case "this", "current", "этот", "этом", "эту", "текущий", "текущем", "текущую":
		if u := Unit(p.word(i + 1)); u != "" {
			return match{end: i + 2, w: Window{From: day(p.periodStart(u)), Label: "this " + u}}, true
		}
	case "ytd":
		return match{end: i + 1, w: Window{From: day(p.periodStart("year")), Label: "this year"}}, true
	case "year":
		if p.word(i+1) == "to" && p.word(i+2) == "date" {
			return match{end: i + 3, w: Window{From: day(p.periodStart("year")), Label: "this year"}}, true
		}
	case "all", "ever", "всё", "все":
		return p.allTime(i, w)
	case "since", "after", "с", "starting", "со":
		return p.since(i, w)
	case "before", "until", "till", "до":
		if from, _, end, ok := p.point(i + 1); ok {
			return match{end: end, w: Window{To: day(from), Label: "before " + p.span(i+1, end)}}, true
		}
	case "from", "between":
		return p.fromTo(i)
	}
	return match{}, false
}

// lastN reads "last 30 days", "the past 2 weeks", "last month".
func (p *Parser) lastN(i int) (match, bool) {
	n := 1
	j := i + 1
	if v, ok := p.num(j); ok && v >= 1 && v == float64(int(v)) {
		n = int(v)
		j++
	}
	u := Unit(p.word(j))
	if u == "" {
		return match{}, false
	}
	from := p.back(n, u)
	label := "the last " + plural(n, u)
	if u == "quarter" {
		label = "the last " + plural(3*n, "month")
	}
	// "to now" (docs/eval.md): planned dates after today are not in the
	// last 30 days
	return match{end: j + 1, w: Window{From: day(from), To: day(p.now.AddDate(0, 0, 1)), Label: label}}, true
}

// comparedAge reads "older than 600 days" (dated before now − 600 days),
// "newer than 2 weeks".
func (p *Parser) comparedAge(i int, w string) (match, bool) {
	if p.word(i+1) != "than" {
		return match{}, false
	}
	v, ok := p.num(i + 2)
	if !ok || v < 1 {
		return match{}, false
	}
	u := Unit(p.word(i + 3))
	if u == "" {
		return match{}, false
	}
	at := day(p.back(int(v), u))
	label := fmt.Sprintf("%s than %s", w, plural(int(v), u))
	if w == "older" {
		return match{end: i + 4, w: Window{To: at, Label: label}}, true
	}
	return match{end: i + 4, w: Window{From: at, Label: label}}, true
}

// age reads "more than 90 days old", "less than a week old", "at least 30
// days old".
func (p *Parser) age(i int, w string) (match, bool) {
	j := i + 1
	if p.word(j) == "than" || p.word(j) == "least" || p.word(j) == "most" {
		j++
	}
	n := 1.0
	if v, ok := p.num(j); ok {
		n = v
		j++
	} else if p.word(j) == "a" || p.word(j) == "an" {
		j++
	} else {
		return match{}, false
	}
	u := Unit(p.word(j))
	if u == "" || p.word(j+1) != "old" || n < 1 {
		return match{}, false
	}
	at := day(p.back(int(n), u))
	label := p.span(i, j+2)
	if w == "more" || w == "over" || p.word(i+1) == "least" {
		return match{end: j + 2, w: Window{To: at, Label: label}}, true
	}
	return match{end: j + 2, w: Window{From: at, Label: label}}, true
}

// next reads planned dates: "next week" is the coming calendar week, "the
// next 30 days" the days after today.
func (p *Parser) next(i int) (match, bool) {
	if u := Unit(p.word(i + 1)); u != "" && u != "day" {
		start := p.periodStart(u)
		from := p.ahead(start, 1, u)
		return match{end: i + 2, w: Window{From: day(from), To: day(p.ahead(from, 1, u)), Label: "next " + u}}, true
	}
	if v, ok := p.num(i + 1); ok && v >= 1 && v == float64(int(v)) {
		if u := Unit(p.word(i + 2)); u != "" {
			from := p.now.AddDate(0, 0, 1)
			return match{end: i + 3, w: Window{From: day(from), To: day(p.ahead(from, int(v), u)), Label: "the next " + plural(int(v), u)}}, true
		}
	}
	return match{}, false
}

// allTime reads "all time", "all available data", "ever", "всё время".
func (p *Parser) allTime(i int, w string) (match, bool) {
	end := 0
	switch {
	case w == "all" && p.word(i+1) == "time":
		end = i + 2
	case w == "all" && p.word(i+1) == "available" && p.word(i+2) == "data":
		end = i + 3
	case w == "ever":
		end = i + 1
	case w != "all" && p.word(i+1) == "время":
		end = i + 2
	default:
		return match{}, false
	}
	return match{end: end, w: Window{All: true, Label: "all time"}}, true
}

// since reads "since March", "after today" (from the day after),
// "starting from 2025".
func (p *Parser) since(i int, w string) (match, bool) {
	j := i + 1
	if w == "starting" {
		if p.word(j) != "from" && p.word(j) != "in" {
			return match{}, false
		}
		j++
	}
	from, to, end, ok := p.point(j)
	if !ok {
		return match{}, false
	}
	f := from
	if w == "after" {
		f = to
	}
	return match{end: end, w: Window{From: day(f), Label: w + " " + p.span(j, end)}}, true
}

// fromTo reads "from January to March 2024", "between 2025-01-01 and
// 2025-01-31".
func (p *Parser) fromTo(i int) (match, bool) {
	from, _, mid, ok := p.point(i + 1)
	if !ok {
		return match{}, false
	}
	switch p.word(mid) {
	case "to", "until", "till", "through", "and", "thru", "по", "до":
	default:
		return match{}, false
	}
	_, to, end, ok := p.point(mid + 1)
	if !ok {
		return match{}, false
	}
	// "from January to March 2024": the first point takes the year of the second
	if !p.hasYear(i+1, mid) {
		if y, ok := p.yearIn(mid+1, end); ok {
			from = time.Date(y, from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
		}
	}
	return match{end: end, w: Window{From: day(from), To: day(to), Label: "from " + p.span(i+1, mid) + " to " + p.span(mid+1, end)}}, true
}

// date reads a date, a month or a year standing alone: "in 2025", "March
// 2025", "March 5, 2026", "2025-03-01", "2025 revenue".
func (p *Parser) date(i int) (match, bool) {
	// a bare year or month with a year ("2025", "March 2025") after a preamble
	if i > 0 {
		switch p.word(i - 1) {
		case "in", "during", "of", "for", "в", "за", "the":
			if from, to, end, ok := p.point(i); ok {
				return match{end: end, w: Window{From: day(from), To: day(to), Label: p.span(i, end)}}, true
			}
		}
	}
	// "March 2025", "March 5, 2026": a month with a year or a day
	if _, ok := monthNames[p.word(i)]; ok {
		if from, to, end, ok := p.point(i); ok && end > i+1 {
			return match{end: end, w: Window{From: day(from), To: day(to), Label: p.span(i, end)}}, true
		}
	}
	if from, to, end, ok := p.isoDate(i); ok {
		return match{end: end, w: Window{From: day(from), To: day(to), Label: p.span(i, end)}}, true
	}
	// a bare year ("2025 revenue") unless it is a quantity ("over 2025 shares")
	if y, ok := p.year(i); ok && !p.quantityContext(i) {
		return match{end: i + 1, w: Window{From: fmt.Sprintf("%d-01-01", y), To: fmt.Sprintf("%d-01-01", y+1), Label: strconv.Itoa(y)}}, true
	}
	return match{}, false
}

// quantityContext reports whether the number at i is compared or counted
// rather than a year.
func (p *Parser) quantityContext(i int) bool {
	switch p.word(i - 1) {
	case "over", "above", "under", "below", "than", "least", "most", "top", "first", "last", "exactly", "about",
		"around", ">", "<", ">=", "<=", "=", "$", "id", "number", "#", "order", "patient", "№":
		return true
	}
	return Unit(p.word(i+1)) != "" || text.IsUnitWord(p.word(i+1))
}

func (p *Parser) word(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].Text
}

func (p *Parser) num(i int) (float64, bool) {
	if i < 0 || i >= len(p.toks) {
		return 0, false
	}
	if p.toks[i].Kind == text.Number {
		return p.toks[i].Num, true
	}
	if n, ok := text.NumberWord(p.toks[i].Text); ok {
		return n, true
	}
	return 0, false
}

func (p *Parser) span(i, j int) string {
	if i >= j || j > len(p.toks) {
		return ""
	}
	var parts []string
	for _, t := range p.toks[i:j] {
		parts = append(parts, t.Text)
	}
	return strings.Join(parts, " ")
}
