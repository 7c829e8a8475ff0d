package clarify

import (
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/understand"
)

// Confidence tiers (docs/design.md, section "Confidence and routing"); a boundary goes to the higher tier.
const (
	Silent = 0.85 // at or above: applied silently
	Assume = 0.60 // at or above: applied and shown as an assumption
)

// Policy is how a turn may ask.
type Policy struct {
	// Interactive is false for callers that cannot answer (CLI --no-ask,
	// API interactive:false, "never ask me").
	Interactive bool
	// Rounds is how many clarifications were already asked in this
	// conversation; MaxRounds (default 3) stops asking.
	Rounds    int
	MaxRounds int
}

// Decision is the outcome of routing one interpretation.
type Decision struct {
	// Ask is the slot to ask about, or nil when the turn can be answered.
	Ask *understand.Slot
	// ScopeMissing is set when a scope is needed but cannot be asked:
	// the turn must fail with SCOPE_REQUIRED.
	ScopeMissing *understand.Slot
	// Unanswerable is set when the question names nothing the data holds
	// and no question may be asked: the turn fails instead of guessing.
	Unanswerable *understand.Slot
	// Assumptions are the choices the answer shows and lets the user change.
	Assumptions []Assumption
	// OpenQuestions are the slots that would have been asked, answered with
	// the best guess.
	OpenQuestions []Assumption
}

// Assumption is a choice the answer rests on that the user may change.
type Assumption struct {
	Slot         string        `json:"slot"`
	Kind         string        `json:"kind"`
	Text         string        `json:"text"`
	Chosen       string        `json:"chosen"`
	Method       string        `json:"method"`
	Confidence   float64       `json:"confidence"`
	Why          string        `json:"why,omitempty"`
	Alternatives []Alternative `json:"alternatives"`
}

// Alternative is another choice for an assumption.
type Alternative struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

var priorityRank = map[string]int{understand.Critical: 0, understand.Important: 1, understand.Helpful: 2}

// Route decides what to do with an interpretation.
func Route(in *understand.Interpretation, p Policy) Decision {
	if p.MaxRounds <= 0 {
		p.MaxRounds = 3
	}
	var d Decision
	var pending []*understand.Slot
	for _, s := range in.Slots {
		// "I don't know" to a question with no best guess: nothing to answer
		if s.NoGuess && s.Method == understand.MethodSkip {
			d.Unanswerable = s
			return d
		}
	}
	for _, s := range in.Slots {
		needs := s.Ask || (s.Confidence < Assume && s.Method != "" && s.Method != understand.MethodUser && len(s.Options) > 1)
		if needs {
			pending = append(pending, s)
		}
	}
	canAsk := p.Interactive && p.Rounds < p.MaxRounds
	if canAsk && len(pending) > 0 {
		best := pending[0]
		for _, s := range pending[1:] {
			if priorityRank[s.Priority] < priorityRank[best.Priority] {
				best = s
			}
		}
		d.Ask = best
		return d
	}
	for _, s := range pending {
		switch {
		case s.NoGuess:
			d.Unanswerable = s
			return d
		case s.NeverAssume:
			d.ScopeMissing = s
			return d
		}
	}
	for _, s := range in.Slots {
		a, ok := assumption(s)
		if !ok {
			continue
		}
		if contains(pending, s) {
			a.Method = "open_question"
			a.Why = "not asked: " + reasonNotAsked(p)
			d.OpenQuestions = append(d.OpenQuestions, a)
		}
		d.Assumptions = append(d.Assumptions, a)
	}
	return d
}

func reasonNotAsked(p Policy) string {
	if !p.Interactive {
		return "answering without questions, so the best guess was used"
	}
	return fmt.Sprintf("already asked %d questions, so the best guess was used", p.Rounds)
}

func contains(ss []*understand.Slot, s *understand.Slot) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// assumption describes a slot whose choice the user should see: anything
// not certain (below the silent tier), chosen by default, preference or
// skip, and the user's own answers (method "user"), so that an answer
// stays changeable in one click like any assumption.
func assumption(s *understand.Slot) (Assumption, bool) {
	o := s.Choice()
	if o == nil {
		return Assumption{}, false
	}
	shown := s.Ask || s.Confidence < Silent || s.Method == understand.MethodSkip || s.Method == understand.MethodPreference ||
		(s.Method == understand.MethodUser && len(s.Options) > 1)
	if !shown {
		return Assumption{}, false
	}
	a := Assumption{Slot: s.Key, Kind: s.Kind, Chosen: o.ID, Method: string(s.Method), Confidence: round2(s.Confidence), Why: s.Why}
	if a.Method == "" {
		a.Method = "best_guess"
	}
	a.Text = fmt.Sprintf("%q = %s", strings.TrimSpace(s.Text), o.Label)
	switch s.Kind {
	case understand.KindTimeWindow, understand.KindFormat, understand.KindHistory, understand.KindAggregation, understand.KindTable:
		a.Text = o.Label
	case understand.KindTerm:
		a.Text = fmt.Sprintf("%q = %s", s.Text, o.Label)
	case understand.KindRanking:
		a.Text = fmt.Sprintf("%q = by %s", s.Text, o.Label)
	}
	for _, alt := range s.Options {
		if alt != o {
			a.Alternatives = append(a.Alternatives, Alternative{ID: alt.ID, Label: alt.Label})
		}
	}
	if a.Alternatives == nil {
		a.Alternatives = []Alternative{}
	}
	return a, true
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }
