package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/understand"
)

// maxTurns stops a case that keeps asking.
const maxTurns = 10

// Opener resolves a suite's source to an engine; note says how (e.g. that
// the model was drafted on the fly).
type Opener func(ctx context.Context, s *Suite) (eng *engine.Engine, note string, err error)

// CaseResult is what happened to one case.
type CaseResult struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Expect   string   `json:"expect"`
	Asked    []string `json:"asked"`
	// FirstOptions are the labels of the first clarification's options.
	FirstOptions []string `json:"first_options,omitempty"`
	TooMany      bool     `json:"asked_too_much,omitempty"`
	Error        string   `json:"error,omitempty"`
	ErrorMessage string   `json:"error_message,omitempty"`
	// Match is set for cases with gold SQL.
	Match       *bool     `json:"match,omitempty"`
	MatchNote   string    `json:"match_note,omitempty"`
	Assumptions []string  `json:"assumptions,omitempty"`
	SQL         string    `json:"sql,omitempty"`
	Pass        bool      `json:"pass"`
	Problems    []string  `json:"problems,omitempty"`
	TurnsMS     []float64 `json:"turns_ms"`
	// ModelCalls is how many calls the case made to a language model
	// (engines llm and hybrid).
	ModelCalls int64 `json:"model_calls,omitempty"`
}

// Scores of one suite (docs/eval.md, section "Scores and output"). A score whose denominator is
// zero is nil.
type Scores struct {
	Cases            int      `json:"cases"`
	Accuracy         *float64 `json:"accuracy"`
	AskRecall        *float64 `json:"ask_recall"`
	MissedAsk        *float64 `json:"missed_ask"`
	FalseAsk         *float64 `json:"false_ask"`
	AskPrecision     *float64 `json:"ask_precision"`
	QuestionsPerCase float64  `json:"questions_per_case"`
	ErrorMatch       *float64 `json:"error_match"`
	P50MS            float64  `json:"latency_p50_ms"`
	P99MS            float64  `json:"latency_p99_ms"`
	// ModelCases counts the cases that called a language model.
	ModelCases int `json:"model_cases"`
}

// Options tune a run.
type Options struct {
	// Engine answers every case: rules, llm or hybrid ("" = each source's
	// own).
	Engine string
}

// SuiteResult is a scored suite.
type SuiteResult struct {
	File   string       `json:"file"`
	Source string       `json:"source"`
	Note   string       `json:"note,omitempty"`
	Cases  []CaseResult `json:"cases"`
	Scores Scores       `json:"scores"`
}

// Run runs every case of a suite on its engine.
func Run(ctx context.Context, s *Suite, open Opener, opt Options) (*SuiteResult, error) {
	eng, note, err := open(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("%s: source %s: %w", s.File, s.Source, err)
	}
	if err := eng.CheckEngine(opt.Engine); err != nil {
		return nil, fmt.Errorf("%s: source %s: %w", s.File, s.Source, err)
	}
	r := &SuiteResult{File: s.File, Source: s.Source, Note: note}
	for _, c := range s.Cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.Cases = append(r.Cases, runCase(ctx, eng, c, opt.Engine))
	}
	r.Scores = score(s, r.Cases)
	return r, nil
}

func expectString(e Expect) string {
	switch {
	case e.Answer:
		return "answer"
	case e.Error != "":
		return "error " + e.Error
	}
	return "ask " + strings.Join(e.Ask, "|")
}

// Play is one case played through an engine: the kinds of the
// clarifications asked, the first one's option labels, and the final answer
// or error.
type Play struct {
	Asked        []string
	FirstOptions []string
	TooMany      bool
	Answer       *engine.Answer
	Err          error
	TurnsMS      []float64
}

// PlayCase runs a case's question, answering each clarification with the
// case's next reply (then "skip"), as a user would type it.
func PlayCase(ctx context.Context, eng *engine.Engine, c Case) Play {
	return PlayCaseOn(ctx, eng, c, "")
}

// PlayCaseOn is PlayCase on the named engine ("" = the source's).
func PlayCaseOn(ctx context.Context, eng *engine.Engine, c Case, engineName string) Play {
	p := Play{Asked: []string{}, TurnsMS: []float64{}}
	interactive := c.Interactive == nil || *c.Interactive
	req := engine.Request{Question: c.Question, Resolved: map[string]understand.Resolution{}, Interactive: interactive, Engine: engineName}
	for turn := 0; turn < maxTurns; turn++ {
		start := time.Now()
		out, err := eng.Turn(ctx, req)
		p.TurnsMS = append(p.TurnsMS, float64(time.Since(start).Microseconds())/1000)
		if err != nil {
			p.Err = err
			return p
		}
		if out.Status == engine.StatusAnswered {
			p.Answer = out.Answer
			return p
		}
		cl := out.Clarification
		p.Asked = append(p.Asked, cl.Kind)
		if len(p.Asked) == 1 {
			for _, o := range cl.Options {
				p.FirstOptions = append(p.FirstOptions, o.Label)
			}
		}
		// an ask-only case (no answers, no gold) ends at its first question
		if len(c.Answers) == 0 && c.GoldSQL == "" && len(c.AssumptionsInclude) == 0 {
			return p
		}
		reply := "skip"
		if req.Rounds < len(c.Answers) {
			reply = c.Answers[req.Rounds]
		} else {
			p.TooMany = true
		}
		req.Resolved[out.Slot.Key] = engine.Resolve(out.Slot, clarify.Interpret(reply, out.Slot))
		req.Rounds++
	}
	return p
}

func runCase(ctx context.Context, eng *engine.Engine, c Case, engineName string) CaseResult {
	cr := CaseResult{ID: c.ID, Question: c.Question, Expect: expectString(c.Expect)}
	calls := eng.ModelCalls()
	p := PlayCaseOn(ctx, eng, c, engineName)
	cr.ModelCalls = eng.ModelCalls() - calls
	cr.Asked, cr.FirstOptions, cr.TooMany, cr.TurnsMS = p.Asked, p.FirstOptions, p.TooMany, p.TurnsMS
	if p.Err != nil {
		code := apperr.CodeOf(p.Err)
		if code == "" {
			code = apperr.CodeInternal
		}
		cr.Error = string(code)
		cr.ErrorMessage = p.Err.Error()
	}
	judge(ctx, eng, c, &cr, p.Answer)
	return cr
}

// judge checks a case's outcome against its expectations.
func judge(ctx context.Context, eng *engine.Engine, c Case, cr *CaseResult, final *engine.Answer) {
	e := c.Expect
	switch {
	case e.Answer:
		if len(cr.Asked) > 0 {
			cr.Problems = append(cr.Problems, "asked "+strings.Join(cr.Asked, ", ")+" but should have answered")
		}
	case e.Error != "":
		if cr.Error != e.Error {
			cr.Problems = append(cr.Problems, fmt.Sprintf("ended in %q, want error %s", orAnswered(cr.Error), e.Error))
		}
	default:
		if !firstAskOK(c, cr) {
			got := "nothing"
			if len(cr.Asked) > 0 {
				got = cr.Asked[0] + " (" + strings.Join(cr.FirstOptions, " / ") + ")"
			}
			cr.Problems = append(cr.Problems, fmt.Sprintf("first asked %s, want %s with options %v", got, strings.Join(e.Ask, "|"), e.OptionsInclude))
		}
	}
	if cr.TooMany {
		cr.Problems = append(cr.Problems, fmt.Sprintf("asked %d questions for %d answers", len(cr.Asked), len(c.Answers)))
	}
	if cr.Error != "" && e.Error == "" {
		cr.Problems = append(cr.Problems, "failed: "+cr.ErrorMessage)
	}
	if final != nil {
		cr.SQL = final.SQL
		for _, a := range final.Assumptions {
			cr.Assumptions = append(cr.Assumptions, a.Text)
		}
		for _, want := range c.AssumptionsInclude {
			if !assumed(final, want) {
				cr.Problems = append(cr.Problems, fmt.Sprintf("no assumption mentions %q (got %v)", want, cr.Assumptions))
			}
		}
	}
	if c.GoldSQL != "" {
		ok := false
		if final == nil {
			cr.MatchNote = "no answer"
		} else {
			gold, err := runGold(ctx, eng, c.GoldSQL)
			if err != nil {
				cr.MatchNote = "gold SQL failed: " + err.Error()
			} else {
				ok, cr.MatchNote = Match(gold, final.Rows, c.Ordered)
			}
		}
		cr.Match = &ok
		if !ok {
			cr.Problems = append(cr.Problems, "answer does not match gold: "+cr.MatchNote)
		}
	}
	cr.Pass = len(cr.Problems) == 0
}

func orAnswered(code string) string {
	if code == "" {
		return "an answer"
	}
	return code
}

func firstAskOK(c Case, cr *CaseResult) bool {
	if len(cr.Asked) == 0 {
		return false
	}
	kindOK := false
	for _, k := range c.Expect.Ask {
		if cr.Asked[0] == k {
			kindOK = true
		}
	}
	if !kindOK {
		return false
	}
	for _, want := range c.Expect.OptionsInclude {
		found := false
		for _, l := range cr.FirstOptions {
			if strings.Contains(strings.ToLower(l), strings.ToLower(want)) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func assumed(a *engine.Answer, want string) bool {
	w := strings.ToLower(want)
	for _, list := range [][]clarify.Assumption{a.Assumptions, a.OpenQuestions} {
		for _, x := range list {
			if strings.Contains(strings.ToLower(x.Text), w) || strings.Contains(strings.ToLower(x.Chosen), w) {
				return true
			}
		}
	}
	return false
}

// runGold runs a case's gold SQL with {{as_of}} set to the engine's date.
func runGold(ctx context.Context, eng *engine.Engine, gold string) ([][]any, error) {
	q := strings.ReplaceAll(gold, "{{as_of}}", eng.Now().Format(time.DateOnly))
	res, err := eng.Source().Query(ctx, q, nil, 1_000_000)
	if err != nil {
		return nil, err
	}
	if res.Truncated {
		return nil, errors.New("gold result too large")
	}
	return res.Rows, nil
}

func ratio(n, d int) *float64 {
	if d == 0 {
		return nil
	}
	f := float64(n) / float64(d)
	return &f
}

func score(s *Suite, cs []CaseResult) Scores {
	sc := Scores{Cases: len(cs)}
	var accN, accD, askN, askD, falseN, falseD, precN, precD, errN, errD, questions int
	var lat []float64
	for i, cr := range cs {
		c := s.Cases[i]
		lat = append(lat, cr.TurnsMS...)
		if cr.ModelCalls > 0 {
			sc.ModelCases++
		}
		questions += len(cr.Asked)
		if cr.Match != nil {
			accD++
			if *cr.Match {
				accN++
			}
		}
		switch {
		case c.Expect.Answer:
			falseD++
			if len(cr.Asked) > 0 {
				falseN++
			}
		case c.Expect.Error != "":
			errD++
			if cr.Error == c.Expect.Error {
				errN++
			}
		default:
			askD++
			if firstAskOK(c, &cr) {
				askN++
			}
		}
		if len(cr.Asked) > 0 {
			precD++
			if len(c.Expect.Ask) > 0 && firstAskOK(c, &cr) {
				precN++
			}
		}
	}
	sc.Accuracy = ratio(accN, accD)
	sc.AskRecall = ratio(askN, askD)
	if sc.AskRecall != nil {
		m := 1 - *sc.AskRecall
		sc.MissedAsk = &m
	}
	sc.FalseAsk = ratio(falseN, falseD)
	sc.AskPrecision = ratio(precN, precD)
	sc.ErrorMatch = ratio(errN, errD)
	if len(cs) > 0 {
		sc.QuestionsPerCase = float64(questions) / float64(len(cs))
	}
	sc.P50MS, sc.P99MS = percentile(lat, 0.50), percentile(lat, 0.99)
	return sc
}

// percentile uses the nearest-rank method.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(i, 0)]
}
