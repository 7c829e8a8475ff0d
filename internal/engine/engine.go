package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/sqlfmt"
	"github.com/clarify-sql/clarify/internal/understand"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Options tune an engine.
type Options struct {
	// Now is the source's clock (default time.Now); the evaluation harness
	// and sources configured with a fixed date set it.
	Now func() time.Time
	// PreviewBudget bounds the time spent counting option previews
	// (default 150ms); a preview not counted within it is marked so
	// (Preview.NotCounted).
	PreviewBudget time.Duration
	// SuggestBudget bounds the search for a relaxed filter on an empty
	// answer (default 300ms).
	SuggestBudget time.Duration
	// Log receives what a user must not see: a recovered panic with its
	// stack (default slog.Default()).
	Log *slog.Logger
	// Engine is the source's engine: EngineRules (default), EngineLLM or
	// EngineHybrid; a request may choose another (Request.Engine).
	Engine string
	// LLM is the language model endpoint of the llm and hybrid engines
	// (default none: only rules).
	LLM *llm.Client
}

// Engine answers questions about one source.
type Engine struct {
	src   *source.Source
	an    *understand.Analyzer
	guard *guard.Guard
	opt   Options
	// format is the first reply format to ask the model for (an index into
	// chat's list): it moves on when the endpoint does not support one
	format atomic.Int32
	// noTools is set once the endpoint has refused tools: engine llm then
	// answers in dual mode without asking again
	noTools atomic.Bool
	// beforeTurn, set only by tests (export_test.go), runs first in a turn
	beforeTurn func(Request)
}

// New builds an engine for a source.
func New(src *source.Source, opt Options) *Engine {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.PreviewBudget == 0 {
		opt.PreviewBudget = 150 * time.Millisecond
	}
	if opt.SuggestBudget == 0 {
		opt.SuggestBudget = 300 * time.Millisecond
	}
	an := understand.New(src.Model, src.Catalog())
	an.SetLog(opt.Log)
	return &Engine{src: src, an: an, opt: opt,
		guard: guard.New(src.Model, src.Dialect(), guard.Options{RowCap: src.RowCap()})}
}

// run passes a statement through the guard — with the query's scope, so
// that every table it reads is limited to the scope value by code — and
// executes the statement the guard returns, never the one it was given.
//
// A turn limited by lim may run only statements limited to a value lim
// permits, or, naming none, statements limited to the set of values lim
// permits (none: statements that read no scoped table): this is where a
// user's rights are enforced, whatever understanding produced.
func (e *Engine) run(ctx context.Context, lim *understand.ScopeLimit, q *query.Query, sql string, args []any, maxRows int) (*source.Result, error) {
	res, _, err := e.runChecked(ctx, lim, q, sql, args, maxRows)
	return res, err
}

// runChecked is run, returning also the statement the guard let run.
func (e *Engine) runChecked(ctx context.Context, lim *understand.ScopeLimit, q *query.Query, sql string, args []any, maxRows int) (*source.Result, *guard.Statement, error) {
	var sc *guard.Scope
	switch {
	case q != nil && q.Scope != nil:
		if !lim.Permits(q.Scope.Key) {
			return nil, nil, forbidden(e.src.Model)
		}
		sc = &guard.Scope{Value: q.Scope.Key}
	case lim != nil:
		// no value named: the user's own values, all of them (an empty
		// set, a user who may see none, reads no scoped table)
		sc = &guard.Scope{Values: append([]string{}, lim.Keys()...)}
	}
	st, err := e.guard.Check(sql, args, sc)
	if ge, ok := guard.IsRejection(err); ok {
		if ge.Code == apperr.CodeScopeViolation && lim != nil && len(lim.Keys()) == 0 {
			// a right the user does not have, not a statement to mend
			return nil, nil, &apperr.Error{Code: apperr.CodeScopeForbidden, Message: "you may not see any " + scopeNoun(e.src.Model) + "'s data", Err: err}
		}
		return nil, nil, &apperr.Error{Code: ge.Code, Message: "the statement was refused: " + ge.Reason, Err: err}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("guard: %w", err)
	}
	res, err := e.src.Query(ctx, st.SQL, st.Args, maxRows)
	return res, st, err
}

// Source returns the engine's source.
func (e *Engine) Source() *source.Source { return e.src }

// Analyzer returns the engine's analyzer.
func (e *Engine) Analyzer() *understand.Analyzer { return e.an }

// Request is one turn.
type Request struct {
	Question string
	// Resolved holds the answers given so far and remembered preferences.
	Resolved map[string]understand.Resolution
	// Rounds is how many clarifications were asked before this turn.
	Rounds int
	// Interactive is false when nobody can answer a question.
	Interactive bool
	// Scope, when set, limits the turn to the scope values its user may
	// see (a clinician's patients): only those are offered, and a turn
	// limited to any other — named, answered, or remembered — fails with
	// SCOPE_FORBIDDEN; a turn that names none may read no scoped table.
	// Nil: every value (no access rules, or a user they do not limit).
	Scope *understand.ScopeLimit
	// AskScope asks whose data a question is about even when not
	// interactive: scope is never guessed, and a person who chose not to
	// be asked anything else can still choose it ("Let me choose").
	AskScope bool
	// Progress, when set, is told each step as it finishes (for the live
	// "what I'm doing" list): understand, route, plan, execute.
	Progress func(step string, took time.Duration)
	// Engine chooses the engine for this turn: EngineRules, EngineLLM or
	// EngineHybrid ("" = the source's).
	Engine string
	// Text, when set, is given the language model's words to the user as
	// they stream (engine llm's tool loop), in chunks at word boundaries:
	// prose only, never a statement or a structured reply, without control
	// characters, at most a few thousand bytes a turn. It is called from
	// the turn's goroutine.
	Text func(chunk string)
}

func (r Request) progress(step string, took time.Duration) {
	if r.Progress != nil {
		r.Progress(step, took)
	}
}

// Turn runs one turn.
//
// No panic leaves Turn: one is recovered into an error with code INTERNAL,
// and logged with its stack and the question.
func (e *Engine) Turn(ctx context.Context, req Request) (out *Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			e.logPanic(r, req.Question)
			out, err = nil, &apperr.Error{Code: apperr.CodeInternal, Message: "something went wrong with this question; it was logged so it can be fixed", Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	return e.turn(ctx, req)
}

// logPanic records a recovered panic for the people who run Clarify.
func (e *Engine) logPanic(r any, question string) {
	e.opt.Log.Error("panic in a turn", "source", e.src.Name, "question", question, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
}

func (e *Engine) turn(ctx context.Context, req Request) (*Outcome, error) {
	if e.beforeTurn != nil {
		e.beforeTurn(req)
	}
	name, err := e.engineFor(req.Engine)
	if err != nil {
		return nil, err
	}
	switch name {
	case EngineLLM:
		return e.llmTurn(ctx, req)
	case EngineHybrid:
		return e.hybridTurn(ctx, req)
	}
	return e.rulesTurn(ctx, req)
}

// rulesTurn answers a turn from the semantic model alone.
func (e *Engine) rulesTurn(ctx context.Context, req Request) (*Outcome, error) {
	start := time.Now()
	now := e.opt.Now()
	in, err := e.an.Analyze(ctx, req.Question, understand.Settings{Now: now, Resolved: req.Resolved, Scope: req.Scope})
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeBadRequest, Message: err.Error(), Err: err}
	}
	if in.ScopeForbidden != "" {
		return nil, forbidden(e.src.Model)
	}
	// a cancelled turn stops here: understanding goes on without values it
	// could not load, which is right for an unreachable database but not
	// for the caller's own cancellation
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tUnderstand := time.Since(start)
	req.progress("understand", tUnderstand)
	out := &Outcome{Interpretation: in, Understood: understood(in), Question: req.Question, Engine: EngineRules}
	m := e.src.Model
	maxRounds := m.Policies.MaxRounds
	tRoute := time.Now()
	d := clarify.Route(in, clarify.Policy{Interactive: req.Interactive, Rounds: req.Rounds, MaxRounds: maxRounds})
	out.Assumptions = nonNil(d.Assumptions)
	ask := d.Ask
	if ask == nil && d.ScopeMissing != nil && d.Unanswerable == nil && req.AskScope {
		ask = d.ScopeMissing // never guessed: asked even when nothing else is
	}
	if ask != nil {
		out.Status = StatusNeedsQuestion
		out.Slot = ask
		out.Clarification = e.clarification(ctx, req, ask, now)
		req.progress("route", time.Since(tRoute))
		return out, nil
	}
	req.progress("route", time.Since(tRoute))
	if d.Unanswerable != nil {
		msg := d.Unanswerable.Question
		if c := d.Unanswerable.Context; c != "" && !strings.Contains(msg, c) {
			msg = c + " " + msg // why it cannot be answered, then what would answer it
		}
		return nil, &apperr.Error{Code: apperr.CodeUnanswerable, Message: msg, Err: withUnknown(in, nil)}
	}
	if d.ScopeMissing != nil {
		return nil, &apperr.Error{Code: apperr.CodeScopeRequired, Message: fmt.Sprintf("the question must name which %s it is about (%s)", strings.TrimPrefix(d.ScopeMissing.Text, "which "), d.ScopeMissing.Context), Err: withUnknown(in, nil)}
	}
	q := in.Query
	if q == nil || q.Base == nil {
		return nil, &apperr.Error{Code: apperr.CodeUnanswerable, Message: "I could not tell what the question is about" + unknownNote(in), Err: withUnknown(in, nil)}
	}
	t1 := time.Now()
	pl, err := plan.Compile(m, q, e.src.Dialect(), plan.Options{RowCap: e.src.RowCap(), Now: now})
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeUnanswerable, Message: "I cannot express this question in SQL", Err: withUnknown(in, err)}
	}
	tPlan := time.Since(t1)
	req.progress("plan", tPlan)
	t2 := time.Now()
	res, ran, err := e.runChecked(ctx, req.Scope, q, pl.SQL, pl.Args, 0)
	if err != nil {
		return nil, dbError(err)
	}
	tExec := time.Since(t2)
	req.progress("execute", tExec)
	note := cutTies(res, pl.Ties)
	ans := &Answer{
		Statement: pl.Statement, SQL: pl.SQL, SQLFormatted: sqlfmt.Format(pl.SQL), Params: nonNilAny(pl.Args), Dialect: string(e.src.Dialect()),
		Columns: pl.Columns, Rows: res.Rows, RowCount: len(res.Rows), Truncated: res.Truncated, Chart: pl.Chart,
		Assumptions: nonNil(d.Assumptions), OpenQuestions: nonNil(d.OpenQuestions), Warnings: in.Warnings, Engine: EngineRules,
	}
	ans.Ran = *ran
	if ans.Rows == nil {
		ans.Rows = [][]any{}
	}
	ans.Chart.Partial = plan.Partial(q, pl.Chart, pl.Columns, ans.Rows, now)
	if note != "" {
		ans.Notes = append(ans.Notes, note)
	}
	if in.LeftOut != "" {
		ans.Notes = append(ans.Notes, fmt.Sprintf("This answers the first part of the question only: ask %q on its own for the rest.", in.LeftOut))
	}
	ans.Suggestions = e.suggestions(ctx, req.Scope, in, len(res.Rows) == 0, now)
	ans.TimingsMS = map[string]float64{
		"understand": ms(tUnderstand), "plan": ms(tPlan), "execute": ms(tExec), "total": ms(time.Since(start)),
	}
	out.Status = StatusAnswered
	out.Answer = ans
	return out, nil
}

// cutTies keeps the top N rows of a result fetched past its cut-off and
// says how many of the rows cut tie with the last one kept ("" when none
// do): a top 3 that stops inside a tie is not the whole truth.
func cutTies(res *source.Result, t *plan.Ties) string {
	if t == nil || t.Limit <= 0 || len(res.Rows) <= t.Limit || t.Column < 0 {
		return ""
	}
	last := res.Rows[t.Limit-1][t.Column]
	more := 0
	for _, r := range res.Rows[t.Limit:] {
		if fmt.Sprint(r[t.Column]) != fmt.Sprint(last) {
			break
		}
		more++
	}
	all := more == len(res.Rows)-t.Limit && len(res.Rows) == t.Limit+plan.TieProbe
	res.Rows = res.Rows[:t.Limit]
	res.Truncated = false
	if more == 0 || last == nil {
		return ""
	}
	switch {
	case all:
		return fmt.Sprintf("%d or more %s tie with the last one shown (%s %v): the cut-off falls inside a tie.", more, t.Plural, t.Label, last)
	case more == 1:
		return fmt.Sprintf("1 more %s ties with the last one shown (%s %v): the cut-off falls inside a tie.", t.Singular, t.Label, last)
	}
	return fmt.Sprintf("%d more %s tie with the last one shown (%s %v): the cut-off falls inside a tie.", more, t.Plural, t.Label, last)
}

func unknownNote(in *understand.Interpretation) string {
	if len(in.Unknown) == 0 {
		return ""
	}
	return fmt.Sprintf(" (unknown words: %s)", strings.Join(in.Unknown, ", "))
}

func dbError(err error) error {
	var ee *apperr.Error
	switch {
	case errors.As(err, &ee):
		return err
	case errors.Is(err, source.ErrTimeout):
		return &apperr.Error{Code: apperr.CodeTimeout, Message: "the query took too long and was stopped", Err: err}
	case errors.Is(err, context.Canceled):
		return err
	}
	return &apperr.Error{Code: apperr.CodeDB, Message: "the database could not run the query", Err: err}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func nonNil(a []clarify.Assumption) []clarify.Assumption {
	if a == nil {
		return []clarify.Assumption{}
	}
	return a
}

func nonNilAny(a []any) []any {
	if a == nil {
		return []any{}
	}
	return a
}

func understood(in *understand.Interpretation) Understood {
	u := Understood{Intent: string(in.Intent), Terms: in.Linked, Unknown: in.Unknown}
	if in.Subject != nil {
		u.Subject = in.Subject.Singular()
	}
	if u.Terms == nil {
		u.Terms = []string{}
	}
	return u
}

// ClarificationID names a clarification stably: the same slot asked in the
// same round of the same question gets the same id.
func ClarificationID(question, slot string, round int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d", question, slot, round)))
	return "q_" + hex.EncodeToString(h[:8])
}

// previewKinds are the clarifications whose options filter rows.
var previewKinds = map[string]bool{understand.KindVague: true, understand.KindValue: true, understand.KindTimeWindow: true, understand.KindScope: true}

func (e *Engine) clarification(ctx context.Context, req Request, s *understand.Slot, now time.Time) *Clarification {
	c := &Clarification{
		ID: ClarificationID(req.Question, s.Key, req.Rounds), Kind: s.Kind, Slot: s.Key, Priority: s.Priority,
		Question: s.Question, Context: s.Context, AllowSkip: !s.NeverAssume, AllowFreeText: true, Note: s.Invalid,
	}
	for i, o := range s.Options {
		c.Options = append(c.Options, Option{ID: o.ID, Label: o.Label, Description: o.Description, BestGuess: i == s.Best() && !s.NeverAssume && !s.NoGuess})
	}
	if previewKinds[s.Kind] {
		e.previews(ctx, req, s, c, now)
	}
	return c
}

// suggestions offers follow-ups from the area of the main table, one from
// another area the query spans, and on an empty answer the relaxed filter
// that would return rows.
func (e *Engine) suggestions(ctx context.Context, lim *understand.ScopeLimit, in *understand.Interpretation, empty bool, now time.Time) []model.Suggestion {
	m := e.src.Model
	q := in.Query
	var out []model.Suggestion
	if empty {
		if s, ok := e.relaxed(ctx, lim, in, now); ok {
			out = append(out, s)
		}
	}
	area := q.Base.Area
	seen := map[string]bool{Normalize(in.Question): true}
	add := func(s *model.Suggestion) bool {
		k := Normalize(s.Prompt)
		if seen[k] {
			return false
		}
		seen[k] = true
		if !e.mayAsk(ctx, lim, s.Prompt, now) {
			return false
		}
		out = append(out, *s)
		return true
	}
	for _, a := range m.Areas {
		if a.Name != area {
			continue
		}
		list := a.Suggestions
		if empty {
			list = append(append([]*model.Suggestion{}, a.Recovery...), a.Suggestions...)
		}
		for _, s := range list {
			if len(out) >= 3 {
				break
			}
			add(s)
		}
	}
	// a cross-area suggestion when the query spans two areas
	for _, en := range touched(q) {
		if en.Area == "" || en.Area == area {
			continue
		}
		for _, a := range m.Areas {
			if a.Name == en.Area && len(a.Suggestions) > 0 {
				add(a.Suggestions[0])
				return out
			}
		}
	}
	if out == nil {
		out = []model.Suggestion{}
	}
	return out
}

// Normalize is the comparison form of a prompt.
func Normalize(s string) string { return strings.Join(strings.Fields(text.Normalize(s)), " ") }

func touched(q *query.Query) []*model.Entity {
	var es []*model.Entity
	for _, f := range q.Filters {
		es = append(es, f.Entity)
	}
	for _, g := range q.Group {
		if g.Entity != nil {
			es = append(es, g.Entity)
		} else if g.Column != nil {
			es = append(es, g.Column.Entity())
		}
	}
	if q.Rank != nil {
		es = append(es, q.Rank.Entity)
	}
	if q.Subject != nil {
		es = append(es, q.Subject)
	}
	return es
}

// mayAsk reports whether a suggested question names no scope value the
// user may not see: a model's suggestion "Plot glucose for John Doe" is
// not shown to a user who may not see John Doe.
func (e *Engine) mayAsk(ctx context.Context, lim *understand.ScopeLimit, prompt string, now time.Time) bool {
	if lim == nil {
		return true
	}
	in, err := e.an.Analyze(ctx, prompt, understand.Settings{Now: now, Scope: lim})
	return err == nil && in.ScopeForbidden == ""
}

// relaxed finds the one filter whose removal gives rows, trying the most
// recently stated first.
func (e *Engine) relaxed(ctx context.Context, lim *understand.ScopeLimit, in *understand.Interpretation, now time.Time) (model.Suggestion, bool) {
	ctx, cancel := context.WithTimeout(ctx, e.opt.SuggestBudget)
	defer cancel()
	q := in.Query
	try := func(q2 query.Query) (int64, bool) {
		sql, args, err := plan.CompileCount(e.src.Model, &q2, e.src.Dialect(), plan.Options{Now: now})
		if err != nil {
			return 0, false
		}
		r, err := e.run(ctx, lim, &q2, sql, args, 1)
		if err != nil || len(r.Rows) != 1 {
			return 0, false
		}
		n, _ := r.Rows[0][0].(int64)
		return n, n > 0
	}
	if q.Window != nil {
		q2 := *q
		q2.Window = nil
		if n, ok := try(q2); ok {
			return model.Suggestion{Title: fmt.Sprintf("For all time instead of %s (%d rows)", q.Window.Window.Label, n), Prompt: in.Question + " for all time"}, true
		}
	}
	for i := len(q.Filters) - 1; i >= 0; i-- {
		f := q.Filters[i]
		q2 := *q
		q2.Filters = append(append([]query.Filter{}, q.Filters[:i]...), q.Filters[i+1:]...)
		if n, ok := try(q2); ok {
			prompt := in.Question
			if f.End > f.Start && f.End <= len(prompt) {
				prompt = strings.Join(strings.Fields(prompt[:f.Start]+" "+prompt[f.End:]), " ")
			}
			return model.Suggestion{Title: fmt.Sprintf("Without %q (%d rows)", f.Label, n), Prompt: prompt}, true
		}
	}
	return model.Suggestion{}, false
}

// Now returns the engine's clock.
func (e *Engine) Now() time.Time { return e.opt.Now() }

// forbidden is the refusal of a scope value the user may not see. It says
// nothing of whether that value exists.
func forbidden(m *model.Model) error {
	return &apperr.Error{Code: apperr.CodeScopeForbidden, Message: "you may not see this " + scopeNoun(m) + "'s data"}
}

// scopeNoun names one value of the model's scope: "patient".
func scopeNoun(m *model.Model) string {
	if m.Scope != nil {
		if se := m.Entity(m.Scope.Entity); se != nil {
			return se.Singular()
		}
	}
	return "record"
}

// WarmValues waits until the stored values of every column the
// understanding reads values from are loaded (a cold source answers at
// once from what it has, while they load in the background). For runs
// whose results must not depend on how fast the cache fills: evaluation.
func (e *Engine) WarmValues(ctx context.Context) error {
	cat := e.src.Catalog()
	for _, c := range understand.StoredValueColumns(e.src.Model) {
		if _, _, err := cat.CountedValues(ctx, c); err != nil {
			return fmt.Errorf("load the values of %s.%s: %w", c.Entity().Name, c.Name, err)
		}
	}
	return nil
}
