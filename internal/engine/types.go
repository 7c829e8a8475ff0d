package engine

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/understand"
)

// Statuses of a turn.
const (
	StatusAnswered      = "answered"
	StatusNeedsQuestion = "needs_clarification"
	StatusFailed        = "failed"
)

// Outcome is the result of one turn: an answer or a clarification.
type Outcome struct {
	Status         string                     `json:"status"`
	Clarification  *Clarification             `json:"clarification,omitempty"`
	Answer         *Answer                    `json:"answer,omitempty"`
	Understood     Understood                 `json:"understood"`
	Assumptions    []clarify.Assumption       `json:"assumptions"`
	Interpretation *understand.Interpretation `json:"-"`
	// Slot is the asked slot, for the caller to store the answer under.
	Slot *understand.Slot `json:"-"`
	// Question is the question the turn answered (it changes when a reply
	// started a new question).
	Question string `json:"-"`
	// Engine is the engine that gave the outcome: rules or llm (a hybrid
	// turn says which of the two).
	Engine string `json:"engine"`
}

// Understood summarises what the question was understood to be about.
type Understood struct {
	Intent  string   `json:"intent"`
	Subject string   `json:"subject,omitempty"`
	Terms   []string `json:"terms"`
	Unknown []string `json:"unknown,omitempty"`
}

// Clarification is one question to the user.
type Clarification struct {
	ID            string   `json:"id"`
	Kind          string   `json:"kind"`
	Slot          string   `json:"slot"`
	Priority      string   `json:"priority"`
	Question      string   `json:"question"`
	Context       string   `json:"context,omitempty"`
	Options       []Option `json:"options"`
	AllowSkip     bool     `json:"allow_skip"`
	AllowFreeText bool     `json:"allow_free_text"`
	// Note explains why a typed answer could not be used.
	Note string `json:"note,omitempty"`
}

// Option is one answer offered.
type Option struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Description string   `json:"description,omitempty"`
	BestGuess   bool     `json:"best_guess,omitempty"`
	Preview     *Preview `json:"preview,omitempty"`
}

// Preview is what the answer under an option will show, computed from
// that answer's own statement: its row count and, in the user's noun, the
// figure a person reads ("87 wounds", "13 monthly points from 178
// wounds", "average area 12.4 cm²"). An option whose figure could not be
// counted within the preview budget has a preview with NotCounted set and
// no figure; an option whose figure cannot be computed exactly at all has
// no preview.
type Preview struct {
	// NotCounted says the count did not finish within the budget: Rows
	// and From are zero and mean nothing, Text says so in words.
	NotCounted bool `json:"not_counted,omitempty"`
	// Rows is how many rows the answer will have.
	Rows int64 `json:"rows"`
	// From is how many base rows it is computed from, for a grouped
	// answer (178 wounds behind 13 monthly points).
	From int64 `json:"from,omitempty"`
	// Text says it in words.
	Text string `json:"text"`
}

// Answer is an answered question.
type Answer struct {
	Statement string `json:"statement"`
	SQL       string `json:"sql"`
	// SQLFormatted is SQL laid out for people, one clause per line: the
	// same tokens, only whitespace differs.
	SQLFormatted  string               `json:"sql_formatted"`
	Params        []any                `json:"params"`
	Dialect       string               `json:"dialect"`
	Columns       []plan.Column        `json:"columns"`
	Rows          [][]any              `json:"rows"`
	RowCount      int                  `json:"row_count"`
	Truncated     bool                 `json:"truncated"`
	Chart         plan.Chart           `json:"chart"`
	Assumptions   []clarify.Assumption `json:"assumptions"`
	OpenQuestions []clarify.Assumption `json:"open_questions"`
	Suggestions   []model.Suggestion   `json:"suggestions"`
	TimingsMS     map[string]float64   `json:"timings_ms"`
	Warnings      []string             `json:"warnings,omitempty"`
	// Notes say what the rows alone do not: "2 more products tie with the
	// last one shown".
	Notes []string `json:"notes,omitempty"`
	// Engine is the engine that wrote the statement: rules or llm.
	Engine string `json:"engine"`
	// Ran is the statement the guard let run — SQL with the scope written
	// into every scoped table — and its arguments, for the audit log.
	Ran guard.Statement `json:"-"`
}

// UnknownWords is the cause beneath a failed turn's *apperr.Error when the
// question was read before the turn failed: the question's words that
// linked to nothing, for the query log and model review. Read it with
// errors.As; it is never shown as the failure's message.
type UnknownWords struct {
	Words []string
	Err   error // the cause below it, if any
}

func (u *UnknownWords) Error() string {
	s := "unknown words: " + strings.Join(u.Words, ", ")
	if u.Err != nil {
		s += ": " + u.Err.Error()
	}
	return s
}

func (u *UnknownWords) Unwrap() error { return u.Err }

// withUnknown puts the interpretation's unknown words above cause, or
// returns cause when every word linked.
func withUnknown(in *understand.Interpretation, cause error) error {
	if in == nil || len(in.Unknown) == 0 {
		return cause
	}
	return &UnknownWords{Words: in.Unknown, Err: cause}
}
