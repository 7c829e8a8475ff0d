package timeexpr

import (
	"fmt"
	"time"

	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Window is a period of time: rows with From <= t < To (dates as
// YYYY-MM-DD; an empty bound is open). All marks an explicit "all time".
type Window struct {
	From, To string
	Label    string
	All      bool
}

// ParseWindow reads a whole text as a time expression ("last 14 days",
// "since March", "all time"), for free-text answers.
func ParseWindow(s string, now time.Time) (Window, bool) {
	toks := text.Tokenize(text.Normalize(s))
	p := NewParser(toks, now)
	for i := range toks {
		if w, _, ok := p.At(i); ok {
			return w, true
		}
	}
	// "30 days", "2 weeks"
	if len(toks) >= 2 {
		if n, ok := p.num(0); ok && n >= 1 {
			if u := Unit(toks[1].Text); u != "" {
				return Last(int(n), u, now), true
			}
		}
	}
	return Window{}, false
}

// Last is the window "the last n units" ending today: from now − n units
// to the end of today. unit is day, week, month, quarter or year.
func Last(n int, unit string, now time.Time) Window {
	p := &Parser{now: Midnight(now)}
	return Window{From: day(p.back(n, unit)), To: day(p.now.AddDate(0, 0, 1)), Label: "the last " + plural(n, unit)}
}

// Midnight is the start of t's day, in UTC: the "today" periods are
// counted from.
func Midnight(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

func plural(n int, unit string) string {
	if n == 1 {
		return unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
