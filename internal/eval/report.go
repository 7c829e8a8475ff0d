package eval

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// Thresholds are the limits a run must meet; a nil limit is not checked.
type Thresholds struct {
	MinAccuracy   *float64
	MaxFalseAsk   *float64
	MaxMissedAsk  *float64
	MinErrorMatch *float64
}

// Check lists every threshold a suite misses.
func (t Thresholds) Check(r *SuiteResult) []string {
	var out []string
	s := r.Scores
	if t.MinAccuracy != nil && s.Accuracy != nil && *s.Accuracy < *t.MinAccuracy {
		out = append(out, fmt.Sprintf("%s: accuracy %.3f < %.3f", r.File, *s.Accuracy, *t.MinAccuracy))
	}
	if t.MaxFalseAsk != nil && s.FalseAsk != nil && *s.FalseAsk > *t.MaxFalseAsk {
		out = append(out, fmt.Sprintf("%s: false_ask %.3f > %.3f", r.File, *s.FalseAsk, *t.MaxFalseAsk))
	}
	if t.MaxMissedAsk != nil && s.MissedAsk != nil && *s.MissedAsk > *t.MaxMissedAsk {
		out = append(out, fmt.Sprintf("%s: missed_ask %.3f > %.3f", r.File, *s.MissedAsk, *t.MaxMissedAsk))
	}
	if t.MinErrorMatch != nil && s.ErrorMatch != nil && *s.ErrorMatch < *t.MinErrorMatch {
		out = append(out, fmt.Sprintf("%s: error_match %.3f < %.3f", r.File, *s.ErrorMatch, *t.MinErrorMatch))
	}
	return out
}

func f3(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *p)
}

// Print writes the scores as a table, then the failed cases.
func Print(w io.Writer, results []*SuiteResult, verbose bool) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "suite\tsource\tcases\taccuracy\task_recall\tfalse_ask\task_precision\tq/case\terror_match\tp50 ms\tp99 ms")
	for _, r := range results {
		s := r.Scores
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%.2f\t%s\t%.2f\t%.2f\n", filepath.Base(r.File), r.Source, s.Cases,
			f3(s.Accuracy), f3(s.AskRecall), f3(s.FalseAsk), f3(s.AskPrecision), s.QuestionsPerCase, f3(s.ErrorMatch), s.P50MS, s.P99MS)
	}
	tw.Flush()
	for _, r := range results {
		if n := r.Scores.ModelCases; n > 0 {
			fmt.Fprintf(w, "%s: the language model was called on %d of %d cases\n", filepath.Base(r.File), n, r.Scores.Cases)
		}
	}
	for _, r := range results {
		if r.Note != "" {
			fmt.Fprintf(w, "\n%s: %s\n", filepath.Base(r.File), r.Note)
		}
		for _, c := range r.Cases {
			if c.Pass && !verbose {
				continue
			}
			mark := "FAIL"
			if c.Pass {
				mark = "ok"
			}
			fmt.Fprintf(w, "%s %s/%s: %q\n", mark, filepath.Base(r.File), c.ID, c.Question)
			for _, p := range c.Problems {
				fmt.Fprintf(w, "    - %s\n", p)
			}
			if !c.Pass && c.SQL != "" {
				fmt.Fprintf(w, "    sql: %s\n", strings.Join(strings.Fields(c.SQL), " "))
			}
		}
	}
}
