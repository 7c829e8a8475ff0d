package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/store"
)

// policyTimeWindow names policies.time_window_options in a SetBestGuess.
const policyTimeWindow = "time_window_options"

// defaults proposes a different best guess for the vague terms and the
// time window, and a different default metric for the rankings, where
// users overrode the model's choice (see newDefault).
func defaults(m *model.Model, slots []string, bySlot map[string][]store.Answer) []ranked {
	var out []ranked
	for _, s := range slots {
		c, ok := modelChoice(m, s)
		if !ok {
			continue
		}
		answers := bySlot[s]
		id, g, ok := newDefault(answers, c.options, c.current)
		if !ok {
			continue
		}
		what := "the best guess"
		if c.rank == rankDefault {
			what = "the default"
		}
		out = append(out, ranked{rank: c.rank, support: g.count, p: c.propose(id, c.current, defaultEvidence(g, answers, c.current, what))})
	}
	return out
}

// choice is a choice the model makes for a slot: among options, current
// (the option marked best guess or default, "" when none is).
type choice struct {
	rank    int
	options []string
	current string
	propose func(id, was, evidence string) Proposal
}

// modelChoice finds the choice a slot's answers are about: the options of
// a vague term, of the time window policy, or the metrics of a ranking.
func modelChoice(m *model.Model, slot string) (choice, bool) {
	var c choice
	switch {
	case strings.HasPrefix(slot, vaguePrefix):
		vt := vagueTerm(m, strings.TrimPrefix(slot, vaguePrefix))
		if vt == nil {
			return c, false
		}
		for _, o := range vt.Options {
			c.options = append(c.options, o.ID)
			if o.BestGuess {
				c.current = o.ID
			}
		}
		c.rank = rankBestGuess
		c.propose = func(id, was, ev string) Proposal {
			return Proposal{SetBestGuess: &SetBestGuess{VagueTerm: vt.Name, Option: id, Was: was, Evidence: ev}}
		}
	case slot == timeWindow && len(m.Policies.TimeWindowOptions) > 0:
		for _, o := range m.Policies.TimeWindowOptions {
			c.options = append(c.options, o.ID)
			if o.BestGuess {
				c.current = o.ID
			}
		}
		c.rank = rankBestGuess
		c.propose = func(id, was, ev string) Proposal {
			return Proposal{SetBestGuess: &SetBestGuess{Policy: policyTimeWindow, Option: id, Was: was, Evidence: ev}}
		}
	case strings.HasPrefix(slot, rankingPrefix):
		rk := ranking(m, strings.TrimPrefix(slot, rankingPrefix))
		if rk == nil {
			return c, false
		}
		for _, mt := range rk.Metrics {
			c.options = append(c.options, mt.ID)
			if mt.Default {
				c.current = mt.ID
			}
		}
		c.rank = rankDefault
		c.propose = func(id, was, ev string) Proposal {
			return Proposal{SetDefault: &SetDefault{Ranking: rk.Entity, Metric: id, Was: was, Evidence: ev}}
		}
	default:
		return c, false
	}
	return c, true
}

// newDefault returns the option users chose instead of the current one
// (current is "" when none is marked), when at least MinDefaultAnswers
// answered, most of them chose something other than current, and one other
// option of the model was chosen by at least MinAgreeing of them and more
// often than current. Typed answers count as overriding but are never
// proposed.
func newDefault(answers []store.Answer, options []string, current string) (string, agreement, bool) {
	if len(answers) < MinDefaultAnswers {
		return "", agreement{}, false
	}
	kept := 0
	for _, a := range answers {
		if current != "" && chosenOption(a.Value) == current {
			kept++
		}
	}
	if 2*(len(answers)-kept) <= len(answers) {
		return "", agreement{}, false
	}
	g := agree(answers, func(a store.Answer) string {
		if id := chosenOption(a.Value); id != current && slices.Contains(options, id) {
			return id
		}
		return ""
	})
	if g.count < MinAgreeing || g.count <= kept {
		return "", agreement{}, false
	}
	return g.meaning, g, true
}

// defaultEvidence says what users chose instead of current.
func defaultEvidence(g agreement, answers []store.Answer, current, what string) string {
	s := fmt.Sprintf("%d of %d answers chose %s (%s)", g.count, g.total, g.meaning, plural(g.users, "user"))
	if current == "" {
		return s + "; no option is marked as " + strings.TrimPrefix(what, "the ")
	}
	kept := 0
	for _, a := range answers {
		if chosenOption(a.Value) == current {
			kept++
		}
	}
	if kept == 0 {
		return s + fmt.Sprintf("; none kept %s %s", what, current)
	}
	return s + fmt.Sprintf("; %d kept %s %s", kept, what, current)
}

func vagueTerm(m *model.Model, name string) *model.VagueTerm {
	for _, vt := range m.Vague {
		if vt != nil && vt.Name == name {
			return vt
		}
	}
	return nil
}

func ranking(m *model.Model, entity string) *model.Ranking {
	for _, rk := range m.Rankings {
		if rk != nil && rk.Entity == entity {
			return rk
		}
	}
	return nil
}
