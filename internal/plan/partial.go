package plan

import (
	"time"

	"github.com/clarify-sql/clarify/internal/query"
)

// Partial lists the x values of a chart over time buckets whose period
// the answer covers only in part: the first and last buckets cut by the
// question's window, and the bucket still running at now. A chart draws
// them as partial, not as real dips.
func Partial(q *query.Query, ch Chart, cols []Column, rows [][]any, now time.Time) []string {
	if ch.Type != "line" || q == nil || len(q.Group) == 0 || q.Group[0].Bucket == "" {
		return nil
	}
	grain := q.Group[0].Bucket
	x := -1
	for i, c := range cols {
		if c.Name == ch.X && c.Kind == KindPeriod {
			x = i
		}
	}
	if x < 0 {
		return nil
	}
	var from, to time.Time
	if w := q.Window; w != nil && !w.Window.All {
		from, _ = time.Parse(time.DateOnly, w.Window.From)
		to, _ = time.Parse(time.DateOnly, w.Window.To)
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if to.IsZero() || today.AddDate(0, 0, 1).Before(to) {
		to = today.AddDate(0, 0, 1) // nothing after today exists yet
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		label, ok := r[x].(string)
		if !ok || seen[label] {
			continue
		}
		start, ok := bucketStart(label, grain)
		if !ok {
			continue
		}
		end := bucketEnd(start, grain)
		if !from.IsZero() && start.Before(from) || end.After(to) {
			seen[label] = true
			out = append(out, label)
		}
	}
	return out
}

// bucketStart reads a bucket label as written by the dialects' bucket
// expressions: 2024-03-04 (a day, or a week's Monday), 2024-03, 2024.
func bucketStart(label, grain string) (time.Time, bool) {
	layout := map[string]string{"day": time.DateOnly, "week": time.DateOnly, "month": "2006-01", "year": "2006"}[grain]
	if layout == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(layout, label)
	return t, err == nil
}

// bucketEnd is the first day after a bucket.
func bucketEnd(start time.Time, grain string) time.Time {
	switch grain {
	case "day":
		return start.AddDate(0, 0, 1)
	case "week":
		return start.AddDate(0, 0, 7)
	case "year":
		return start.AddDate(1, 0, 0)
	}
	return start.AddDate(0, 1, 0)
}
