package present

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/clarify-sql/clarify/internal/plan"
)

// maxWidth bounds a column's width; longer values are cut with "…".
const maxWidth = 40

// WriteTable writes rows as a text table: a heading line, a rule, then at
// most maxRows rows (all when maxRows ≤ 0), each value written by its
// column's Format, numbers aligned right. A foreign key whose name is
// shown in another column (plan.Column.Display) is left out: people read
// the name.
func WriteTable(w io.Writer, cols []plan.Column, rows [][]any, maxRows int) error {
	shown := visible(cols)
	if len(shown) == 0 {
		return nil
	}
	if maxRows <= 0 || maxRows > len(rows) {
		maxRows = len(rows)
	}
	formats := make([]Format, len(shown))
	cells := make([][]string, maxRows+1)
	cells[0] = make([]string, len(shown))
	for i, c := range shown {
		values := make([]any, len(rows))
		for r, row := range rows {
			if c < len(row) {
				values[r] = row[c]
			}
		}
		formats[i] = For(cols[c], values)
		cells[0][i] = formats[i].Heading()
	}
	ranged := ranges(cols)
	flagged := false
	for r := range maxRows {
		line := make([]string, len(shown))
		for i, c := range shown {
			line[i] = cut(formats[i].Cell(at(rows[r], c)))
			if lh, ok := ranged[c]; ok {
				flag := outside(at(rows[r], c), at(rows[r], lh[0]), at(rows[r], lh[1]))
				flagged = flagged || flag != " "
				line[i] += " " + flag
			}
		}
		cells[r+1] = line
	}
	widths := make([]int, len(shown))
	for _, line := range cells {
		for i, s := range line {
			widths[i] = max(widths[i], Width(cut(s)))
		}
	}
	var b strings.Builder
	for n, line := range cells {
		b.Reset()
		for i, s := range line {
			s = cut(s)
			pad := strings.Repeat(" ", widths[i]-Width(s))
			if i > 0 {
				b.WriteString("  ")
			}
			if formats[i].Numeric() {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s + pad)
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return fmt.Errorf("write table: %w", err)
		}
		if n == 0 {
			rule := make([]string, len(widths))
			for i, wd := range widths {
				rule[i] = strings.Repeat("─", wd)
			}
			if _, err := fmt.Fprintln(w, strings.Join(rule, "  ")); err != nil {
				return fmt.Errorf("write table: %w", err)
			}
		}
	}
	if flagged {
		if _, err := fmt.Fprintln(w, "↓ below, ↑ above the reference range"); err != nil {
			return fmt.Errorf("write table: %w", err)
		}
	}
	return nil
}

// at returns the value of column c of a row (nil past its end).
func at(row []any, c int) any {
	if c < 0 || c >= len(row) {
		return nil
	}
	return row[c]
}

// ranges maps each column with a reference range in the answer
// (plan.Column.RangeLow, RangeHigh) to the indexes of its limits' columns
// (-1 for a limit it has not).
func ranges(cols []plan.Column) map[int][2]int {
	index := map[string]int{}
	for i, c := range cols {
		index[c.Name] = i
	}
	out := map[int][2]int{}
	for i, c := range cols {
		if c.RangeLow == "" && c.RangeHigh == "" {
			continue
		}
		lh := [2]int{-1, -1}
		for k, name := range []string{c.RangeLow, c.RangeHigh} {
			if j, ok := index[name]; ok && name != "" {
				lh[k] = j
			}
		}
		if lh != [2]int{-1, -1} {
			out[i] = lh
		}
	}
	return out
}

// outside flags a value below its low limit (↓) or above its high one (↑);
// " " when it is within them or either is unknown.
func outside(v, low, high any) string {
	x, ok := number(v)
	if !ok {
		return " "
	}
	if l, ok := number(low); ok && x < l {
		return "↓"
	}
	if h, ok := number(high); ok && x > h {
		return "↑"
	}
	return " "
}

// visible returns the indexes of the columns to show: all but foreign keys
// whose display column is in the answer.
func visible(cols []plan.Column) []int {
	names := map[string]bool{}
	for _, c := range cols {
		names[c.Name] = true
	}
	var out []int
	for i, c := range cols {
		if c.Display != "" && c.Display != c.Name && names[c.Display] {
			continue
		}
		out = append(out, i)
	}
	return out
}

// cut shortens s to maxWidth columns, ending it with "…".
func cut(s string) string {
	if Width(s) <= maxWidth {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := runeWidth(r)
		if w+rw > maxWidth-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	return b.String() + "…"
}

// Width is how many terminal columns s takes: two for a wide character
// (CJK), none for a combining mark.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	if r == utf8.RuneError || r < 0x300 {
		return 1
	}
	if r >= 0x300 && r <= 0x36f || r == 0x200d || r >= 0xfe00 && r <= 0xfe0f {
		return 0 // combining marks, joiners, variation selectors
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
