package conversation

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/store"
)

// Preferences lists a user's remembered and usual answers.
func (s *Service) Preferences(ctx context.Context, user string) ([]Preference, error) {
	ps, err := s.st.Preferences(ctx, user, "")
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not read preferences", Err: err}
	}
	out := []Preference{}
	models := map[string]*model.Model{}
	for _, p := range ps {
		if p.Slot == "scope" {
			continue
		}
		m, seen := models[p.Source]
		if !seen {
			if en, err := s.engines.Engine(ctx, p.Source); err == nil {
				m = en.Analyzer().Model()
			}
			models[p.Source] = m
		}
		about, choice := preferenceLabels(m, p.Slot, p.Value)
		out = append(out, Preference{Key: p.Source + "/" + p.Slot, Source: p.Source, Slot: p.Slot, Value: p.Value,
			Remember: p.Remember, Count: p.Count, Applied: p.Remember || p.Count >= minRepeats, Updated: p.UpdatedAt,
			SlotLabel: about, Label: choice})
	}
	return out, nil
}

// preferenceLabels names a stored answer for people: what it is about and
// what was chosen, in the words the question offered (the option labels
// of the source's model). A slot is "kind" or "kind:words" ("vague:large",
// "ranking:sales_customers", "column:size"); a value is "opt:" + an option
// id or "text:" + what the user typed. Without a model (the source is
// gone) the ids are turned into words.
func preferenceLabels(m *model.Model, slot, value string) (about, choice string) {
	kind, words, _ := strings.Cut(slot, ":")
	words = strings.ReplaceAll(words, "_", " ")
	about = slotAbout(m, kind, words)
	if t, ok := strings.CutPrefix(value, "text:"); ok {
		return about, "“" + strings.TrimSpace(t) + "”"
	}
	id := strings.TrimPrefix(value, "opt:")
	if m != nil {
		if l := optionLabel(m, kind, slot, words, id); l != "" {
			return about, l
		}
	}
	return about, upperFirst(strings.ReplaceAll(id, "_", " "))
}

// slotAbout says what a slot decides.
func slotAbout(m *model.Model, kind, words string) string {
	switch kind {
	case "format":
		return "Table or plot"
	case "history":
		return "Latest or all results"
	case "time_window":
		return "Time period"
	case "aggregation":
		return "What to compute"
	case "subject":
		return "What the question is about"
	case "ranking":
		if e := modelEntity(m, strings.ReplaceAll(words, " ", "_")); e != nil {
			return "How to rank " + e.PluralLabel()
		}
		return "How to rank"
	}
	if words != "" {
		return "“" + words + "”"
	}
	return upperFirst(strings.ReplaceAll(kind, "_", " "))
}

// optionLabel finds the label the question showed for an option id, or "".
func optionLabel(m *model.Model, kind, slot, words, id string) string {
	switch kind {
	case "vague":
		for _, vt := range m.Vague {
			if "vague:"+vt.Name != slot {
				continue
			}
			for _, o := range vt.Options {
				if o.ID == id {
					return o.Label
				}
			}
		}
	case "ranking":
		_, name, _ := strings.Cut(slot, ":")
		for _, r := range m.Rankings {
			if r.Entity != name {
				continue
			}
			for _, mt := range r.Metrics {
				if mt.ID == id {
					return upperFirst(mt.Label)
				}
			}
		}
	case "time_window":
		for _, o := range m.Policies.TimeWindowOptions {
			if o.ID == id {
				return o.Label
			}
		}
	case "format":
		switch id {
		case "table":
			return "Table"
		case "plot":
			return "Plot (chart over time)"
		}
	case "history":
		switch id {
		case "latest":
			return "Latest result only"
		case "history":
			return "All results (history)"
		}
	}
	return genericOptionLabel(m, words, id)
}

// genericOptionLabel reads the option ids that several kinds of slot
// share: columns ("wounds.area_cm2"), measures, counts and entities.
func genericOptionLabel(m *model.Model, words, id string) string {
	prefix, rest, _ := strings.Cut(id, ":")
	switch prefix {
	case "ignore":
		return fmt.Sprintf("Leave %q out", words)
	case "all":
		return "All of them"
	case "count":
		if e := modelEntity(m, rest); e != nil {
			return "Number of " + e.PluralLabel()
		}
		return "Number of rows"
	case "measure":
		if ms := m.Measure(rest); ms != nil {
			if ms.Label != "" {
				return upperFirst(ms.Label)
			}
			return upperFirst(strings.ReplaceAll(ms.Name, "_", " "))
		}
	case "avg":
		if c := modelColumn(m, rest); c != nil {
			return "Average " + c.Title()
		}
	case "col":
		ref, _, _ := strings.Cut(rest, ":") // col:C or col:E.C:func
		if c := modelColumn(m, ref); c != nil {
			return upperFirst(c.Title())
		}
	case "use":
		return rest
	}
	if c := modelColumn(m, id); c != nil && strings.Contains(id, ".") {
		return upperFirst(c.Title()) + " (" + c.Entity().PluralLabel() + ")"
	}
	if e := modelEntity(m, id); e != nil {
		return upperFirst(e.PluralLabel())
	}
	return ""
}

// modelEntity finds an entity by name, or nil.
func modelEntity(m *model.Model, name string) *model.Entity {
	if m == nil || name == "" {
		return nil
	}
	return m.Entity(name)
}

// modelColumn finds "entity.column", or a column name of any entity, or nil.
func modelColumn(m *model.Model, ref string) *model.Column {
	if m == nil {
		return nil
	}
	if e, c, ok := strings.Cut(ref, "."); ok {
		if en := modelEntity(m, e); en != nil {
			return en.Column(c)
		}
		return nil
	}
	for _, e := range m.Entities {
		if c := e.Column(ref); c != nil {
			return c
		}
	}
	return nil
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Forget drops a preference by key (source/slot); it is asked again.
func (s *Service) Forget(ctx context.Context, user, key string) error {
	source, slot, ok := strings.Cut(key, "/")
	if !ok || source == "" || slot == "" {
		return apperr.Errorf(apperr.CodeBadRequest, "a preference key is SOURCE/SLOT, got %q", key)
	}
	if err := s.st.ForgetPreference(ctx, user, source, slot); err != nil {
		return &apperr.Error{Code: apperr.CodeInternal, Message: "could not forget the preference", Err: err}
	}
	return nil
}

// SetNeverAsk switches "never ask me" for a user.
func (s *Service) SetNeverAsk(ctx context.Context, user string, never bool) error {
	if err := s.st.SetNeverAsk(ctx, user, never); err != nil {
		return &apperr.Error{Code: apperr.CodeInternal, Message: "could not save the setting", Err: err}
	}
	return nil
}

// NeverAsk reads a user's "never ask me" switch.
func (s *Service) NeverAsk(ctx context.Context, user string) (bool, error) {
	v, err := s.st.NeverAsk(ctx, user)
	if err != nil {
		return false, &apperr.Error{Code: apperr.CodeInternal, Message: "could not read the setting", Err: err}
	}
	return v, nil
}

// Stats are the service's figures since a time.
type Stats struct {
	store.Stats
	ClarificationRate    float64 `json:"clarification_rate"`
	AbandonmentRate      float64 `json:"abandonment_rate"`
	AutoResolutionRate   float64 `json:"auto_resolution_rate"`
	QuestionsPerAnswered float64 `json:"mean_questions_per_answered"`
}

func rate(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// StatsSince summarises the conversations since a time: the clarification
// rate (conversations asked at least once ÷ all), the abandonment rate
// (abandoned ÷ clarified), the auto-resolution rate (answered without a
// question ÷ answered), and the mean questions per answered conversation.
func (s *Service) StatsSince(ctx context.Context, since time.Time, user string) (*Stats, error) {
	st, err := s.st.Stats(ctx, since, user)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not compute statistics", Err: err}
	}
	return &Stats{Stats: st,
		ClarificationRate:    rate(st.Clarified, st.Conversations),
		AbandonmentRate:      rate(st.Abandoned, st.Clarified),
		AutoResolutionRate:   rate(st.AutoResolved, st.Answered),
		QuestionsPerAnswered: rate(st.QuestionsAsked, st.Answered),
	}, nil
}

// bestGuess returns the id of the option a clarification offered as its
// best guess, or "" when it offered none: recorded with each answer, so
// that a review of the model can tell how often users overrode it.
func bestGuess(c *engine.Clarification) string {
	for _, o := range c.Options {
		if o.BestGuess {
			return o.ID
		}
	}
	return ""
}
