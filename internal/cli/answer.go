package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/present"
	"github.com/clarify-sql/clarify/internal/sqlfmt"
)

// maxTableRows is how many rows an answer shows on a terminal; --json
// has them all.
const maxTableRows = 50

// printAnswer writes an answer for a terminal: what was computed, the
// assumptions behind it, the rows (package present), the row count and,
// with withSQL, the statement laid out with its parameters.
func printAnswer(w io.Writer, a *engine.Answer, withSQL bool) {
	fmt.Fprintln(w, a.Statement)
	if len(a.Assumptions) > 0 {
		fmt.Fprintln(w, "Assumptions (ask again to change them):")
		for _, x := range a.Assumptions {
			alts := make([]string, 0, len(x.Alternatives))
			for _, alt := range x.Alternatives {
				alts = append(alts, alt.Label)
			}
			line := "  - " + x.Text
			if len(alts) > 0 {
				line += " (other choices: " + strings.Join(alts, "; ") + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintln(w)
	if err := present.WriteTable(w, a.Columns, a.Rows, maxTableRows); err != nil {
		return // the terminal is gone
	}
	if len(a.Rows) > maxTableRows {
		fmt.Fprintf(w, "… %d more rows (--json shows them all)\n", len(a.Rows)-maxTableRows)
	}
	rows := "rows"
	if a.RowCount == 1 {
		rows = "row"
	}
	more := ""
	if a.Truncated {
		more = ", truncated"
	}
	fmt.Fprintf(w, "(%d %s%s, %.1f ms)\n", a.RowCount, rows, more, a.TimingsMS["total"])
	for _, n := range a.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, warn := range a.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	if withSQL {
		fmt.Fprintln(w)
		printSQL(w, a)
	}
	if len(a.Suggestions) > 0 {
		fmt.Fprintln(w)
	}
	for _, s := range a.Suggestions {
		fmt.Fprintf(w, "  → %s: %s\n", s.Title, s.Prompt)
	}
}

// printSQL writes an answer's statement laid out one clause per line
// (package sqlfmt), indented, and its parameters in order.
func printSQL(w io.Writer, a *engine.Answer) {
	fmt.Fprintln(w, "SQL:")
	laid := a.SQLFormatted
	if laid == "" { // an answer from before the engine laid it out
		laid = sqlfmt.Format(a.SQL)
	}
	for line := range strings.SplitSeq(laid, "\n") {
		fmt.Fprintln(w, "  "+line)
	}
	if len(a.Params) > 0 {
		ps := make([]string, len(a.Params))
		for i, p := range a.Params {
			ps[i] = sqlLiteral(p)
		}
		fmt.Fprintf(w, "  params: %s\n", strings.Join(ps, ", "))
	}
}

// sqlLiteral writes a parameter as it would read in SQL: text quoted, so
// that "Stage 3" reads as one value.
func sqlLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case time.Time:
		return "'" + x.Format(time.RFC3339) + "'"
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}
