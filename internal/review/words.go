package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/store"
)

// Slot key prefixes and kinds of the clarifications a review reads
// (package understand names them; docs/eval.md lists the kinds).
const (
	unknownPrefix = "unknown:"
	columnPrefix  = "column:"
	vaguePrefix   = "vague:"
	rankingPrefix = "ranking:"
	timeWindow    = "time_window"
)

// wordStat is an unknown word with what the proposals need beyond the
// report: every question that used it.
type wordStat struct {
	UnknownWord
	questions []string
	users     map[string]bool
	convs     map[string]bool
	// answers tallies the replies to "what does it mean?"; answerList
	// holds them.
	answers    tally
	answerList []store.Answer
}

// unknownWords gathers the words that linked to nothing: from the query
// log (once per conversation), the answers to unknown-word questions, and
// the failing eval cases.
func unknownWords(queries []store.QueryRecord, answers []store.Answer, evals []eval.SuiteResult, notes *[]string) []*wordStat {
	byWord := map[string]*wordStat{}
	get := func(w string) *wordStat {
		s := byWord[w]
		if s == nil {
			s = &wordStat{UnknownWord: UnknownWord{Word: w}, users: map[string]bool{}, convs: map[string]bool{}}
			byWord[w] = s
		}
		return s
	}
	// answers first: they name the phrases ("zong wub") Clarify asked
	// about, whose words the log lists one by one
	var phrases []string
	for _, a := range answers {
		w, ok := strings.CutPrefix(a.Slot, unknownPrefix)
		if w = normalizeWord(w); !ok || w == "" {
			continue
		}
		s := get(w)
		s.answers.add(a.Value)
		s.answerList = append(s.answerList, a)
		if strings.Contains(w, " ") && !slices.Contains(phrases, w) {
			phrases = append(phrases, w)
		}
	}
	for i, q := range queries {
		var words []string
		for _, w := range q.Unknown {
			if w = normalizeWord(w); w != "" {
				words = append(words, w)
			}
		}
		for _, p := range phrases {
			if !slices.Contains(words, p) && allIn(strings.Fields(p), words) {
				words = append(words, p)
			}
		}
		for _, w := range words {
			s := get(w)
			if s.Example == "" {
				s.Example = q.Question
			}
			if !slices.Contains(s.questions, q.Question) {
				s.questions = append(s.questions, q.Question)
			}
			s.users[q.UserID] = true
			s.convs[conversationKey(q, i)] = true
		}
	}
	unnamed := 0
	var example string
	for _, s := range evals {
		for _, c := range s.Cases {
			if c.Pass {
				continue
			}
			words, asked := caseUnknown(c)
			if asked && len(words) == 0 {
				unnamed++
				if example == "" {
					example = c.Question
				}
			}
			for _, w := range words {
				st := get(w)
				st.EvalCases++
				if st.Example == "" {
					st.Example = c.Question
				}
				if !slices.Contains(st.questions, c.Question) {
					st.questions = append(st.questions, c.Question)
				}
			}
		}
	}
	if unnamed > 0 {
		*notes = append(*notes, fmt.Sprintf("%s asked about an unknown word the eval results do not name (e.g. %q)", plural(unnamed, "failing eval case"), example))
	}
	out := make([]*wordStat, 0, len(byWord))
	for _, s := range byWord {
		s.Uses, s.Users = len(s.convs), len(s.users)
		s.Answers = s.answers.counts()
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *wordStat) int {
		return cmp.Or(cmp.Compare(b.Uses+b.EvalCases, a.Uses+a.EvalCases), cmp.Compare(b.Users, a.Users),
			cmp.Compare(b.answers.total(), a.answers.total()), cmp.Compare(a.Word, b.Word))
	})
	return out
}

// allIn reports whether every one of words is in set.
func allIn(words, set []string) bool {
	for _, w := range words {
		if !slices.Contains(set, w) {
			return false
		}
	}
	return len(words) > 0
}

// conversationKey identifies the conversation of the i-th record; a record
// without one stands alone.
func conversationKey(q store.QueryRecord, i int) string {
	if q.ConversationID != "" {
		return q.ConversationID
	}
	return fmt.Sprintf("#%d", i)
}

// normalizeWord compares words ignoring case and spacing.
func normalizeWord(w string) string {
	return strings.ToLower(strings.Join(strings.Fields(w), " "))
}
