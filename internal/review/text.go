package review

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Text writes the report for people: what was read, then one table per
// finding (at most TextRows rows each), the proposals with their evidence,
// and the notes.
func Text(w io.Writer, r *Report) error {
	p := &printer{w: w}
	since := "all records"
	if !r.Since.IsZero() {
		since = "since " + r.Since.UTC().Format(time.DateTime) + " UTC"
	}
	p.line("Model review of source %s (%s)", r.Source, since)
	t := r.Totals
	read := fmt.Sprintf("Read %s in %s by %s and %s to clarifications", plural(t.Turns, "logged turn"),
		plural(t.Conversations, "conversation"), plural(t.Users, "user"), plural(t.Answers, "answer"))
	if t.EvalCases > 0 {
		read += fmt.Sprintf(", and %s (%d failing)", plural(t.EvalCases, "eval case"), t.EvalFailed)
	}
	p.line("%s.", read)

	p.section("Words that linked to nothing", len(r.Unknown))
	p.table("WORD\tUSES\tUSERS\tEVAL\tEXPLAINED AS\tEXAMPLE", len(r.Unknown), func(i int) string {
		u := r.Unknown[i]
		return fmt.Sprintf("%s\t%d\t%d\t%d\t%s\t%q", u.Word, u.Uses, u.Users, u.EvalCases, counts(u.Answers, "-"), u.Example)
	})

	p.section("Questions asked most", len(r.Questions))
	p.table("ASKED\tUSERS\tANSWERED\tAFTER A QUESTION\tFAILED\tWAITING\tQUESTION", len(r.Questions), func(i int) string {
		q := r.Questions[i]
		failed := fmt.Sprint(q.Failed)
		if len(q.Errors) > 0 {
			failed += " (" + counts(q.Errors, "") + ")"
		}
		return fmt.Sprintf("%d\t%d\t%d\t%d\t%s\t%d\t%q", q.Asked, q.Users, q.Answered, q.Clarified, failed, q.Waiting, q.Question)
	})

	p.section("Clarifications answered most", len(r.Clarifications))
	p.table("SLOT\tKIND\tANSWERS\tUSERS\tANSWERS GIVEN", len(r.Clarifications), func(i int) string {
		s := r.Clarifications[i]
		return fmt.Sprintf("%s\t%s\t%d\t%d\t%s", s.Slot, orDash(s.Kind), s.Answers, s.Users, counts(s.Values, "-"))
	})

	p.section("Best guesses users overrode", len(r.Overrides))
	p.table("SLOT\tBEST GUESS\tOVERRIDDEN\tCHOSEN INSTEAD", len(r.Overrides), func(i int) string {
		o := r.Overrides[i]
		return fmt.Sprintf("%s\t%s\t%d of %d\t%s", o.Slot, o.BestGuess, o.Overridden, o.Answers, counts(o.Chosen, "-"))
	})

	p.section("Proposals", len(r.Proposals))
	if len(r.Proposals) == 0 {
		p.line("  none: nothing has enough evidence yet (see docs/review.md for the thresholds)")
	}
	for i, pr := range r.Proposals {
		p.line("  %d. %s", i+1, pr.Summary())
		p.line("     %s", pr.Evidence())
	}
	if len(r.Notes) > 0 {
		p.line("")
		p.line("Notes")
		for _, n := range r.Notes {
			p.line("  - %s", n)
		}
	}
	return p.err
}

// printer writes lines, keeping the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

func (p *printer) section(title string, n int) {
	p.line("")
	p.line("%s (%d)", title, n)
}

// table writes a header and the first TextRows of n rows, aligned, and
// says how many more there are.
func (p *printer) table(header string, n int, row func(int) string) {
	if n == 0 {
		p.line("  none")
		return
	}
	if p.err != nil {
		return
	}
	tw := tabwriter.NewWriter(p.w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  "+header)
	for i := range min(n, TextRows) {
		fmt.Fprintln(tw, "  "+row(i))
	}
	p.err = tw.Flush()
	if n > TextRows {
		p.line("  … and %d more (--json lists them all)", n-TextRows)
	}
}

// counts writes "a ×3, b ×1"; empty when there are none.
func counts(cs []Count, empty string) string {
	if len(cs) == 0 {
		return empty
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s ×%d", displayValue(c.Value), c.Count)
	}
	return strings.Join(parts, ", ")
}

// displayValue shows an answer: an option by its id, typed text quoted.
func displayValue(v string) string {
	if id, ok := strings.CutPrefix(v, "opt:"); ok {
		return id
	}
	if t, ok := strings.CutPrefix(v, "text:"); ok {
		return fmt.Sprintf("%q", t)
	}
	return v
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
