package query

import (
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// Intent is what kind of answer a question asks for.
type Intent string

// Intents.
const (
	IntentList      Intent = "list"
	IntentCount     Intent = "count"
	IntentAggregate Intent = "aggregate"
	IntentGroup     Intent = "group_by"
	IntentTrend     Intent = "trend"
	IntentTop       Intent = "top_n"
	IntentLatest    Intent = "latest"
)

// Query is the meaning of a question once every slot holds a choice: what
// package plan compiles to SQL. It never holds user text as SQL.
type Query struct {
	Intent Intent
	// Subject is what the answer is about; Base is the entity rows are read
	// from (the measure's entity for aggregates and rankings).
	Subject *model.Entity
	Base    *model.Entity
	// Columns are columns the question asked to see.
	Columns []*model.Column
	Filters []Filter
	Agg     *Agg
	Group   []Group
	Window  *TimeFilter
	// Current keeps, of every entity with a validity period the statement
	// reads, the rows that hold today ("current salary", "right now").
	Current bool
	Rank    *Rank
	Order   []Order
	// Limit caps the rows of a list (0: the engine's row cap).
	Limit  int
	Latest *Latest
	Scope  *ScopeFilter
	// Format is "table", "plot" or "" (no preference).
	Format string
	// SortAsc orders groups by the aggregate ascending (fewest first).
	SortAsc bool
}

// Filter restricts the rows of Entity; Cond (structured, bound values) or
// Predicate (a model SQL fragment) is set.
type Filter struct {
	Entity    *model.Entity
	Cond      model.Cond
	Predicate model.Fragment
	// Label describes the filter to people ("infected", "area > 25 cm²").
	Label string
	// Slot is the key of the slot that produced the filter.
	Slot string
	// Via, when set, is a foreign key whose rows are kept when it refers to
	// a row of Entity matching the filter: "who reports to Nina Patel"
	// keeps the employees whose reports_to is Nina Patel's key. It says
	// which of several references is meant, and lets a table refer to
	// itself.
	Via *model.Column
	// Referenced reverses Via: the rows kept are those a row matching the
	// filter refers to ("Nina Patel's manager": the employee whose key is
	// Nina's reports_to).
	Referenced bool
	// Exclude keeps the rows that have no row of Entity matching the
	// filter ("patients without infected wounds"); with no Cond and no
	// Predicate, rows that have no row of Entity at all.
	Exclude bool
	// Count, when set, compares the number of related Entity rows
	// ("patients with more than 3 wounds").
	Count *CountCond
	// LatestOf, when set, keeps the rows on the latest date of this time
	// column ("on the latest trading day"); within one scope value when the
	// entity is scoped.
	LatestOf *model.Column
	// Start and End are byte offsets of its words in Interpretation.Question.
	Start, End int
}

// CountCond compares how many rows of a related entity each row has.
type CountCond struct {
	Op string
	N  int64
}

// Agg is an aggregation: Func over a measure, a column, or rows (count).
type Agg struct {
	Func    string // count, avg, sum, min, max, count_distinct
	Measure *model.Measure
	Column  *model.Column
	Label   string
}

// Group is one GROUP BY: a column, an entity (its key and display), or a
// time bucket of a time column.
type Group struct {
	Column *model.Column
	Entity *model.Entity
	Bucket string // day, week, month, year (with a time Column)
}

// TimeFilter limits a time column to a window.
type TimeFilter struct {
	Column *model.Column
	Window timeexpr.Window
}

// Rank orders entities by a metric: top or bottom N.
type Rank struct {
	Entity *model.Entity
	Metric Agg
	Desc   bool
	Limit  int
}

// Order sorts rows by a column.
type Order struct {
	Column *model.Column
	Desc   bool
}

// Latest keeps only the newest row (per a column, when Per is set).
type Latest struct {
	Per  *model.Column
	Time *model.Column
}

// ScopeFilter limits every row to one scope value (one patient).
type ScopeFilter struct {
	Entity *model.Entity
	Key    string
	Label  string
}
