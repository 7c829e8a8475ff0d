package demo

import (
	"fmt"
	"strings"
	"time"
)

// kind is the SQL type of a column, written as TEXT, INTEGER or REAL in
// SQLite and mapped by each dialect.
type kind int

const (
	kindText   kind = iota // TEXT; also dates 'YYYY-MM-DD' and timestamps 'YYYY-MM-DD HH:MM:SS'
	kindInt                // INTEGER
	kindBigInt             // INTEGER in SQLite, BIGINT elsewhere (counters that outgrow 32 bits)
	kindReal               // REAL: an IEEE double in every dialect
)

// column describes one column as the spec writes it.
type column struct {
	name       string
	kind       kind
	primaryKey bool
	notNull    bool
	check      string // expression inside CHECK (...), or ""
	ref        string // as written after REFERENCES: "clinics(id)" or "application_cities"
}

// table is a table's definition and its rows. The rows are not stored as
// SQL values: row fills dst (len(cols) values, nil for NULL) for row i from
// the generator's plain Go values, so writers box one batch at a time.
type table struct {
	name       string
	cols       []column
	primaryKey []string   // a composite primary key, written as a table constraint
	indexes    [][]string // extra indexes, created after the rows are loaded
	rows       int
	row        func(i int, dst []any)
}

// dataset is one generated demo source, tables in creation order (a table
// comes after every table it references).
type dataset struct {
	name   string
	tables []*table
}

// lookup returns the table called name.
func (d *dataset) lookup(name string) (*table, bool) {
	for _, t := range d.tables {
		if t.name == name {
			return t, true
		}
	}
	return nil, false
}

// resolveRef returns the table and column a REFERENCES clause points to; a
// bare table name means that table's single-column primary key.
func (d *dataset) resolveRef(ref string) (string, string, error) {
	if i := strings.IndexByte(ref, '('); i >= 0 {
		return ref[:i], strings.TrimSuffix(ref[i+1:], ")"), nil
	}
	t, ok := d.lookup(ref)
	if !ok {
		return "", "", fmt.Errorf("reference to unknown table %s", ref)
	}
	for _, c := range t.cols {
		if c.primaryKey {
			return ref, c.name, nil
		}
	}
	return "", "", fmt.Errorf("reference to %s, which has no single-column primary key", ref)
}

// metaTable is clarify_meta, present in every dataset.
func metaTable(name string, seed int64, asOf time.Time) *table {
	kv := [][2]string{
		{"as_of", dateStr(asOf)},
		{"seed", fmt.Sprint(seed)},
		{"source", name},
	}
	return &table{
		name: "clarify_meta",
		cols: []column{
			{name: "key", kind: kindText, primaryKey: true},
			{name: "value", kind: kindText},
		},
		rows: len(kv),
		row: func(i int, dst []any) {
			dst[0], dst[1] = kv[i][0], kv[i][1]
		},
	}
}

// Dates and timestamps.

const (
	dateLayout      = "2006-01-02"
	timestampLayout = "2006-01-02 15:04:05"
)

// day returns t's calendar date (in t's location) as midnight UTC.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func dateStr(t time.Time) string { return t.Format(dateLayout) }

func addDays(t time.Time, n int) time.Time { return t.AddDate(0, 0, n) }

// daysBetween returns the whole days from a to b (both UTC midnights).
func daysBetween(a, b time.Time) int { return int(b.Sub(a).Hours()/24 + 0.5) }

func isWeekday(t time.Time) bool {
	wd := t.Weekday()
	return wd != time.Saturday && wd != time.Sunday
}

// weekdaysEnding returns the n weekdays ending at asOf (asOf included when it
// is a weekday), oldest first.
func weekdaysEnding(asOf time.Time, n int) []time.Time {
	days := make([]time.Time, 0, n)
	for d := asOf; len(days) < n; d = addDays(d, -1) {
		if isWeekday(d) {
			days = append(days, d)
		}
	}
	for i, j := 0, len(days)-1; i < j; i, j = i+1, j-1 {
		days[i], days[j] = days[j], days[i]
	}
	return days
}

// clockStr formats seconds after midnight as HH:MM:SS.
func clockStr(sec int) string {
	h, m, s := sec/3600, sec/60%60, sec%60
	b := [8]byte{
		byte('0' + h/10), byte('0' + h%10), ':',
		byte('0' + m/10), byte('0' + m%10), ':',
		byte('0' + s/10), byte('0' + s%10),
	}
	return string(b[:])
}
