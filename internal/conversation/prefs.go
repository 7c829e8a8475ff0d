package conversation

import (
	"context"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/store"
)

// Preferences lists a user's remembered and usual answers.
func (s *Service) Preferences(ctx context.Context, user string) ([]Preference, error) {
	ps, err := s.st.Preferences(ctx, user, "")
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: "could not read preferences", Err: err}
	}
	out := []Preference{}
	for _, p := range ps {
		if p.Slot == "scope" {
			continue
		}
		out = append(out, Preference{Key: p.Source + "/" + p.Slot, Source: p.Source, Slot: p.Slot, Value: p.Value,
			Remember: p.Remember, Count: p.Count, Applied: p.Remember || p.Count >= minRepeats, Updated: p.UpdatedAt})
	}
	return out, nil
}

// Forget drops a preference by key (source/slot); it is asked again.
func (s *Service) Forget(ctx context.Context, user, key string) error {
	source, slot, ok := strings.Cut(key, "/")
	if !ok || source == "" || slot == "" {
		return errorf(CodeBadRequest, "a preference key is SOURCE/SLOT, got %q", key)
	}
	if err := s.st.ForgetPreference(ctx, user, source, slot); err != nil {
		return &Error{Code: CodeInternal, Message: "could not forget the preference", Err: err}
	}
	return nil
}

// SetNeverAsk switches "never ask me" for a user.
func (s *Service) SetNeverAsk(ctx context.Context, user string, never bool) error {
	if err := s.st.SetNeverAsk(ctx, user, never); err != nil {
		return &Error{Code: CodeInternal, Message: "could not save the setting", Err: err}
	}
	return nil
}

// NeverAsk reads a user's "never ask me" switch.
func (s *Service) NeverAsk(ctx context.Context, user string) (bool, error) {
	v, err := s.st.NeverAsk(ctx, user)
	if err != nil {
		return false, &Error{Code: CodeInternal, Message: "could not read the setting", Err: err}
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
func (s *Service) StatsSince(ctx context.Context, since time.Time) (*Stats, error) {
	st, err := s.st.Stats(ctx, since)
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: "could not compute statistics", Err: err}
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
