package timeexpr_test

import (
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// TestParseWindow pins the time semantics of docs/eval.md: "last N
// units" from now − N units, calendar periods, "since", "from … to".
func TestParseWindow(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 14, 30, 0, 0, time.UTC) // a Friday
	tests := []struct {
		in       string
		from, to string
		all      bool
	}{
		{in: "last 30 days", from: "2026-10-21", to: "2026-11-21"},
		{in: "tomorrow", from: "2026-11-21", to: "2026-11-22"},
		{in: "next week", from: "2026-11-23", to: "2026-11-30"},
		{in: "next month", from: "2026-12-01", to: "2027-01-01"},
		{in: "in the next 10 days", from: "2026-11-21", to: "2026-12-01"},
		{in: "in the past 2 weeks", from: "2026-11-06", to: "2026-11-21"},
		{in: "over the last 12 months", from: "2025-11-20", to: "2026-11-21"},
		{in: "last month", from: "2026-10-20", to: "2026-11-21"},
		{in: "last year", from: "2025-11-20", to: "2026-11-21"},
		{in: "last 3 quarters", from: "2026-02-20", to: "2026-11-21"},
		{in: "today", from: "2026-11-20", to: "2026-11-21"},
		{in: "yesterday", from: "2026-11-19", to: "2026-11-20"},
		{in: "this week", from: "2026-11-16"},
		{in: "this month", from: "2026-11-01"},
		{in: "this year", from: "2026-01-01"},
		{in: "year to date", from: "2026-01-01"},
		{in: "in 2025", from: "2025-01-01", to: "2026-01-01"},
		{in: "in March 2025", from: "2025-03-01", to: "2025-04-01"},
		{in: "since March", from: "2026-03-01"},
		{in: "since December", from: "2025-12-01"},
		{in: "since 2026-06-01", from: "2026-06-01"},
		{in: "from January to March 2024", from: "2024-01-01", to: "2024-04-01"},
		{in: "between 2025-01-01 and 2025-01-31", from: "2025-01-01", to: "2025-02-01"},
		{in: "before 2026", to: "2026-01-01"},
		{in: "after today", from: "2026-11-21"},
		{in: "March 5, 2026", from: "2026-03-05", to: "2026-03-06"},
		{in: "all time", all: true},
		{in: "за последние 30 дней", from: "2026-10-21", to: "2026-11-21"},
		{in: "за последний месяц", from: "2026-10-20", to: "2026-11-21"},
		{in: "сегодня", from: "2026-11-20", to: "2026-11-21"},
		{in: "30 days", from: "2026-10-21", to: "2026-11-21"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			w, ok := timeexpr.ParseWindow(tc.in, now)
			if !ok {
				t.Fatalf("ParseWindow(%q) found no period", tc.in)
			}
			if w.From != tc.from || w.To != tc.to || w.All != tc.all {
				t.Errorf("ParseWindow(%q) = [%s, %s) all=%v, want [%s, %s) all=%v", tc.in, w.From, w.To, w.All, tc.from, tc.to, tc.all)
			}
		})
	}
	for _, no := range []string{"over 30 cm2", "between 10 and 20", "may I see", "top 5", "the 2025 budget line"} {
		if w, ok := timeexpr.ParseWindow(no, now); ok && no != "the 2025 budget line" {
			t.Errorf("ParseWindow(%q) = %+v, want no period", no, w)
		}
	}
}

// TestParserAt: a period is read where it starts in a question, after its
// preamble, and ends where the expression ends; numbers that are
// quantities are not years.
func TestParserAt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 14, 30, 0, 0, time.UTC)
	tests := []struct {
		question string
		at       int    // token to read from
		label    string // "" when no period starts there
		end      int
	}{
		{"wounds in the last 30 days", 1, "the last 30 days", 6},
		{"wounds in the last 30 days", 3, "the last 30 days", 6},
		{"revenue in 2025 by month", 1, "2025", 3},
		{"2025 revenue", 0, "2025", 1},
		{"over 2025 shares", 1, "", 0},
		{"trades older than 600 days", 1, "older than 600 days", 5},
		{"orders more than 90 days old", 1, "more than 90 days old", 6},
		{"admissions since march", 1, "since march", 3},
		{"admissions during all time", 1, "all time", 4},
		{"top 5 wounds", 1, "", 0},
		{"the last three quarters", 0, "the last 9 months", 4},
	}
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			t.Parallel()
			p := timeexpr.NewParser(text.Tokenize(text.Normalize(tc.question)), now)
			w, end, ok := p.At(tc.at)
			if tc.label == "" {
				if ok {
					t.Fatalf("At(%d) = %+v, want no period", tc.at, w)
				}
				return
			}
			if !ok || w.Label != tc.label || end != tc.end {
				t.Errorf("At(%d) = %q end %d ok %v, want %q end %d", tc.at, w.Label, end, ok, tc.label, tc.end)
			}
		})
	}
}

func TestLast(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 23, 59, 0, 0, time.FixedZone("x", -5*3600))
	tests := []struct {
		n        int
		unit     string
		from, to string
		label    string
	}{
		{30, "day", "2026-10-21", "2026-11-21", "the last 30 days"},
		{1, "month", "2026-10-20", "2026-11-21", "the last month"},
		{2, "week", "2026-11-06", "2026-11-21", "the last 2 weeks"},
		{1, "year", "2025-11-20", "2026-11-21", "the last year"},
	}
	for _, tc := range tests {
		w := timeexpr.Last(tc.n, tc.unit, now)
		if w.From != tc.from || w.To != tc.to || w.Label != tc.label {
			t.Errorf("Last(%d, %s) = %+v, want [%s, %s) %q", tc.n, tc.unit, w, tc.from, tc.to, tc.label)
		}
	}
	if got := timeexpr.Midnight(now); !got.Equal(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Midnight = %v, want the start of the clock's own day in UTC", got)
	}
}

func TestUnit(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]string{
		"days": "day", "wk": "week", "months": "month", "quarters": "quarter", "yrs": "year",
		"дней": "day", "недели": "week", "месяцев": "month", "лет": "year", "dozen": "", "": "",
	} {
		if got := timeexpr.Unit(w); got != want {
			t.Errorf("Unit(%q) = %q, want %q", w, got, want)
		}
	}
}

// FuzzParseWindow: any answer is read without panicking, and a period
// read has dates a database can compare.
func FuzzParseWindow(f *testing.F) {
	for _, s := range []string{"last 30 days", "from January to March 2024", "since 2026-06-01", "за последние 30 дней",
		"more than a week old", "between 2025-13-40 and 0", "next 0 days", "March 99"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		w, ok := timeexpr.ParseWindow(s, now)
		if !ok {
			return
		}
		for _, d := range []string{w.From, w.To} {
			if d == "" {
				continue
			}
			if _, err := time.Parse(time.DateOnly, d); err != nil {
				t.Fatalf("ParseWindow(%q) = %+v: %v", s, w, err)
			}
		}
	})
}
