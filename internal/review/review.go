package review

import (
	"cmp"
	"slices"
	"time"

	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/store"
)

// Input is what a review reads.
type Input struct {
	// Source is the name the store records the source's questions under.
	Source string
	// Model is the source's semantic model: proposals name its entities,
	// columns, vague terms and rankings, and leave out what it already has.
	Model *model.Model
	// Since is when the records start (zero: from the beginning); it is
	// only reported.
	Since time.Time
	// Queries and Answers are the source's query log and the replies to
	// its clarifications, oldest first (store.QueryLog, store.Answers).
	Queries []store.QueryRecord
	Answers []store.Answer
	// Evals are evaluation results (clarify eval --json); suites about
	// other sources are left out with a note.
	Evals []eval.SuiteResult
}

// Report is what a review found.
type Report struct {
	Source string `json:"source"`
	// Since is when the records start (zero: from the beginning).
	Since  time.Time `json:"since,omitzero"`
	Totals Totals    `json:"totals"`
	// Unknown are the words that linked to nothing, most used first.
	Unknown []UnknownWord `json:"unknown_words"`
	// Questions are the questions asked most (at most TopQuestions).
	Questions []QuestionStat `json:"questions"`
	// Clarifications are the questions Clarify asked, by slot, most
	// answered first, with the answers given.
	Clarifications []SlotStat `json:"clarifications"`
	// Overrides are the best guesses users overrode, most overridden first.
	Overrides []Override `json:"overrides"`
	// Proposals are the model additions the evidence supports.
	Proposals []Proposal `json:"proposals"`
	// Notes say what was left out and why.
	Notes []string `json:"notes,omitempty"`
}

// Totals count what the review read.
type Totals struct {
	// Turns are query log records; Conversations and Users the distinct
	// ones among them.
	Turns         int `json:"turns"`
	Conversations int `json:"conversations"`
	Users         int `json:"users"`
	// Answers are replies to clarifications.
	Answers int `json:"answers"`
	// EvalCases are the cases of the suites about the source; EvalFailed
	// those that failed.
	EvalCases  int `json:"eval_cases"`
	EvalFailed int `json:"eval_failed"`
}

// Count is how often a value occurred.
type Count struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// UnknownWord is a word of users' questions that linked to nothing.
type UnknownWord struct {
	Word string `json:"word"`
	// Uses counts the conversations whose question used the word, Users
	// the distinct users among them, EvalCases the failing eval cases.
	Uses      int `json:"uses"`
	Users     int `json:"users"`
	EvalCases int `json:"eval_cases"`
	// Example is a question that used it (the first one).
	Example string `json:"example"`
	// Answers are the replies to "what does it mean?", most given first:
	// "opt:" + an option id, or "text:" + what the user typed.
	Answers []Count `json:"answers,omitempty"`
}

// QuestionStat is one question (compared ignoring case, spacing and end
// punctuation) and how its conversations ended.
type QuestionStat struct {
	// Question is the question as first asked.
	Question string `json:"question"`
	// Asked counts the conversations that asked it, Users the distinct
	// users among them.
	Asked int `json:"asked"`
	Users int `json:"users"`
	// Answered counts the conversations answered, Clarified those of them
	// that asked something first, Failed those that failed (Errors by
	// code), Waiting those left with a question unanswered.
	Answered  int     `json:"answered"`
	Clarified int     `json:"clarified"`
	Failed    int     `json:"failed"`
	Waiting   int     `json:"waiting"`
	Errors    []Count `json:"errors,omitempty"`
}

// SlotStat is one slot Clarify asked about and the answers users gave.
type SlotStat struct {
	Slot string `json:"slot"`
	// Kind is the kind of question ("" when the answers predate it).
	Kind    string  `json:"kind"`
	Answers int     `json:"answers"`
	Users   int     `json:"users"`
	Values  []Count `json:"values"`
}

// Override is a best guess that users answered otherwise.
type Override struct {
	Slot      string `json:"slot"`
	Kind      string `json:"kind"`
	BestGuess string `json:"best_guess"`
	// Answers counts the replies to questions offering this best guess,
	// Overridden those that chose something else, Chosen what.
	Answers    int     `json:"answers"`
	Overridden int     `json:"overridden"`
	Chosen     []Count `json:"chosen"`
}

// Build reviews in: it counts, ranks and proposes; it never fails (what
// it cannot use is left out with a note).
func Build(in Input) *Report {
	r := &Report{Source: in.Source, Since: in.Since}
	evals, notes := sourceSuites(in)
	r.Notes = append(r.Notes, notes...)
	r.Totals = totals(in, evals)
	words := unknownWords(in.Queries, in.Answers, evals, &r.Notes)
	r.Unknown = make([]UnknownWord, len(words))
	for i, w := range words {
		r.Unknown[i] = w.UnknownWord
	}
	r.Questions = questions(in.Queries)
	r.Clarifications = slotStats(in.Answers)
	r.Overrides = overrides(in.Answers)
	if in.Model == nil {
		r.Notes = append(r.Notes, "no model: nothing proposed")
		r.Proposals = []Proposal{}
		return r
	}
	r.Proposals = propose(in.Model, words, in.Answers)
	return r
}

func totals(in Input, evals []eval.SuiteResult) Totals {
	t := Totals{Turns: len(in.Queries), Answers: len(in.Answers)}
	convs, users := map[string]bool{}, map[string]bool{}
	for i, q := range in.Queries {
		convs[conversationKey(q, i)] = true
		users[q.UserID] = true
	}
	t.Conversations, t.Users = len(convs), len(users)
	for _, s := range evals {
		for _, c := range s.Cases {
			t.EvalCases++
			if !c.Pass {
				t.EvalFailed++
			}
		}
	}
	return t
}

// tally counts values and lists them most frequent first, ties in the
// order of their first occurrence.
type tally struct {
	order []string
	n     map[string]int
}

func (t *tally) add(v string) {
	if t.n == nil {
		t.n = map[string]int{}
	}
	if _, ok := t.n[v]; !ok {
		t.order = append(t.order, v)
	}
	t.n[v]++
}

func (t *tally) total() int {
	n := 0
	for _, c := range t.n {
		n += c
	}
	return n
}

func (t *tally) counts() []Count {
	out := make([]Count, len(t.order))
	for i, v := range t.order {
		out[i] = Count{Value: v, Count: t.n[v]}
	}
	slices.SortStableFunc(out, func(a, b Count) int { return cmp.Compare(b.Count, a.Count) })
	return out
}
