package understand

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Window is a period of time: rows with From <= t < To (dates as
// YYYY-MM-DD; an empty bound is open). All marks an explicit "all time".
type Window struct {
	From, To string
	Label    string
	All      bool
}

// timeMatch is a time expression found at tokens [start, end).
type timeMatch struct {
	start, end int
	w          Window
}

var monthNames = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
	"sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
	"январь": 1, "января": 1, "январе": 1, "января,": 1, "февраль": 2, "февраля": 2, "феврале": 2,
	"март": 3, "марта": 3, "марте": 3, "апрель": 4, "апреля": 4, "апреле": 4, "май": 5, "мая": 5, "мае": 5,
	"июнь": 6, "июня": 6, "июне": 6, "июль": 7, "июля": 7, "июле": 7, "август": 8, "августа": 8, "августе": 8,
	"сентябрь": 9, "сентября": 9, "сентябре": 9, "октябрь": 10, "октября": 10, "октябре": 10,
	"ноябрь": 11, "ноября": 11, "ноябре": 11, "декабрь": 12, "декабря": 12, "декабре": 12,
}

func unitOf(w string) string {
	switch {
	case w == "day" || w == "days" || w == "d" || strings.HasPrefix(w, "дн") || w == "день" || w == "сутки":
		return "day"
	case w == "week" || w == "weeks" || w == "wk" || w == "wks" || strings.HasPrefix(w, "недел"):
		return "week"
	case w == "month" || w == "months" || w == "mo" || strings.HasPrefix(w, "месяц"):
		return "month"
	case w == "quarter" || w == "quarters" || strings.HasPrefix(w, "квартал"):
		return "quarter"
	case w == "year" || w == "years" || w == "yr" || w == "yrs" || w == "год" || w == "года" || w == "лет" || w == "году":
		return "year"
	}
	return ""
}

type timeParser struct {
	toks []text.Token
	now  time.Time // midnight UTC of the engine's today
}

func (p *timeParser) word(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].Text
}

func (p *timeParser) num(i int) (float64, bool) {
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

func day(t time.Time) string { return t.Format(time.DateOnly) }

// back returns now minus n units.
func (p *timeParser) back(n int, unit string) time.Time {
	switch unit {
	case "day":
		return p.now.AddDate(0, 0, -n)
	case "week":
		return p.now.AddDate(0, 0, -7*n)
	case "month":
		return p.now.AddDate(0, -n, 0)
	case "quarter":
		return p.now.AddDate(0, -3*n, 0)
	}
	return p.now.AddDate(-n, 0, 0)
}

// ahead is t moved n units forward.
func (p *timeParser) ahead(t time.Time, n int, unit string) time.Time {
	switch unit {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	case "quarter":
		return t.AddDate(0, 3*n, 0)
	}
	return t.AddDate(n, 0, 0)
}

func plural(n int, unit string) string {
	if n == 1 {
		return unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// parseAt recognizes a time expression starting at token i.
func (p *timeParser) parseAt(i int) (timeMatch, bool) {
	start := i
	// optional preamble: "in the", "over the", "during", "within", "for the", "за"
	j := i
	switch p.word(j) {
	case "in", "over", "during", "within", "for", "of", "за", "в", "на", "throughout":
		j++
	}
	if p.word(j) == "the" {
		j++
	}
	if m, ok := p.core(j); ok {
		m.start = start
		return m, true
	}
	if j != i {
		return timeMatch{}, false
	}
	return timeMatch{}, false
}

func (p *timeParser) core(i int) (timeMatch, bool) {
	w := p.word(i)
	switch w {
	case "last", "past", "previous", "preceding", "trailing", "latest", "последние", "последний", "последнюю", "последнее", "прошлый", "прошлую", "прошлом", "прошлые":
		n := 1
		j := i + 1
		if v, ok := p.num(j); ok && v >= 1 && v == float64(int(v)) {
			n = int(v)
			j++
		}
		if u := unitOf(p.word(j)); u != "" {
			from := p.back(n, u)
			label := "the last " + plural(n, u)
			if u == "quarter" {
				label = "the last " + plural(3*n, "month")
			}
			// "to now" (eval-format.md): planned dates after today are not
			// in the last 30 days
			return timeMatch{end: j + 1, w: Window{From: day(from), To: day(p.now.AddDate(0, 0, 1)), Label: label}}, true
		}
	case "older", "newer", "younger":
		// "older than 600 days": dated before now − 600 days
		if p.word(i+1) == "than" {
			if v, ok := p.num(i + 2); ok && v >= 1 {
				if u := unitOf(p.word(i + 3)); u != "" {
					at := day(p.back(int(v), u))
					label := fmt.Sprintf("%s than %s", w, plural(int(v), u))
					if w == "older" {
						return timeMatch{end: i + 4, w: Window{To: at, Label: label}}, true
					}
					return timeMatch{end: i + 4, w: Window{From: at, Label: label}}, true
				}
			}
		}
	case "more", "over", "less", "under", "at":
		// "more than 90 days old", "less than a week old", "at least 30 days old"
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
			break
		}
		if u := unitOf(p.word(j)); u != "" && p.word(j+1) == "old" && n >= 1 {
			at := day(p.back(int(n), u))
			label := p.span(i, j+2)
			if w == "more" || w == "over" || p.word(i+1) == "least" {
				return timeMatch{end: j + 2, w: Window{To: at, Label: label}}, true
			}
			return timeMatch{end: j + 2, w: Window{From: at, Label: label}}, true
		}
	case "today", "сегодня":
		return timeMatch{end: i + 1, w: Window{From: day(p.now), To: day(p.now.AddDate(0, 0, 1)), Label: "today"}}, true
	case "tomorrow", "завтра":
		return timeMatch{end: i + 1, w: Window{From: day(p.now.AddDate(0, 0, 1)), To: day(p.now.AddDate(0, 0, 2)), Label: "tomorrow"}}, true
	case "next", "следующий", "следующей", "следующем", "следующую":
		// planned dates: "next week" is the coming calendar week, "the next
		// 30 days" the days after today
		if u := unitOf(p.word(i + 1)); u != "" && u != "day" {
			start := p.periodStart(u)
			from := p.ahead(start, 1, u)
			return timeMatch{end: i + 2, w: Window{From: day(from), To: day(p.ahead(from, 1, u)), Label: "next " + u}}, true
		}
		if v, ok := p.num(i + 1); ok && v >= 1 && v == float64(int(v)) {
			if u := unitOf(p.word(i + 2)); u != "" {
				from := p.now.AddDate(0, 0, 1)
				return timeMatch{end: i + 3, w: Window{From: day(from), To: day(p.ahead(from, int(v), u)), Label: "the next " + plural(int(v), u)}}, true
			}
		}
	case "yesterday", "вчера":
		return timeMatch{end: i + 1, w: Window{From: day(p.now.AddDate(0, 0, -1)), To: day(p.now), Label: "yesterday"}}, true
	case "this", "current", "этот", "этом", "эту", "текущий", "текущем", "текущую":
		if u := unitOf(p.word(i + 1)); u != "" {
			return timeMatch{end: i + 2, w: Window{From: day(p.periodStart(u)), Label: "this " + u}}, true
		}
	case "ytd":
		return timeMatch{end: i + 1, w: Window{From: day(p.periodStart("year")), Label: "this year"}}, true
	case "year":
		if p.word(i+1) == "to" && p.word(i+2) == "date" {
			return timeMatch{end: i + 3, w: Window{From: day(p.periodStart("year")), Label: "this year"}}, true
		}
	case "all":
		if p.word(i+1) == "time" || (p.word(i+1) == "available" && p.word(i+2) == "data") {
			end := i + 2
			if p.word(i+1) == "available" {
				end = i + 3
			}
			return timeMatch{end: end, w: Window{All: true, Label: "all time"}}, true
		}
	case "ever", "всё", "все":
		if w == "ever" || p.word(i+1) == "время" {
			end := i + 1
			if w != "ever" {
				end = i + 2
			}
			return timeMatch{end: end, w: Window{All: true, Label: "all time"}}, true
		}
	case "since", "after", "с", "starting", "со":
		j := i + 1
		if w == "starting" {
			if p.word(j) != "from" && p.word(j) != "in" {
				return timeMatch{}, false
			}
			j++
		}
		if from, to, end, ok := p.point(j, false); ok {
			f := from
			if w == "after" {
				f = to
			}
			return timeMatch{end: end, w: Window{From: day(f), Label: w + " " + p.span(j, end)}}, true
		}
	case "before", "until", "till", "до":
		if from, _, end, ok := p.point(i+1, false); ok {
			return timeMatch{end: end, w: Window{To: day(from), Label: "before " + p.span(i+1, end)}}, true
		}
	case "from", "between":
		if from, _, mid, ok := p.point(i+1, true); ok {
			sep := p.word(mid)
			if sep == "to" || sep == "until" || sep == "till" || sep == "through" || sep == "and" || sep == "thru" || sep == "по" || sep == "до" {
				if _, to, end, ok := p.point(mid+1, false); ok {
					// "from January to March 2024": the first point takes the year of the second
					if !p.hasYear(i+1, mid) {
						if y, ok := p.yearIn(mid+1, end); ok {
							from = time.Date(y, from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
						}
					}
					return timeMatch{end: end, w: Window{From: day(from), To: day(to), Label: "from " + p.span(i+1, mid) + " to " + p.span(mid+1, end)}}, true
				}
			}
		}
	}
	// a bare year or month with a year ("2025", "March 2025") after a preamble
	if i > 0 {
		switch p.word(i - 1) {
		case "in", "during", "of", "for", "в", "за", "the":
			if from, to, end, ok := p.point(i, false); ok {
				return timeMatch{end: end, w: Window{From: day(from), To: day(to), Label: p.span(i, end)}}, true
			}
		}
	}
	// "March 2025", "March 5, 2026": a month with a year or a day
	if _, ok := monthNames[w]; ok {
		if from, to, end, ok := p.point(i, false); ok && end > i+1 {
			return timeMatch{end: end, w: Window{From: day(from), To: day(to), Label: p.span(i, end)}}, true
		}
	}
	if from, to, end, ok := p.isoDate(i); ok {
		return timeMatch{end: end, w: Window{From: day(from), To: day(to), Label: p.span(i, end)}}, true
	}
	// a bare year ("2025 revenue") unless it is a quantity ("over 2025 shares")
	if y, ok := p.year(i); ok && !p.quantityContext(i) {
		return timeMatch{end: i + 1, w: Window{From: fmt.Sprintf("%d-01-01", y), To: fmt.Sprintf("%d-01-01", y+1), Label: strconv.Itoa(y)}}, true
	}
	return timeMatch{}, false
}

// quantityContext reports whether the number at i is compared or counted
// rather than a year.
func (p *timeParser) quantityContext(i int) bool {
	switch p.word(i - 1) {
	case "over", "above", "under", "below", "than", "least", "most", "top", "first", "last", "exactly", "about",
		"around", ">", "<", ">=", "<=", "=", "$", "id", "number", "#", "order", "patient", "№":
		return true
	}
	return unitOf(p.word(i+1)) != "" || text.IsUnitWord(p.word(i+1))
}

func (p *timeParser) span(i, j int) string {
	if i >= j || j > len(p.toks) {
		return ""
	}
	var parts []string
	for _, t := range p.toks[i:j] {
		parts = append(parts, t.Text)
	}
	return strings.Join(parts, " ")
}

func (p *timeParser) periodStart(unit string) time.Time {
	n := p.now
	switch unit {
	case "day":
		return n
	case "week":
		wd := (int(n.Weekday()) + 6) % 7 // Monday = 0
		return n.AddDate(0, 0, -wd)
	case "month":
		return time.Date(n.Year(), n.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "quarter":
		q := (int(n.Month()) - 1) / 3
		return time.Date(n.Year(), time.Month(3*q+1), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(n.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
}

func (p *timeParser) year(i int) (int, bool) {
	if i >= len(p.toks) || p.toks[i].Kind != text.Number {
		return 0, false
	}
	t := p.toks[i]
	if len(t.Text) != 4 || t.Num < 1900 || t.Num > 2200 {
		return 0, false
	}
	return int(t.Num), true
}

func (p *timeParser) hasYear(i, j int) bool {
	_, ok := p.yearIn(i, j)
	return ok
}

func (p *timeParser) yearIn(i, j int) (int, bool) {
	for k := i; k < j; k++ {
		if y, ok := p.year(k); ok {
			return y, true
		}
	}
	return 0, false
}

// point parses a date, a month with an optional year, or a year, and
// returns its first day, the day after it ends and the next token index.
func (p *timeParser) point(i int, allowBareMonth bool) (from, to time.Time, next int, ok bool) {
	_ = allowBareMonth
	if f, t, n, ok := p.isoDate(i); ok {
		return f, t, n, true
	}
	switch p.word(i) {
	case "today", "now", "сегодня":
		return p.now, p.now.AddDate(0, 0, 1), i + 1, true
	case "yesterday", "вчера":
		return p.now.AddDate(0, 0, -1), p.now, i + 1, true
	case "tomorrow", "завтра":
		return p.now.AddDate(0, 0, 1), p.now.AddDate(0, 0, 2), i + 1, true
	}
	if y, ok := p.year(i); ok {
		j := i + 1
		if p.word(j) == "год" || p.word(j) == "году" || p.word(j) == "года" {
			j++
		}
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC), j, true
	}
	// "1 March 2025"
	if d, ok := p.num(i); ok && p.toks[i].Kind == text.Number && d >= 1 && d <= 31 {
		if mo, ok := monthNames[p.word(i+1)]; ok {
			y, hasY := p.year(i + 2)
			next := i + 2
			if hasY {
				next++
			} else {
				y = p.recentYear(mo)
			}
			f := time.Date(y, mo, int(d), 0, 0, 0, 0, time.UTC)
			return f, f.AddDate(0, 0, 1), next, true
		}
	}
	mo, isMonth := monthNames[p.word(i)]
	if !isMonth {
		return time.Time{}, time.Time{}, 0, false
	}
	j := i + 1
	// "March 1, 2025" / "March 1"
	if d, ok := p.num(j); ok && p.toks[j].Kind == text.Number && d >= 1 && d <= 31 && len(p.toks[j].Text) <= 2 {
		y, hasY := p.year(j + 1)
		next := j + 1
		if hasY {
			next++
		} else {
			y = p.recentYear(mo)
		}
		f := time.Date(y, mo, int(d), 0, 0, 0, 0, time.UTC)
		return f, f.AddDate(0, 0, 1), next, true
	}
	y, hasY := p.year(j)
	if hasY {
		j++
	} else {
		y = p.recentYear(mo)
	}
	f := time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	return f, f.AddDate(0, 1, 0), j, true
}

// recentYear is the year of the latest such month not after now.
func (p *timeParser) recentYear(mo time.Month) int {
	if mo > p.now.Month() {
		return p.now.Year() - 1
	}
	return p.now.Year()
}

// isoDate reads 2025-03-01 or 2025/03/01 (tokenized as three numbers).
func (p *timeParser) isoDate(i int) (from, to time.Time, next int, ok bool) {
	if i+2 >= len(p.toks) {
		return
	}
	a, b, c := p.toks[i], p.toks[i+1], p.toks[i+2]
	if a.Kind != text.Number || b.Kind != text.Number || c.Kind != text.Number || len(a.Text) != 4 || b.Start-a.End != 1 || c.Start-b.End != 1 {
		return
	}
	y, _ := strconv.Atoi(a.Text)
	mo, _ := strconv.Atoi(b.Text)
	d, _ := strconv.Atoi(c.Text)
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return
	}
	f := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	return f, f.AddDate(0, 0, 1), i + 3, true
}

// SpanWindow is the window "the last N units" ending today.
func SpanWindow(s model.Span, now time.Time) Window {
	p := &timeParser{now: midnight(now)}
	return Window{From: day(p.back(s.N, s.Unit)), To: day(p.now.AddDate(0, 0, 1)), Label: "the last " + plural(s.N, s.Unit)}
}

// ParseWindow reads a whole text as a time expression ("last 14 days",
// "since March", "all time"), for free-text answers.
func ParseWindow(answer string, now time.Time) (Window, bool) {
	toks := text.Tokenize(text.Normalize(answer))
	p := &timeParser{toks: toks, now: midnight(now)}
	for i := range toks {
		if m, ok := p.parseAt(i); ok {
			return m.w, true
		}
	}
	// "30 days", "2 weeks"
	if len(toks) >= 2 {
		if n, ok := p.num(0); ok && n >= 1 {
			if u := unitOf(toks[1].Text); u != "" {
				return SpanWindow(model.Span{N: int(n), Unit: u}, now), true
			}
		}
	}
	return Window{}, false
}

func midnight(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// optionWindow turns a model's "last" value ("30 days", "today") into a window.
func optionWindow(last string, now time.Time) (Window, bool) {
	if last == "today" {
		return ParseWindow("today", now)
	}
	sp, err := model.ParseSpan(last)
	if err != nil {
		return Window{}, false
	}
	return SpanWindow(sp, now), true
}
