package introspect

import (
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
)

// Bounds of what Inspect reads, so that a huge table is never scanned whole.
const (
	// SampleRows bounds the rows a column's distinct count and samples are
	// taken from: COUNT(DISTINCT) runs over a LIMITed subquery.
	SampleRows = 100_000
	// CountLimit bounds the rows counted per table; a larger table reports
	// the catalog's estimate (at least CountLimit) and RowsEstimated.
	CountLimit = 1_000_000
	// SampleValues is how many distinct sample values a column keeps.
	SampleValues = 5
	// SampleScan bounds the non-null rows the sample values are taken from.
	SampleScan = 1_000
	// QuantileRows bounds the non-null values a numeric column's
	// distribution is read from.
	QuantileRows = 20_000
)

// quantilePoints are the positions kept for a numeric column: the smallest value, the
// 10th, 25th, 50th, 75th and 90th percentiles and the largest value.
var quantilePoints = [...]float64{0, 0.10, 0.25, 0.50, 0.75, 0.90, 1}

// Schema is what Inspect read from one database.
type Schema struct {
	// Dialect is the database's SQL dialect.
	Dialect model.Dialect
	// Tables in name order.
	Tables []*Table
	// Now is when the schema was read (set by the caller; zero when
	// unknown): with Latest it tells data still being written from an old
	// snapshot, whose "recent" rows are relative to its own last date.
	Now time.Time
	// Unreadable maps tables whose rows could not be read (no SELECT
	// privilege, a broken view of a foreign table…) to the error; they are
	// not in Tables.
	Unreadable map[string]string
}

// Table is one base table.
type Table struct {
	Name    string
	Columns []*Column
	// PrimaryKey lists the primary-key columns in key order.
	PrimaryKey []string
	// Unique lists the columns that have a single-column unique constraint
	// or unique index of their own.
	Unique []string
	// ForeignKeys are the declared foreign keys, in the order of their first
	// column in the table.
	ForeignKeys []ForeignKey
	// Rows is the number of rows, counted exactly up to CountLimit.
	Rows int64
	// RowsEstimated is true when the table has more than CountLimit rows and
	// Rows is the larger of CountLimit and the catalog's estimate.
	RowsEstimated bool
	// Sampled is how many rows the column statistics were taken from (at
	// most SampleRows).
	Sampled int64
}

// Column is one column of a table.
type Column struct {
	Name string
	// DeclaredType is the type as the database reports it ("varchar(100)").
	DeclaredType string
	// Kind is the type family DeclaredType belongs to.
	Kind Kind
	// Nullable is false for NOT NULL and primary-key columns.
	Nullable bool
	// Distinct is the number of distinct non-null values among the Sampled
	// rows of the table, or -1 when it was not measured (only text and
	// integer columns are).
	Distinct int64
	// MaxLen is the length in characters of the longest text value among the
	// sampled rows (text columns only; 0 otherwise).
	MaxLen int64
	// Min and Max are the smallest and largest values of an integer column
	// among the sampled rows (0 for other columns and when all are null).
	Min, Max int64
	// Quantiles are a numeric column's values at quantilePoints and Mean
	// their average, over at most QuantileRows non-null values of the
	// sampled rows; nil when the column is not numeric or has no values.
	// Drafting reads vague words ("long", "expensive") from them.
	Quantiles []float64
	Mean      float64
	// Latest is the largest value of a date or timestamp column (or of a
	// text column holding ISO dates) among the sampled rows, as text; ""
	// when there is none. Drafting tells fresh data from a snapshot by it.
	Latest string
	// Samples are up to SampleValues distinct non-null, non-empty values,
	// smallest first, from the first SampleScan such rows, as text (text and
	// integer columns only).
	Samples []string
}

// ForeignKey is a declared foreign key.
type ForeignKey struct {
	Columns    []string
	RefTable   string
	RefColumns []string
}

// Kind is the family of a column's declared type.
type Kind string

// Type families. KindUnknown is a SQLite column declared without a type
// (its samples decide); KindOther is everything a question cannot use
// (binary, JSON, arrays, geometry…).
const (
	KindText      Kind = "text"
	KindInteger   Kind = "integer"
	KindReal      Kind = "real"
	KindNumeric   Kind = "numeric"
	KindDate      Kind = "date"
	KindTimestamp Kind = "timestamp"
	KindBoolean   Kind = "boolean"
	KindUUID      Kind = "uuid"
	KindUnknown   Kind = "unknown"
	KindOther     Kind = "other"
)

// Table returns the table called name, or nil.
func (s *Schema) Table(name string) *Table {
	for _, t := range s.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Column returns the column called name, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// kindOf maps a declared type to its family. It follows SQLite's affinity
// rules where they apply (a type containing INT is an integer) and knows
// the PostgreSQL and MySQL spellings.
func kindOf(declared string) Kind {
	t := strings.ToLower(strings.TrimSpace(declared))
	if i := strings.IndexByte(t, '('); i >= 0 {
		// keep tinyint(1) recognisable, drop other lengths and precisions
		if !strings.HasPrefix(t, "tinyint(1)") {
			t = strings.TrimSpace(t[:i]) + t[strings.IndexByte(t, ')')+1:]
		}
	}
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(t, " unsigned zerofill"), " unsigned"))
	switch {
	case t == "":
		return KindUnknown
	case strings.HasSuffix(t, "[]"), strings.HasPrefix(t, "array"):
		return KindOther
	case t == "bool" || t == "boolean" || t == "bit" || strings.HasPrefix(t, "tinyint(1)"):
		return KindBoolean
	case t == "date":
		return KindDate
	case strings.HasPrefix(t, "timestamp"), strings.HasPrefix(t, "datetime"), t == "smalldatetime", t == "datetime2", t == "datetimeoffset":
		return KindTimestamp
	case t == "year":
		return KindInteger
	case strings.Contains(t, "interval"), t == "time", strings.HasPrefix(t, "time "), t == "timetz":
		return KindOther
	case strings.Contains(t, "int") && !strings.Contains(t, "point") && !strings.Contains(t, "interval"), t == "serial", t == "bigserial", t == "smallserial":
		return KindInteger
	case strings.HasPrefix(t, "numeric"), strings.HasPrefix(t, "decimal"), t == "money", t == "smallmoney", t == "number":
		return KindNumeric
	case strings.Contains(t, "real"), strings.Contains(t, "floa"), strings.Contains(t, "doub"):
		return KindReal
	case t == "uuid", t == "uniqueidentifier":
		return KindUUID
	case strings.Contains(t, "char"), strings.Contains(t, "clob"), strings.Contains(t, "text"), t == "string",
		t == "enum", t == "set", t == "citext", t == "name", t == "nvarchar", t == "ntext":
		return KindText
	}
	return KindOther
}

// measured reports whether Inspect counts distinct values and takes
// samples of a column of this kind.
func (k Kind) measured() bool {
	return k == KindText || k == KindInteger || k == KindUnknown
}

// numeric reports whether a column of this kind holds numbers whose
// distribution Inspect reads.
func (k Kind) numeric() bool {
	return k == KindInteger || k == KindReal || k == KindNumeric
}
