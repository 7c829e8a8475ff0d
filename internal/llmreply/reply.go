package llmreply

import (
	"errors"
	"fmt"

	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/model"
)

// Kind is what a reply is.
type Kind string

// Reply kinds. A plan is preferred to SQL: it is checked name by name
// against the semantic model and compiled by the rules' own compiler.
const (
	KindSQL           Kind = "sql"
	KindClarification Kind = "clarification"
	KindUnanswerable  Kind = "unanswerable"
	KindPlan          Kind = "plan"
)

// Bounds on what a reply may carry.
const (
	// MaxReply is the largest reply Parse reads, in bytes.
	MaxReply = 64 << 10
	// MaxSQL is the longest statement a reply may carry, in bytes.
	MaxSQL = 16 << 10
	// MaxLabel and MaxDescription bound an option's texts, in runes.
	MaxLabel       = 80
	MaxDescription = 200
	// MaxText bounds a question, a reason and an assumption's texts, in runes.
	MaxText = 300
	// MinOptions and MaxOptions bound a clarification's options.
	MinOptions = 2
	MaxOptions = 4
	// MaxAssumptions bounds how many assumptions a reply keeps.
	MaxAssumptions = 8
)

// Confidence of what a model chose (docs/design.md, section "Slots,
// methods and confidence"): a value that is one of its
// column's allowed values, one that is not, and an assumption the model
// stated, which nothing checks.
const (
	ValidValue   = 0.75
	InvalidValue = 0.3
	Stated       = 0.75
)

// Reply is a model's reply, read and made safe. Only SQL is ever run, and
// only after the guard has checked it.
type Reply struct {
	Kind Kind `json:"kind"`
	// SQL is the statement of a sql reply, not yet checked by the guard.
	SQL string `json:"sql,omitempty"`
	// Plan is the query plan of a plan reply, its names checked against
	// the model.
	Plan *Plan `json:"-"`
	// Clarification is the question of a clarification reply.
	Clarification *Clarification `json:"clarification,omitempty"`
	// Reason says why an unanswerable reply cannot be answered.
	Reason string `json:"reason,omitempty"`
	// Assumptions are the choices the model said it made.
	Assumptions []clarify.Assumption `json:"assumptions,omitempty"`
	// Values are the literals of SQL (or a plan's filters) compared with
	// columns that have allowed values, each checked against them.
	Values []Value `json:"values,omitempty"`
	// Prose is set when the reply was read from plain words, not JSON.
	Prose bool `json:"prose,omitempty"`
}

// Clarification is a question the model asks, normalised: 2–4 options,
// exactly one of them the best guess.
type Clarification struct {
	Question string   `json:"question"`
	Options  []Option `json:"options"`
	// Dropped are the options left out: not grounded in the model or the
	// data, duplicates, or beyond MaxOptions. For logs, never shown.
	Dropped []Option `json:"dropped,omitempty"`
}

// Best returns the index of the best guess.
func (c *Clarification) Best() int {
	for i, o := range c.Options {
		if o.BestGuess {
			return i
		}
	}
	return 0
}

// Option is one answer a clarification offers.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	BestGuess   bool   `json:"best_guess,omitempty"`
	// Grounded is set when the option's words name an entity, a column, a
	// measure, a term or an allowed value of the model, or a period.
	Grounded bool `json:"grounded"`
}

// Value is a literal the model compared a column with, checked against the
// column's allowed values.
type Value struct {
	// Column is "entity.column".
	Column string `json:"column"`
	// Literal is the value as the SQL wrote it.
	Literal string `json:"literal"`
	Valid   bool   `json:"valid"`
	// Confidence is ValidValue or InvalidValue.
	Confidence float64 `json:"confidence"`
	// Alternatives are allowed values the literal may have meant (same
	// letters in another case, or a synonym of the value), best first.
	Alternatives []string `json:"alternatives,omitempty"`
}

// Assumption returns the value as an assumption the engine routes like any
// other slot: shown when valid, asked when not.
func (v Value) Assumption() clarify.Assumption {
	a := clarify.Assumption{
		Slot:       "llm_value:" + v.Column,
		Kind:       "value_ambiguity",
		Text:       v.Column,
		Chosen:     v.Literal,
		Method:     "llm",
		Confidence: v.Confidence,
	}
	if !v.Valid {
		a.Why = fmt.Sprintf("%q is not one of the values of %s", v.Literal, v.Column)
	}
	for i, alt := range v.Alternatives {
		a.Alternatives = append(a.Alternatives, clarify.Alternative{ID: fmt.Sprintf("v%d", i+1), Label: alt})
	}
	return a
}

// Values gives the allowed values of a column: ok is false when the column
// has none to check against (free text, or values that could not be
// loaded). The engine passes its value catalog; a nil Values means only the
// values listed in the model.
type Values interface {
	Allowed(c *model.Column) (values []string, ok bool)
}

// ValuesFunc adapts a function to Values.
type ValuesFunc func(c *model.Column) ([]string, bool)

// Allowed calls f.
func (f ValuesFunc) Allowed(c *model.Column) ([]string, bool) { return f(c) }

// Errors Parse reports, checked with errors.Is.
var (
	// ErrTooLarge: the reply is over MaxReply, or its SQL over MaxSQL.
	ErrTooLarge = errors.New("reply too large")
	// ErrMalformed: the reply is neither readable JSON of a known shape nor
	// prose Parse understands.
	ErrMalformed = errors.New("reply not understood")
	// ErrNoOptions: the reply asks a question with fewer than MinOptions
	// options grounded in the model or the data; it is not shown.
	ErrNoOptions = errors.New("clarification without enough grounded options")
	// ErrPlan: the reply's plan names a table, column, function or
	// operator the model does not have, or gives a value of the wrong type.
	ErrPlan = errors.New("plan not usable")
)

// Error is a reply Parse could not use. The engine asks the model once
// more with Hint as the next user message, and answers UNANSWERABLE when
// the second reply fails too.
type Error struct {
	// Err is one of the Err… values above.
	Err error
	// Detail says what was wrong, for logs.
	Detail string
}

func (e *Error) Error() string {
	if e.Detail == "" {
		return "llm reply: " + e.Err.Error()
	}
	return "llm reply: " + e.Err.Error() + ": " + e.Detail
}

func (e *Error) Unwrap() error { return e.Err }

// Hint is the message that asks the model to reply again.
func (e *Error) Hint() string {
	switch {
	case errors.Is(e.Err, ErrNoOptions):
		return fmt.Sprintf("Your question had fewer than %d options naming things in the data. Reply again with one JSON object: "+
			"either kind \"sql\", or kind \"clarification\" with %d to %d options that each name a table, column or value from the data, "+
			"or kind \"unanswerable\" with a reason.", MinOptions, MinOptions, MaxOptions)
	case errors.Is(e.Err, ErrPlan):
		return "Your plan could not be used (" + bound(e.Detail, MaxText) + "). Use only the tables and columns described in the data. " +
			"Reply again with one JSON object as described: a plan, a statement, a question or unanswerable."
	case errors.Is(e.Err, ErrTooLarge):
		return "Your reply was too long. Reply again with one short JSON object as described."
	default:
		return "Your reply could not be read. Reply again with exactly one JSON object as described, and nothing else."
	}
}

func fail(err error, format string, args ...any) *Error {
	return &Error{Err: err, Detail: fmt.Sprintf(format, args...)}
}
