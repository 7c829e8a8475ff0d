package present

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/clarify-sql/clarify/internal/plan"
)

// Missing is what a missing value (SQL NULL) is written as.
const Missing = "—"

// maxDecimals bounds the decimals of a column: past it a value is
// computed (an average), not stored, and more digits say nothing.
const maxDecimals = 6

// Format is how the values of one column are written.
type Format struct {
	kind  string // a plan.Kind*
	grain string // for periods: day, week, month, quarter, year
	// symbol is the currency's ("$", "CHF"), "" when the values are not money
	symbol string
	// unit is shown in the heading ("cm²"); never a currency
	unit     string
	decimals int
	heading  string
}

// For returns the format of a column: its kind, grain and unit from the
// column's metadata, or read from its name, type and values where the
// metadata says nothing; its decimals from the values, so that every
// number of the column has the same (a currency has at least its own: 2
// for USD, 0 for JPY).
func For(col plan.Column, values []any) Format {
	f := Format{kind: col.Kind, grain: col.Grain, heading: heading(col)}
	if f.kind == "" {
		f.kind, f.grain = guess(col, values)
	}
	if f.kind == plan.KindPeriod && f.grain == "" {
		_, f.grain = guess(col, values)
	}
	if sym, scale, ok := money(col.Unit); ok && f.numeric() {
		f.symbol = sym
		f.decimals = scale
	} else if col.Unit != "" {
		f.unit = col.Unit
	}
	if f.numeric() {
		for _, v := range values {
			if x, ok := number(v); ok {
				f.decimals = max(f.decimals, decimals(x))
			}
		}
	}
	return f
}

// Heading is the column's heading: its label (else its name), with its
// unit when that is not a currency: "Area (cm²)".
func (f Format) Heading() string {
	if f.unit != "" && !strings.Contains(f.heading, f.unit) {
		return f.heading + " (" + f.unit + ")"
	}
	return f.heading
}

// heading is a column's label, else its name in words ("number_of_wounds"
// → "Number of wounds"), starting with a capital.
func heading(col plan.Column) string {
	h := strings.TrimSpace(col.Label)
	if h == "" {
		h = strings.Join(strings.FieldsFunc(col.Name, func(r rune) bool { return r == '_' }), " ")
	}
	if h == "" {
		return col.Name
	}
	r, n := utf8.DecodeRuneInString(h)
	return string(unicode.ToUpper(r)) + h[n:]
}

// Numeric reports whether the column holds numbers (aligned right).
func (f Format) Numeric() bool { return f.numeric() }

func (f Format) numeric() bool {
	switch f.kind {
	case plan.KindMeasure, plan.KindCount:
		return true
	}
	return false
}

// Cell writes one value of the column.
func (f Format) Cell(v any) string {
	if v == nil {
		return Missing
	}
	switch f.kind {
	case plan.KindBool:
		if b, ok := truth(v); ok {
			if b {
				return "Yes"
			}
			return "No"
		}
	case plan.KindMeasure, plan.KindCount:
		if x, ok := number(v); ok {
			return f.number(x)
		}
	case plan.KindID, plan.KindYear, plan.KindName, plan.KindCategory, plan.KindText:
		if x, ok := number(v); ok {
			return plain(x)
		}
	case plan.KindDate, plan.KindTimestamp:
		if s, ok := f.time(v); ok {
			return s
		}
	case plan.KindPeriod:
		if s, ok := period(v, f.grain); ok {
			return s
		}
	}
	if b, ok := v.(bool); ok {
		if b {
			return "Yes"
		}
		return "No"
	}
	if x, ok := number(v); ok {
		return plain(x)
	}
	return text(v)
}

// number writes a number with the column's decimals, grouped by thousands,
// with the currency's symbol: "$733,912.50", "-1,234", "CHF 12.00".
func (f Format) number(x float64) string {
	s := grouped(x, f.decimals)
	if f.symbol == "" {
		return s
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	sep := ""
	if last := f.symbol[len(f.symbol)-1]; last >= 'A' && last <= 'Z' {
		sep = " " // a code, not a sign: CHF 12.00
	}
	return sign + f.symbol + sep + s
}

// time writes a date as a date ("Nov 4, 2023") and a timestamp with its
// time ("Nov 4, 2023 13:05"), a date with a time of day included.
func (f Format) time(v any) (string, bool) {
	t, zone, ok := when(v)
	if !ok {
		return "", false
	}
	midnight := t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
	if f.kind == plan.KindDate && midnight && zone == "" || f.grain == "day" {
		return t.Format("Jan 2, 2006"), true
	}
	layout := "Jan 2, 2006 15:04"
	if t.Second() != 0 {
		layout = "Jan 2, 2006 15:04:05"
	}
	s := t.Format(layout)
	if zone != "" {
		s += " " + zone
	}
	return s, true
}

var (
	monthRe   = regexp.MustCompile(`^(\d{4})-(\d{2})$`)
	quarterRe = regexp.MustCompile(`^(\d{4})-?[Qq]([1-4])$`)
	weekRe    = regexp.MustCompile(`^(\d{4})-?[Ww](\d{2})$`)
	yearRe    = regexp.MustCompile(`^\d{4}$`)
	dateRe    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	stampRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}`)
)

// period writes a period of a grain: "Nov 2023", "Q1 2024", "Week of Nov
// 6, 2023", "2024", from how the database wrote it ("2023-11",
// "2024-Q1", "2023-11-06", 2024).
func period(v any, grain string) (string, bool) {
	if x, ok := number(v); ok && grain == "year" && x == math.Trunc(x) {
		return plain(x), true
	}
	s, ok := v.(string)
	if !ok {
		if t, _, ok := when(v); ok {
			s = t.Format(time.DateOnly)
		} else {
			return "", false
		}
	}
	s = strings.TrimSpace(s)
	if m := monthRe.FindStringSubmatch(s); m != nil {
		t, err := time.Parse("2006-01", s)
		return t.Format("Jan 2006"), err == nil
	}
	if m := quarterRe.FindStringSubmatch(s); m != nil {
		return "Q" + m[2] + " " + m[1], true
	}
	if m := weekRe.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("Week %d, %s", n, m[1]), true
	}
	if yearRe.MatchString(s) {
		return s, true
	}
	t, _, ok := when(s)
	if !ok {
		return "", false
	}
	switch grain {
	case "year":
		return t.Format("2006"), true
	case "quarter":
		return fmt.Sprintf("Q%d %d", (int(t.Month())-1)/3+1, t.Year()), true
	case "month":
		return t.Format("Jan 2006"), true
	case "week":
		return "Week of " + t.Format("Jan 2, 2006"), true
	}
	return t.Format("Jan 2, 2006"), true
}

// when reads a date or a timestamp, and the zone it was written with ("UTC",
// "+02:00"; "" for a wall-clock time).
func when(v any) (time.Time, string, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, "", true
	case string:
		s := strings.TrimSpace(x)
		if !dateRe.MatchString(s) && !stampRe.MatchString(s) {
			return time.Time{}, "", false
		}
		for _, layout := range []string{time.DateOnly, time.DateTime, "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t, "", true
			}
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
			t, err := time.Parse(layout, s)
			if err != nil {
				continue
			}
			zone := ""
			if strings.HasSuffix(s, "Z") {
				zone = "UTC"
			} else if _, off := t.Zone(); off != 0 || strings.HasSuffix(s, "+00:00") || strings.HasSuffix(s, "+00") {
				zone = t.Format("-07:00")
			}
			return t, zone, true
		}
	}
	return time.Time{}, "", false
}

// number reads a numeric value (as the database drivers and JSON give them).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// truth reads a flag: a boolean, 0 or 1, or the words databases use.
func truth(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "t", "yes", "y", "1":
			return true, true
		case "false", "f", "no", "n", "0":
			return false, true
		}
		return false, false
	}
	if x, ok := number(v); ok && (x == 0 || x == 1) {
		return x == 1, true
	}
	return false, false
}

// decimals returns how many decimals a number needs, at most maxDecimals:
// the fewest that write it within a billionth of its size, so that the
// float noise of a sum (733912.5000000001) is not taken for digits.
func decimals(x float64) int {
	tol := 1e-9 * math.Max(1, math.Abs(x))
	for d := 0; d < maxDecimals; d++ {
		p := math.Pow10(d)
		if math.Abs(math.Round(x*p)/p-x) <= tol {
			return d
		}
	}
	return maxDecimals
}

// grouped writes x with d decimals and its whole part grouped by
// thousands: "733,912.50". A value that rounds to zero has no sign.
func grouped(x float64, d int) string {
	s := strconv.FormatFloat(math.Abs(x), 'f', d, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if x < 0 && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// plain writes a number as it is stored, without grouping: an id, a
// year, a code.
func plain(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// text writes any other value; a line break would break the table.
func text(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
}

// printer gives currencies their English symbols: $ for USD, CA$ for CAD,
// CHF for CHF — never one that two currencies share.
var printer = message.NewPrinter(language.English)

// money returns the symbol and decimals of a unit that is an ISO 4217
// currency code ("USD" → "$", 2).
func money(unit string) (symbol string, scale int, ok bool) {
	if len(unit) != 3 || strings.ToUpper(unit) != unit {
		return "", 0, false
	}
	u, err := currency.ParseISO(unit)
	if err != nil {
		return "", 0, false
	}
	scale, _ = currency.Standard.Rounding(u)
	return printer.Sprint(currency.Symbol(u)), scale, true
}

// guess reads what a column without metadata holds from its name, its type
// and its values: the kind and, for periods, the grain.
func guess(col plan.Column, values []any) (kind, grain string) {
	name := strings.ToLower(col.Name)
	var seen []any
	for _, v := range values {
		if v != nil {
			seen = append(seen, v)
		}
	}
	all := func(ok func(any) bool) bool {
		for _, v := range seen {
			if !ok(v) {
				return false
			}
		}
		return len(seen) > 0
	}
	matches := func(re *regexp.Regexp) func(any) bool {
		return func(v any) bool { s, ok := v.(string); return ok && re.MatchString(strings.TrimSpace(s)) }
	}
	isNumber := func(v any) bool { _, ok := number(v); return ok }
	whole := func(v any) bool { x, ok := number(v); return ok && x == math.Trunc(x) }
	switch {
	case all(func(v any) bool { _, ok := v.(bool); return ok }):
		return plan.KindBool, ""
	case all(matches(monthRe)):
		return plan.KindPeriod, "month"
	case all(matches(quarterRe)):
		return plan.KindPeriod, "quarter"
	case all(matches(weekRe)):
		return plan.KindPeriod, "week"
	case all(matches(dateRe)) || col.Type == "date" && all(func(v any) bool { _, _, ok := when(v); return ok }):
		return plan.KindDate, ""
	case all(func(v any) bool { _, ok := v.(time.Time); return ok }) || all(matches(stampRe)):
		return plan.KindTimestamp, ""
	case all(isNumber):
		switch {
		case name == "id" || strings.HasSuffix(name, "_id"):
			return plan.KindID, ""
		case (name == "year" || strings.HasSuffix(name, "_year")) && all(whole):
			return plan.KindYear, ""
		case all(whole) && (col.Type == "integer" || col.Type == ""):
			return plan.KindCount, ""
		}
		return plan.KindMeasure, ""
	}
	return plan.KindText, ""
}
