package understand

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// Method says how a slot's choice was made; it sets the base confidence.
type Method string

// Methods, with their base confidence (docs/design.md, section "Slots,
// methods and confidence").
const (
	MethodExact      Method = "exact"      // 1.0
	MethodUser       Method = "user"       // 1.0: the user answered
	MethodFuzzy      Method = "fuzzy"      // 0.85 scaled by similarity
	MethodPreference Method = "preference" // 0.9: the user's usual choice
	MethodDefault    Method = "default"    // 0.7: the model's default
	MethodSkip       Method = "skip"       // the user said "I don't know": best guess
	MethodLLM        Method = "llm"
)

// Clarification kinds (docs/eval.md, section "The suite format").
const (
	KindVague       = "vague_qualifier"
	KindColumn      = "column_ambiguity"
	KindValue       = "value_ambiguity"
	KindTable       = "table_ambiguity"
	KindScope       = "scope"
	KindTimeWindow  = "time_window"
	KindRanking     = "ranking_metric"
	KindFormat      = "format"
	KindHistory     = "latest_or_history"
	KindUnknown     = "unknown_term"
	KindAggregation = "aggregation"
	// KindTerm and KindSpelling are never asked; they are shown as assumptions.
	KindTerm     = "term"
	KindSpelling = "spelling"
)

// Priorities of clarifications, most urgent first.
const (
	Critical  = "critical"
	Important = "important"
	Helpful   = "helpful"
)

// Interpretation is what a question was understood to mean.
type Interpretation struct {
	// Question is the normalized question the slots' offsets refer to.
	Question string
	Lang     string
	Intent   query.Intent
	Subject  *model.Entity
	// Slots are the decisions made, in the order of the question.
	Slots []*Slot
	// Query is the best-guess meaning with every slot's current choice.
	Query *query.Query
	// Linked are the question's words that linked to the model, and Unknown
	// the content words that linked to nothing.
	Linked  []string
	Unknown []string
	// Ignored are words read as saying nothing about the data: the verb
	// that links two things named ("ships lost in battles"), words about
	// the question itself ("in this table").
	Ignored []string
	// Warnings report degraded understanding (values unavailable…).
	Warnings []string
	// LeftOut is a second question asked in the same breath ("… and what
	// is the average area of them") that the answer does not compute: the
	// answer says so instead of dropping it.
	LeftOut string
	// ScopeForbidden is the scope value the question named that the user
	// may not see ("" when none): the turn is refused, not narrowed.
	ScopeForbidden string
}

// Slot is one decision of an interpretation.
type Slot struct {
	Key      string
	Kind     string
	Priority string
	// Text is the words of the question the slot is about.
	Text    string
	Options []*Option
	// Chosen indexes Options; -1 when nothing could be chosen.
	Chosen     int
	Method     Method
	Confidence float64
	// Ask is set when the slot must be asked about in an interactive turn:
	// a vague term, a near tie, a required but missing value.
	Ask bool
	// Critical slots are never assumed (scope): unresolved, they fail a
	// non-interactive turn.
	NeverAssume bool
	// NoGuess marks a slot with no best guess: the question names nothing
	// this data holds, and any guess would answer something else. Only the
	// user's own choice resolves it; unresolved, the turn cannot be
	// answered.
	NoGuess  bool
	Question string
	Context  string
	// Why explains a default or an assumption.
	Why string
	// FreeText is the user's typed answer when it chose no listed option;
	// Invalid explains why a typed answer could not be used.
	FreeText string
	Invalid  string
}

// Option is one possible choice of a slot.
type Option struct {
	ID          string
	Label       string
	Description string
	BestGuess   bool

	// payloads: what choosing the option means (one is set per slot kind)
	entity  *model.Entity
	column  *model.Column
	values  []string
	vopt    *model.Option
	vague   *model.VagueTerm
	window  *timeexpr.Window
	cond    model.Cond
	key     string // scope key
	metric  *query.Agg
	format  string
	history string // latest | history
	rewrite string
	ignore  bool
}

// Choice returns the chosen option, or nil.
func (s *Slot) Choice() *Option {
	if s.Chosen < 0 || s.Chosen >= len(s.Options) {
		return nil
	}
	return s.Options[s.Chosen]
}

// Best returns the best-guess option (the first when none is marked).
func (s *Slot) Best() int {
	for i, o := range s.Options {
		if o.BestGuess {
			return i
		}
	}
	if len(s.Options) > 0 {
		return 0
	}
	return -1
}

// Resolution is an answer to a slot: an option, free text, or "skip".
type Resolution struct {
	OptionID string
	FreeText string
	Skipped  bool
	// Method is MethodUser (default) or MethodPreference.
	Method Method
	// Confidence overrides the method's base confidence when set.
	Confidence float64
}

// settle applies a stored resolution to a slot and records the slot. parse
// turns free text into an option; it returns a reason when it cannot.
func (b *builder) settle(sl *Slot, parse func(string) (*Option, string)) *Option {
	if sl.Method == "" || sl.Chosen < 0 || sl.Chosen >= len(sl.Options) {
		sl.Chosen = sl.Best() // slots that chose nothing start from the best guess
	}
	if sl.NoGuess {
		sl.Chosen = -1
	}
	if r, ok := b.s.Resolved[sl.Key]; ok {
		method := r.Method
		if method == "" {
			method = MethodUser
		}
		conf := r.Confidence
		if conf == 0 {
			conf = 1
			if method == MethodPreference {
				conf = 0.9
			}
		}
		switch {
		case r.Skipped && sl.NoGuess:
			// nothing to fall back on: left unresolved, not asked again
			sl.Chosen, sl.Method, sl.Ask = -1, MethodSkip, false
		case r.Skipped:
			sl.Chosen, sl.Method, sl.Ask = sl.Best(), MethodSkip, false
			sl.Confidence = 0.7
			sl.Why = "you left it to my best judgment"
		case r.OptionID != "":
			for i, o := range sl.Options {
				if o.ID == r.OptionID {
					sl.Chosen, sl.Method, sl.Confidence, sl.Ask = i, method, conf, false
					if method == MethodPreference {
						sl.Why = "your usual choice"
					}
					break
				}
			}
		case r.FreeText != "" && parse != nil:
			o, why := parse(r.FreeText)
			if o == nil {
				sl.Invalid = why
				break
			}
			idx := -1
			for i, have := range sl.Options {
				if have.ID == o.ID {
					idx = i
				}
			}
			if idx < 0 {
				sl.Options = append(sl.Options, o)
				idx = len(sl.Options) - 1
			}
			sl.Chosen, sl.Method, sl.Confidence, sl.Ask, sl.FreeText = idx, method, conf, false, r.FreeText
		}
	}
	b.in.Slots = append(b.in.Slots, sl)
	return sl.Choice()
}

func optionID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 127:
			b.WriteRune(r)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	if len(r) > 1 && r[1] >= 'A' && r[1] <= 'Z' {
		return s // an acronym
	}
	return strings.ToLower(string(r[0])) + string(r[1:])
}
