package timeexpr

import (
	"strconv"
	"time"

	"github.com/clarify-sql/clarify/internal/understand/text"
)

// monthNames are the months as written in English and Russian (with the
// Russian case endings).
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

// point parses a date, a month with an optional year, or a year, and
// returns its first day, the day after it ends and the next token index.
func (p *Parser) point(i int) (from, to time.Time, next int, ok bool) {
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
func (p *Parser) recentYear(mo time.Month) int {
	if mo > p.now.Month() {
		return p.now.Year() - 1
	}
	return p.now.Year()
}

// isoDate reads 2025-03-01 or 2025/03/01 (tokenized as three numbers).
func (p *Parser) isoDate(i int) (from, to time.Time, next int, ok bool) {
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

func (p *Parser) year(i int) (int, bool) {
	if i >= len(p.toks) || p.toks[i].Kind != text.Number {
		return 0, false
	}
	t := p.toks[i]
	if len(t.Text) != 4 || t.Num < 1900 || t.Num > 2200 {
		return 0, false
	}
	return int(t.Num), true
}

func (p *Parser) hasYear(i, j int) bool {
	_, ok := p.yearIn(i, j)
	return ok
}

func (p *Parser) yearIn(i, j int) (int, bool) {
	for k := i; k < j; k++ {
		if y, ok := p.year(k); ok {
			return y, true
		}
	}
	return 0, false
}

// periodStart is the first day of the calendar period (day, week from
// Monday, month, quarter, year) that holds today.
func (p *Parser) periodStart(unit string) time.Time {
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

// back returns now minus n units.
func (p *Parser) back(n int, unit string) time.Time {
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
func (p *Parser) ahead(t time.Time, n int, unit string) time.Time {
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
