package review

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/store"
)

// Statuses of the query log.
const (
	statusAnswered = "answered"
	statusAsking   = "needs_clarification"
	statusFailed   = "failed"
)

// questions ranks the questions by how many conversations asked them and
// says how each conversation ended: by the last turn it logged for the
// question.
func questions(queries []store.QueryRecord) []QuestionStat {
	type asking struct{ conv, question string }
	last := map[asking]store.QueryRecord{}
	var order []asking
	for i, q := range queries {
		k := asking{conversationKey(q, i), normalizeQuestion(q.Question)}
		if _, ok := last[k]; !ok {
			order = append(order, k)
		}
		last[k] = q
	}
	type stat struct {
		QuestionStat
		users  map[string]bool
		errors tally
		first  int
	}
	byQuestion := map[string]*stat{}
	for i, k := range order {
		s := byQuestion[k.question]
		if s == nil {
			s = &stat{users: map[string]bool{}, first: i}
			byQuestion[k.question] = s
		}
		q := last[k]
		if s.Question == "" {
			s.Question = strings.TrimSpace(q.Question)
		}
		s.Asked++
		s.users[q.UserID] = true
		switch q.Status {
		case statusAnswered:
			s.Answered++
			if q.Clarifications > 0 {
				s.Clarified++
			}
		case statusAsking:
			s.Waiting++
		case statusFailed:
			s.Failed++
			s.errors.add(q.ErrorCode)
		}
	}
	stats := make([]*stat, 0, len(byQuestion))
	for _, s := range byQuestion {
		s.Users = len(s.users)
		s.Errors = s.errors.counts()
		stats = append(stats, s)
	}
	slices.SortFunc(stats, func(a, b *stat) int {
		return cmp.Or(cmp.Compare(b.Asked, a.Asked), cmp.Compare(b.Users, a.Users), cmp.Compare(a.first, b.first))
	})
	out := []QuestionStat{}
	for _, s := range stats[:min(len(stats), TopQuestions)] {
		out = append(out, s.QuestionStat)
	}
	return out
}

// normalizeQuestion compares questions ignoring case, spacing and the
// punctuation that ends them.
func normalizeQuestion(q string) string {
	return strings.TrimRight(strings.ToLower(strings.Join(strings.Fields(q), " ")), " ?.!")
}
