package review

import (
	"fmt"
	"strings"
)

// Proposal is one addition to the model; exactly one field is set. The
// field names are the entries of the YAML patch (docs/review.md).
type Proposal struct {
	AddSynonym      *AddSynonym      `json:"add_synonym,omitempty" yaml:"add_synonym,omitempty"`
	AddStopword     *AddStopword     `json:"add_stopword,omitempty" yaml:"add_stopword,omitempty"`
	SetBestGuess    *SetBestGuess    `json:"set_best_guess,omitempty" yaml:"set_best_guess,omitempty"`
	SetDefault      *SetDefault      `json:"set_default,omitempty" yaml:"set_default,omitempty"`
	DefineVagueTerm *DefineVagueTerm `json:"define_vague_term,omitempty" yaml:"define_vague_term,omitempty"`
}

// AddSynonym adds Word to the synonyms of an entity, one of its columns
// (Entity and Column) or a measure.
type AddSynonym struct {
	Entity   string `json:"entity,omitempty" yaml:"entity,omitempty"`
	Column   string `json:"column,omitempty" yaml:"column,omitempty"`
	Measure  string `json:"measure,omitempty" yaml:"measure,omitempty"`
	Word     string `json:"word" yaml:"word"`
	Evidence string `json:"evidence" yaml:"evidence"`
}

// AddStopword adds Word to the model's stopwords: users asked for it to be
// ignored.
type AddStopword struct {
	Word     string `json:"word" yaml:"word"`
	Evidence string `json:"evidence" yaml:"evidence"`
}

// SetBestGuess moves best_guess: true to Option (from Was, "" when none
// had it), among the options of a vague term (VagueTerm) or of
// policies.time_window_options (Policy "time_window_options").
type SetBestGuess struct {
	VagueTerm string `json:"vague_term,omitempty" yaml:"vague_term,omitempty"`
	Policy    string `json:"policy,omitempty" yaml:"policy,omitempty"`
	Option    string `json:"option" yaml:"option"`
	Was       string `json:"was,omitempty" yaml:"was,omitempty"`
	Evidence  string `json:"evidence" yaml:"evidence"`
}

// SetDefault moves default: true to Metric (from Was, "" when none had
// it) among the metrics of the ranking of entity Ranking.
type SetDefault struct {
	Ranking  string `json:"ranking" yaml:"ranking"`
	Metric   string `json:"metric" yaml:"metric"`
	Was      string `json:"was,omitempty" yaml:"was,omitempty"`
	Evidence string `json:"evidence" yaml:"evidence"`
}

// DefineVagueTerm asks for a vague term with Word among its words: users
// qualify rows with it and the model cannot say what it means. Its options
// are for the data team to write; Examples are what users typed when
// asked what it means.
type DefineVagueTerm struct {
	Word      string   `json:"word" yaml:"word"`
	AppliesTo []string `json:"applies_to,omitempty" yaml:"applies_to,omitempty,flow"`
	Examples  []string `json:"examples,omitempty" yaml:"examples,omitempty,flow"`
	Evidence  string   `json:"evidence" yaml:"evidence"`
}

// Summary says in one line what the proposal changes.
func (p Proposal) Summary() string {
	switch {
	case p.AddSynonym != nil:
		s := p.AddSynonym
		what := "entity " + s.Entity
		switch {
		case s.Measure != "":
			what = "measure " + s.Measure
		case s.Column != "":
			what = "column " + s.Entity + "." + s.Column
		}
		return fmt.Sprintf("add_synonym %q to %s", s.Word, what)
	case p.AddStopword != nil:
		return fmt.Sprintf("add_stopword %q", p.AddStopword.Word)
	case p.SetBestGuess != nil:
		s := p.SetBestGuess
		where := "vague term " + s.VagueTerm
		if s.Policy != "" {
			where = "policies." + s.Policy
		}
		return fmt.Sprintf("set_best_guess of %s to %s%s", where, s.Option, was(s.Was))
	case p.SetDefault != nil:
		s := p.SetDefault
		return fmt.Sprintf("set_default of the ranking of %s to %s%s", s.Ranking, s.Metric, was(s.Was))
	case p.DefineVagueTerm != nil:
		s := p.DefineVagueTerm
		out := fmt.Sprintf("define_vague_term %q", s.Word)
		if len(s.AppliesTo) > 0 {
			out += " for " + strings.Join(s.AppliesTo, ", ")
		}
		return out
	}
	return "(empty proposal)"
}

// Evidence is the counts that support the proposal, in words.
func (p Proposal) Evidence() string {
	switch {
	case p.AddSynonym != nil:
		return p.AddSynonym.Evidence
	case p.AddStopword != nil:
		return p.AddStopword.Evidence
	case p.SetBestGuess != nil:
		return p.SetBestGuess.Evidence
	case p.SetDefault != nil:
		return p.SetDefault.Evidence
	case p.DefineVagueTerm != nil:
		return p.DefineVagueTerm.Evidence
	}
	return ""
}

func was(s string) string {
	if s == "" {
		return ""
	}
	return " (was " + s + ")"
}
