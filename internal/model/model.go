package model

import (
	"sync"
	"time"
)

// Model is the semantic model of one source. The zero value is not useful;
// build one with Load or Parse, which also index and validate it.
type Model struct {
	// Source is the source name the model describes (e.g. "clinic").
	Source string `yaml:"source"`
	// Description says in one line what the data is about.
	Description string `yaml:"description,omitempty"`
	// Entities are the tables a question can be about.
	Entities []*Entity `yaml:"entities"`
	// Measures are named aggregations such as revenue or healing time.
	Measures []*Measure `yaml:"measures,omitempty"`
	// Terms are business terms with one fixed meaning ("active patients").
	Terms []*Term `yaml:"terms,omitempty"`
	// Vague are words that can mean several things and must be asked about.
	Vague []*VagueTerm `yaml:"vague_terms,omitempty"`
	// Rankings say what "top" or "best" means per entity.
	Rankings []*Ranking `yaml:"rankings,omitempty"`
	// Scope, when set, names the entity every question must be limited to.
	Scope *Scope `yaml:"scope,omitempty"`
	// Policies tune when to ask.
	Policies Policies `yaml:"policies,omitempty"`
	// Areas group entities and carry follow-up suggestions.
	Areas []*Area `yaml:"areas,omitempty"`
	// Stopwords are extra filler words of this domain that carry no meaning.
	Stopwords []string `yaml:"stopwords,omitempty"`

	file     string
	lines    map[string]int
	entities map[string]*Entity
	tables   map[string]*Entity
	measures map[string]*Measure
	edges    map[string][]Edge

	treeMu sync.Mutex
	trees  map[string]map[string]Edge
	toOne  map[string]map[string]bool
}

// Entity is one table.
type Entity struct {
	// Name identifies the entity in the model; references use it.
	Name string `yaml:"name"`
	// Table is the database table; defaults to Name.
	Table string `yaml:"table,omitempty"`
	// Label is the singular noun for one row ("patient"); Plural the plural.
	Label  string `yaml:"label,omitempty"`
	Plural string `yaml:"plural,omitempty"`
	// Synonyms are words that name this entity in questions.
	Synonyms []string `yaml:"synonyms,omitempty"`
	// Key is the column that tells rows apart (the primary key). It may be
	// empty for a table without one: its rows are then listed, counted,
	// filtered and aggregated, never ranked or grouped as individuals.
	Key string `yaml:"key,omitempty"`
	// Display is the column that names a row to a person (e.g. full_name).
	Display string `yaml:"display,omitempty"`
	// Area is the schema area the entity belongs to (e.g. "Sales").
	Area string `yaml:"area,omitempty"`
	// TimeColumn is the column that dates a row: a column of this entity or
	// "entity.column" of an entity reachable through many-to-one joins.
	TimeColumn string `yaml:"time_column,omitempty"`
	// TimeWindow "required" makes a question about this entity name a period.
	TimeWindow string `yaml:"time_window,omitempty"`
	// Validity names the columns bounding when a row holds (a salary from
	// from_date to to_date): a question about what is true now ("current
	// salary", "right now") keeps the rows whose end is missing or not yet
	// passed; an end far in the future (9999-01-01) counts as open.
	Validity *Validity `yaml:"validity,omitempty"`
	// ListColumns are shown when rows are listed; defaults to key, display
	// and the dimension columns.
	ListColumns []string `yaml:"list_columns,omitempty"`
	// Columns are the columns the model exposes; others are invisible.
	Columns []*Column `yaml:"columns"`

	model   *Model
	index   int
	columns map[string]*Column
}

// Column roles.
const (
	RoleID        = "id"        // keys and foreign keys
	RoleName      = "name"      // text that names a row (matched as values)
	RoleDimension = "dimension" // categorical text (matched as values, grouped by)
	RoleMeasure   = "measure"   // numbers that can be compared and aggregated
	RoleTime      = "time"      // dates and timestamps
	RoleFlag      = "flag"      // booleans stored as 0/1
	RoleText      = "text"      // free text, never matched as values
)

// GrainYear is the grain of a column holding calendar years.
const GrainYear = "year"

// Validity is the period a row of an entity holds: From (optional) and
// To, date or timestamp columns of the entity.
type Validity struct {
	From string `yaml:"from,omitempty"`
	To   string `yaml:"to"`
}

// Column is one column of an entity.
type Column struct {
	Name string `yaml:"name"`
	// Role is one of id, name, dimension, measure, time, flag, text.
	Role string `yaml:"role"`
	// Type is the storage type: text, integer, real, date, timestamp. Optional.
	Type string `yaml:"type,omitempty"`
	// Label is how the column is called in answers; defaults to the name
	// with underscores as spaces.
	Label string `yaml:"label,omitempty"`
	// Synonyms are words that name the column. For a flag they are the words
	// that mean "true" ("infected").
	Synonyms []string `yaml:"synonyms,omitempty"`
	// FalseSynonyms are words that mean the flag is false ("uninfected").
	FalseSynonyms []string `yaml:"false_synonyms,omitempty"`
	// TrueValue and FalseValue are what a flag stores when it is not a
	// boolean or a 0/1 number ("Y" and "N", "yes" and "no"); both or neither.
	TrueValue  string `yaml:"true_value,omitempty"`
	FalseValue string `yaml:"false_value,omitempty"`
	// Unit of a measure ("cm²") and words that name it in questions.
	Unit      string   `yaml:"unit,omitempty"`
	UnitWords []string `yaml:"unit_words,omitempty"`
	// Grain "year" says the column holds calendar years as numbers or
	// text (1974, "2009"), not dates: a period in a question ("before
	// 1980", "in 2009") compares its years.
	Grain string `yaml:"grain,omitempty"`
	// References is "entity.column" for a foreign key: a join path.
	References string `yaml:"references,omitempty"`
	// Range names the columns of the same entity that hold this measure's
	// reference range (a lab value's normal limits): answers flag values
	// outside it.
	Range *Range `yaml:"range,omitempty"`
	// SameAs names a column ("entity.column") this one repeats: a second
	// source of one meaning (a table split off another, a denormalized
	// copy). A question about it asks which source is meant.
	SameAs string `yaml:"same_as,omitempty"`
	// Precomputes names a column ("entity.column") whose aggregate this
	// one holds, Aggregate saying which (avg_age holds the average of
	// singer.age per country). A question computing that aggregate asks
	// whether to compute it or read it here.
	Precomputes string `yaml:"precomputes,omitempty"`
	// Expr, when set, makes the column computed: a SQL fragment over the
	// entity's own columns, qualified by its table (a full name:
	// customers.first_name || ' ' || customers.last_name). It is shown,
	// matched and compared like a stored column; nothing is stored.
	Expr Fragment `yaml:"expr,omitempty"`
	// Values describes the allowed values of a name or dimension column.
	Values *Values `yaml:"values,omitempty"`
	// Aggregate is the default aggregation of a measure column (sum or avg).
	Aggregate string `yaml:"aggregate,omitempty"`
	// ConfidenceWeight scales the confidence of anything resolved for this
	// column (default 1.0); below 1 forces confirmation of critical fields.
	ConfidenceWeight float64 `yaml:"confidence_weight,omitempty"`

	entity *Entity
}

// Range is a measure's reference range: the columns holding its lower and
// upper limits, either may be empty.
type Range struct {
	Low  string `yaml:"low,omitempty"`
	High string `yaml:"high,omitempty"`
}

// Values are the allowed values of a column.
type Values struct {
	// Source is "static" (the Items listed here) or "database" (loaded with
	// SELECT DISTINCT and cached).
	Source string `yaml:"source,omitempty"`
	// TTL of database-sourced values (default 10m).
	TTL time.Duration `yaml:"ttl,omitempty"`
	// Limit caps how many database values are kept in memory (default 500;
	// larger columns are matched through an index).
	Limit int `yaml:"limit,omitempty"`
	// Items are the static values, or synonyms for database values.
	Items []*Value `yaml:"items,omitempty"`
	// Groups name sets of values ("cholesterol" → HDL, LDL, Total).
	Groups []*ValueGroup `yaml:"groups,omitempty"`
}

// Value is one allowed value and the words that name it.
type Value struct {
	Value    string   `yaml:"value"`
	Label    string   `yaml:"label,omitempty"`
	Synonyms []string `yaml:"synonyms,omitempty"`
}

// ValueGroup is a named set of values that a word means together.
type ValueGroup struct {
	Name     string   `yaml:"name"`
	Synonyms []string `yaml:"synonyms,omitempty"`
	Values   []string `yaml:"values"`
}

// Measure is a named aggregation over an expression.
type Measure struct {
	Name     string   `yaml:"name"`
	Label    string   `yaml:"label,omitempty"`
	Synonyms []string `yaml:"synonyms,omitempty"`
	// Entity is the entity whose rows are aggregated.
	Entity string `yaml:"entity"`
	// Expr is the per-row SQL expression; empty with aggregate count.
	Expr Fragment `yaml:"expr,omitempty"`
	// Aggregate is avg, sum, min, max, count or count_distinct.
	Aggregate string `yaml:"aggregate"`
	// Filter restricts the rows the measure is defined for (SQL fragment).
	Filter Fragment `yaml:"filter,omitempty"`
	// Unit of the result ("days").
	Unit string `yaml:"unit,omitempty"`
	// Description explains the definition to users.
	Description string `yaml:"description,omitempty"`
}

// Term is a business term with one fixed meaning.
type Term struct {
	Name    string   `yaml:"name"`
	Phrases []string `yaml:"phrases"`
	// Entity whose rows the term selects.
	Entity string `yaml:"entity"`
	// Condition is a structured condition ("quantity_on_hand < reorder_level");
	// Predicate a SQL fragment. Exactly one is set.
	Condition string   `yaml:"condition,omitempty"`
	Predicate Fragment `yaml:"predicate,omitempty"`
	// Description is shown to users ("assessed in the last 90 days").
	Description string `yaml:"description"`
	// Confidence of the definition (default 1); below 0.85 the term is shown
	// as an assumption the user can change.
	Confidence float64 `yaml:"confidence,omitempty"`
}

// VagueTerm is a word with several reasonable meanings; the user chooses.
type VagueTerm struct {
	Name  string   `yaml:"name"`
	Words []string `yaml:"words"`
	// AppliesTo lists the entities the term qualifies, in preference order.
	AppliesTo []string `yaml:"applies_to"`
	// Question and Context are shown when asking; defaults are built.
	Question string `yaml:"question,omitempty"`
	Context  string `yaml:"context,omitempty"`
	// Superlatives ("largest") order by Order instead of filtering.
	Superlatives []string  `yaml:"superlatives,omitempty"`
	Order        string    `yaml:"order,omitempty"`
	Options      []*Option `yaml:"options"`
}

// Option is one meaning of a vague term.
type Option struct {
	ID          string `yaml:"id"`
	Label       string `yaml:"label"`
	Description string `yaml:"description,omitempty"`
	// Entity the predicate applies to; defaults to the term's first entity.
	Entity string `yaml:"entity,omitempty"`
	// One of Condition (structured), Predicate (SQL) or Last (a time window
	// such as "30 days", or "today", on the entity's time column).
	Condition string   `yaml:"condition,omitempty"`
	Predicate Fragment `yaml:"predicate,omitempty"`
	Last      string   `yaml:"last,omitempty"`
	BestGuess bool     `yaml:"best_guess,omitempty"`
}

// Ranking says what "top"/"best" means for an entity.
type Ranking struct {
	Entity string `yaml:"entity"`
	// Limit is how many rows "top" means with no number (default 10).
	Limit   int              `yaml:"limit,omitempty"`
	Metrics []*RankingMetric `yaml:"metrics"`
}

// RankingMetric is one way of ranking: by a measure.
type RankingMetric struct {
	ID    string `yaml:"id"`
	Label string `yaml:"label"`
	// One of: Measure (a named measure), Count (the entity whose rows are
	// counted: "number of orders"), or Column ("entity.column") with
	// Aggregate (sum or avg: "total of payments' amounts").
	Measure   string `yaml:"measure,omitempty"`
	Count     string `yaml:"count,omitempty"`
	Column    string `yaml:"column,omitempty"`
	Aggregate string `yaml:"aggregate,omitempty"`
	Default   bool   `yaml:"default,omitempty"`
	// Confidence of the default (default 0.7: shown as an assumption).
	Confidence float64 `yaml:"confidence,omitempty"`
}

// Scope names the entity a question must be limited to (one patient).
type Scope struct {
	Entity string `yaml:"entity"`
	// Required is "always" or "when_multiple" (default): ask only when the
	// entity has more than one row.
	Required string `yaml:"required,omitempty"`
	// AppliesTo lists the entities whose rows belong to one scope value;
	// defaults to every entity with a join path to Entity.
	AppliesTo []string `yaml:"applies_to,omitempty"`
	// FirstPerson are words that refer to the user ("my", "мои").
	FirstPerson []string `yaml:"first_person,omitempty"`
	// OptionColumns describe each scope value in the question (name, gender…).
	OptionColumns []string `yaml:"option_columns,omitempty"`
	Question      string   `yaml:"question,omitempty"`
}

// Policies tune when Clarify asks.
type Policies struct {
	// Format: ask for plot or table when neither word appears.
	Format *FormatPolicy `yaml:"format,omitempty"`
	// History: latest result or all history.
	History *HistoryPolicy `yaml:"latest_or_history,omitempty"`
	// MissingTimeWindow: "ask" or "all" per intent.
	MissingTimeWindow MissingTimeWindow `yaml:"missing_time_window,omitempty"`
	// TimeWindowOptions are offered when asking for a period.
	TimeWindowOptions []*TimeOption `yaml:"time_window_options,omitempty"`
	// QuestionsPerTurn (default 1) and MaxRounds (default 3).
	QuestionsPerTurn int `yaml:"questions_per_turn,omitempty"`
	MaxRounds        int `yaml:"max_rounds,omitempty"`
	// TopLimit is what "top" means with no number (default 10).
	TopLimit int `yaml:"top_limit,omitempty"`
}

// FormatPolicy decides between plot and table.
type FormatPolicy struct {
	Mode       string   `yaml:"mode"` // ask | auto
	AppliesTo  []string `yaml:"applies_to,omitempty"`
	PlotWords  []string `yaml:"plot_words,omitempty"`
	TableWords []string `yaml:"table_words,omitempty"`
}

// HistoryPolicy decides between the latest result and all of them.
type HistoryPolicy struct {
	Default   string   `yaml:"default"` // latest | history | ask
	AppliesTo []string `yaml:"applies_to,omitempty"`
	// Per is the column "latest" is taken per (latest result per analyte).
	Per          string   `yaml:"per,omitempty"`
	HistoryWords []string `yaml:"history_words,omitempty"`
	LatestWords  []string `yaml:"latest_words,omitempty"`
	Confidence   float64  `yaml:"confidence,omitempty"`
}

// MissingTimeWindow says what to do when a question names no period.
type MissingTimeWindow struct {
	Aggregate string `yaml:"aggregate,omitempty"` // ask | all (default all)
	Trend     string `yaml:"trend,omitempty"`     // ask | all (default ask)
}

// TimeOption is a period offered in a time-window question.
type TimeOption struct {
	ID    string `yaml:"id"`
	Label string `yaml:"label"`
	// Last is "7 days", "1 month"…; empty means all time.
	Last      string `yaml:"last,omitempty"`
	BestGuess bool   `yaml:"best_guess,omitempty"`
}

// Area is a schema area with follow-up suggestions.
type Area struct {
	Name        string        `yaml:"name"`
	Description string        `yaml:"description,omitempty"`
	Suggestions []*Suggestion `yaml:"suggestions,omitempty"`
	// Recovery suggestions are offered when a query in this area is empty.
	Recovery []*Suggestion `yaml:"recovery,omitempty"`
}

// Suggestion is a follow-up question offered after an answer.
type Suggestion struct {
	Title  string `yaml:"title" json:"title"`
	Prompt string `yaml:"prompt" json:"prompt"`
}
