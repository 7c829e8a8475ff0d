package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llmreply"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/sqlfmt"
	"github.com/clarify-sql/clarify/internal/understand"
)

// Engines a turn can be answered by (Request.Engine, Options.Engine).
const (
	// EngineRules answers from the semantic model alone, offline.
	EngineRules = "rules"
	// EngineLLM asks a language model for SQL or a question; its SQL runs
	// only as the guard's checked copy.
	EngineLLM = "llm"
	// EngineHybrid runs the rules first and asks the model only when they
	// cannot link the question or build a plan for it (consult).
	EngineHybrid = "hybrid"
)

// KindLLM is the kind of a clarification the model asked.
const KindLLM = "llm"

// llmSlotPrefix starts the slot key of a model's clarification; the rest
// is the question's comparison form, so the same question keeps its key.
const llmSlotPrefix = "llm:"

// maxSlotKey bounds a model slot's key, in bytes.
const maxSlotKey = 120

// CheckEngine reports whether a turn may use the named engine ("" for the
// source's own): a BAD_REQUEST error for an unknown name, or for llm and
// hybrid when no model endpoint is configured.
func (e *Engine) CheckEngine(name string) error {
	_, err := e.engineFor(name)
	return err
}

// engineFor resolves the engine of a turn.
func (e *Engine) engineFor(name string) (string, error) {
	if name == "" {
		name = e.opt.Engine
	}
	switch name {
	case "", EngineRules:
		return EngineRules, nil
	case EngineLLM, EngineHybrid:
		if e.opt.LLM == nil {
			return "", &apperr.Error{Code: apperr.CodeBadRequest, Message: fmt.Sprintf("the %s engine needs a language model endpoint: set %s and %s (and %s when the endpoint needs a key), or llm: in the source's config",
				name, llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey)}
		}
		return name, nil
	}
	return "", &apperr.Error{Code: apperr.CodeBadRequest, Message: fmt.Sprintf("unknown engine %q: use rules, llm or hybrid", name)}
}

// ModelCalls is how many calls the engine has made to its language model
// (0 without one), for the evaluation's count of cases that called it.
func (e *Engine) ModelCalls() int64 {
	if e.opt.LLM == nil {
		return 0
	}
	return e.opt.LLM.Stats().Calls
}

// ModelStats returns the running totals of the engine's language model
// client, for the server's metrics; false without a model.
func (e *Engine) ModelStats() (llm.Snapshot, bool) {
	if e.opt.LLM == nil {
		return llm.Snapshot{}, false
	}
	return e.opt.LLM.Stats(), true
}

// consult decides, from the rules' turn, whether a hybrid turn asks the
// model: when content words stayed unlinked, or no plan could be built
// (UNANSWERABLE: nothing linked as a base, a question that names nothing
// the data holds, a compile failure). An answer or a clarification with
// every word linked is the rules' to give; other failures (scope, rights,
// the database) are not the model's to mend.
func consult(out *Outcome, err error) bool {
	if err != nil {
		return apperr.CodeOf(err) == apperr.CodeUnanswerable
	}
	return out != nil && len(out.Understood.Unknown) > 0
}

// hybridTurn runs the rules and, when consult says so, the model. When the
// rules had an outcome and the model does not do better — it finds the
// question unanswerable, or cannot be reached — the rules' outcome stands.
func (e *Engine) hybridTurn(ctx context.Context, req Request) (*Outcome, error) {
	out, err := e.rulesTurn(ctx, req)
	if !consult(out, err) {
		return out, err
	}
	mout, merr := e.llmTurn(ctx, req)
	if merr == nil {
		return mout, nil
	}
	// a model that declines or fails leaves the rules' outcome: their
	// answer, their question, or their refusal, which says what in the
	// question could not be read ("cannot group languages by country")
	// better than a model's "I cannot answer questions about this data"
	if c := apperr.CodeOf(merr); c == apperr.CodeUnanswerable || c == apperr.CodeLLM {
		if c == apperr.CodeLLM {
			e.opt.Log.Warn("hybrid: the model failed, the rules' outcome stands", "source", e.src.Name, "err", merr)
		}
		return out, err
	}
	return mout, merr
}

// llmTurn answers a turn with the language model (the dual-mode reply):
// the rules' interpretation supplies the scope, the linked entities and a
// summary; the model replies with SQL, a question or a refusal.
func (e *Engine) llmTurn(ctx context.Context, req Request) (*Outcome, error) {
	start := time.Now()
	now := e.opt.Now()
	m := e.src.Model
	in, err := e.an.Analyze(ctx, req.Question, understand.Settings{Now: now, Resolved: req.Resolved, Scope: req.Scope})
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeBadRequest, Message: err.Error(), Err: err}
	}
	if in.ScopeForbidden != "" {
		return nil, forbidden(m)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tUnderstand := time.Since(start)
	req.progress("understand", tUnderstand)
	out := &Outcome{Interpretation: in, Understood: understood(in), Question: req.Question, Assumptions: []clarify.Assumption{}, Engine: EngineLLM}
	// scope first, exactly as the rules ask it: never the model's to choose
	if ask, err := e.scopeFirst(in, req); err != nil {
		return nil, err
	} else if ask != nil {
		out.Engine = EngineRules
		out.Status = StatusNeedsQuestion
		out.Slot = ask
		out.Clarification = e.clarification(ctx, req, ask, now)
		return out, nil
	}
	var q *query.Query
	if in.Query != nil && in.Query.Scope != nil {
		q = &query.Query{Scope: in.Query.Scope}
	}
	vals := e.valuesFor(ctx)
	lreq := llmreply.Request{Question: req.Question, Dialect: string(e.src.Dialect()), Linked: linkedEntities(in),
		Interpretation: summary(in), Confirmed: confirmed(in, req.Resolved), Values: vals}
	if q != nil {
		lreq.Scope = q.Scope.Label
		if lreq.Scope == "" {
			lreq.Scope = q.Scope.Key
		}
	}
	t1 := time.Now()
	var (
		reply   llmreply.Reply
		cost    modelCost
		done    *ranSQL // a statement the tool loop already ran through the guard
		guessed []clarify.Assumption
	)
	// at most two rounds: a question nobody can answer, or a value the
	// data does not hold, is settled by the model's best guess and asked
	// once more
	for round := 0; ; round++ {
		var c modelCost
		reply, done, c, err = e.modelReply(ctx, req, q, lreq, vals)
		cost.latency += c.latency
		cost.tokens += c.tokens
		if err != nil {
			req.progress("model", time.Since(t1))
			return nil, err
		}
		ask := reply.Clarification
		answers := reply.Kind == llmreply.KindSQL || reply.Kind == llmreply.KindPlan
		if answers {
			ask = valueQuestion(m, reply.Values, req.Resolved)
		}
		if ask == nil || (answers && round > 0) {
			break
		}
		if req.Interactive {
			reply = llmreply.Reply{Kind: llmreply.KindClarification, Clarification: ask}
			break
		}
		if round > 0 {
			// asked again after its best guess, it still asks
			req.progress("model", time.Since(t1))
			return nil, &apperr.Error{Code: apperr.CodeUnanswerable, Message: "the model would need to ask: " + ask.Question, Err: withUnknown(in, nil)}
		}
		// nobody can answer: the model goes on with its own best guess,
		// which the answer shows as an assumption
		best := ask.Options[ask.Best()].Label
		if lreq.Confirmed == nil {
			lreq.Confirmed = map[string]string{}
		}
		lreq.Confirmed[ask.Question] = best + " (your own best guess: the user cannot be asked)"
		guessed = append(guessed, bestGuess(ask))
	}
	tModel := time.Since(t1)
	req.progress("model", tModel)
	switch reply.Kind {
	case llmreply.KindUnanswerable:
		msg := "the model found that the data cannot answer this question"
		if reply.Reason != "" {
			msg += ": " + reply.Reason
		}
		return nil, &apperr.Error{Code: apperr.CodeUnanswerable, Message: msg, Err: withUnknown(in, nil)}
	case llmreply.KindClarification:
		s, c := llmClarification(req, reply.Clarification)
		out.Status = StatusNeedsQuestion
		out.Slot = s
		out.Clarification = c
		return out, nil
	}
	as := append(guessed, reply.Assumptions...)
	for _, v := range reply.Values {
		as = append(as, v.Assumption())
	}
	out.Assumptions = as
	if reply.Kind == llmreply.KindPlan {
		ans, err := e.answerPlan(ctx, req, q, reply, as)
		if err != nil {
			return nil, err
		}
		ans.Warnings = in.Warnings
		ans.TimingsMS["understand"] = ms(tUnderstand)
		ans.TimingsMS["llm"] = ms(cost.latency)
		ans.TimingsMS["llm_tokens"] = float64(cost.tokens)
		ans.TimingsMS["total"] = ms(time.Since(start))
		out.Status = StatusAnswered
		out.Answer = ans
		return out, nil
	}
	// KindSQL: the model's statement is data until the guard has checked it
	t2 := time.Now()
	if done == nil {
		res, st, err := e.runFinal(ctx, req, q, reply.SQL)
		if err != nil {
			return nil, err
		}
		done = &ranSQL{res: res, st: st}
	}
	res, ran := done.res, done.st
	tExec := time.Since(t2)
	req.progress("execute", tExec)
	ans := &Answer{
		Statement: fmt.Sprintf("Written by the language model (%s) and checked by the guard: %d row(s).", e.opt.LLM.Model(), len(res.Rows)),
		SQL:       reply.SQL, SQLFormatted: sqlfmt.Format(reply.SQL), Params: []any{}, Dialect: string(e.src.Dialect()),
		Columns: resultColumns(res.Columns), Rows: res.Rows, RowCount: len(res.Rows), Truncated: res.Truncated,
		Chart:       plan.Chart{Type: "none"}, // chart choices are declarative: none is made for the model's SQL yet
		Assumptions: as, OpenQuestions: []clarify.Assumption{}, Suggestions: []model.Suggestion{}, Warnings: in.Warnings,
		Engine: EngineLLM,
	}
	ans.Ran = *ran
	if ans.Rows == nil {
		ans.Rows = [][]any{}
	}
	ans.TimingsMS = map[string]float64{"understand": ms(tUnderstand), "llm": ms(cost.latency), "llm_tokens": float64(cost.tokens),
		"execute": ms(tExec), "total": ms(time.Since(start))}
	out.Status = StatusAnswered
	out.Answer = ans
	return out, nil
}

// modelReply asks the model for the turn's reply: through the tool loop
// for engine llm when the endpoint takes tools, else in one dual-mode call.
func (e *Engine) modelReply(ctx context.Context, req Request, q *query.Query, lreq llmreply.Request, vals llmreply.Values) (llmreply.Reply, *ranSQL, modelCost, error) {
	if e.usesTools(req) {
		reply, done, cost, err := e.toolLoop(ctx, req, q, lreq, vals)
		if !errors.Is(err, errNoTools) {
			return reply, done, cost, err
		}
		reply, dc, err := e.ask(ctx, lreq, vals)
		dc.latency += cost.latency
		dc.tokens += cost.tokens
		return reply, nil, dc, err
	}
	reply, cost, err := e.ask(ctx, lreq, vals)
	return reply, nil, cost, err
}

// valueQuestion is the question a model's statement raises when it
// compares a column with a value the data does not hold and the data has
// values it may have meant (an invalid value has confidence 0.3): "Which analyte did
// you mean by "vitamin d"?", the values as options, the closest the best
// guess. A value the user already chose (the question is resolved) or one
// with nothing close is not asked: it stays an assumption the answer shows.
func valueQuestion(m *model.Model, vals []llmreply.Value, resolved map[string]understand.Resolution) *llmreply.Clarification {
	for _, v := range vals {
		if v.Valid || len(v.Alternatives) == 0 {
			continue
		}
		noun := v.Column
		if ent, col, ok := strings.Cut(v.Column, "."); ok {
			noun = col
			if e := m.Entity(ent); e != nil {
				if c := e.Column(col); c != nil {
					noun = strings.ToLower(c.Title())
				}
			}
		}
		c := &llmreply.Clarification{Question: fmt.Sprintf("Which %s did you mean by %q?", noun, v.Literal)}
		if _, done := resolved[slotKey(c.Question)]; done {
			continue
		}
		for i, alt := range v.Alternatives {
			c.Options = append(c.Options, llmreply.Option{Label: alt, BestGuess: i == 0, Grounded: true})
		}
		if len(c.Options) < llmreply.MinOptions {
			c.Options = append(c.Options, llmreply.Option{Label: fmt.Sprintf("%q as written", v.Literal), Description: "no stored value is written this way", Grounded: true})
		}
		return c
	}
	return nil
}

// bestGuess is the assumption a question nobody could answer leaves: the
// model went on with the option it would have picked.
func bestGuess(c *llmreply.Clarification) clarify.Assumption {
	a := clarify.Assumption{Slot: slotKey(c.Question), Kind: KindLLM, Text: c.Question, Chosen: c.Options[c.Best()].Label,
		Method: "best_guess", Confidence: llmreply.InvalidValue, Why: "nobody could be asked: the model's best guess"}
	for i, o := range c.Options {
		if i != c.Best() {
			a.Alternatives = append(a.Alternatives, clarify.Alternative{ID: fmt.Sprintf("o%d", i+1), Label: o.Label})
		}
	}
	return a
}

// slotKey is the slot key of a model's question: the same question keeps
// its key.
func slotKey(question string) string {
	key := llmSlotPrefix + Normalize(question)
	if len(key) > maxSlotKey {
		key = strings.ToValidUTF8(key[:maxSlotKey], "")
	}
	return key
}

// scopeFirst returns the scope question to ask before the model is called
// (nil when the scope is resolved or the model has none), or SCOPE_REQUIRED
// when it is missing and cannot be asked: the rules' routing of the
// interpretation's scope slots alone.
func (e *Engine) scopeFirst(in *understand.Interpretation, req Request) (*understand.Slot, error) {
	only := &understand.Interpretation{}
	for _, s := range in.Slots {
		if s.Kind == understand.KindScope {
			only.Slots = append(only.Slots, s)
		}
	}
	if len(only.Slots) == 0 {
		return nil, nil
	}
	d := clarify.Route(only, clarify.Policy{Interactive: req.Interactive, Rounds: req.Rounds, MaxRounds: e.src.Model.Policies.MaxRounds})
	if d.Ask != nil {
		return d.Ask, nil
	}
	if d.ScopeMissing != nil {
		if req.AskScope {
			return d.ScopeMissing, nil
		}
		return nil, &apperr.Error{Code: apperr.CodeScopeRequired, Message: fmt.Sprintf("the question must name which %s it is about (%s)", strings.TrimPrefix(d.ScopeMissing.Text, "which "), d.ScopeMissing.Context), Err: withUnknown(in, nil)}
	}
	return nil, nil
}

// scopedEnough refuses, on a scoped model, a model's statement that reads
// scoped tables when the turn names no scope value and no limit applies:
// the rules would have asked whose data it is, and the guard checks an
// unscoped turn without limiting it.
func (e *Engine) scopedEnough(q *query.Query, lim *understand.ScopeLimit, sql string, args []any) error {
	if e.src.Model.Scope == nil || lim != nil || q != nil {
		return nil
	}
	_, err := e.guard.Check(sql, args, &guard.Scope{None: true})
	if ge, ok := guard.IsRejection(err); ok && ge.Code == apperr.CodeScopeViolation {
		return &apperr.Error{Code: apperr.CodeScopeRequired, Message: "the statement reads " + scopeNoun(e.src.Model) + " data: the question must name which " + scopeNoun(e.src.Model) + " it is about", Err: err}
	}
	return nil // other refusals are runChecked's to report
}

// modelCost is what the calls of one turn cost.
type modelCost struct {
	latency time.Duration
	tokens  int
}

// ask sends the dual-mode request and reads the reply, asking once more
// with the parse error's hint when the first reply cannot be used.
func (e *Engine) ask(ctx context.Context, lreq llmreply.Request, vals llmreply.Values) (llmreply.Reply, modelCost, error) {
	var cost modelCost
	msgs := llmreply.Context(e.src.Model, lreq)
	conv := []llm.Message{{Role: llm.RoleSystem, Content: msgs.System}, {Role: llm.RoleUser, Content: msgs.User}}
	var lastErr error
	for try := 0; try < 2; try++ {
		resp, err := e.chat(ctx, conv, msgs)
		cost.latency += resp.Latency
		cost.tokens += resp.Usage.TotalTokens
		if err != nil {
			return llmreply.Reply{}, cost, llmError(err)
		}
		raw := resp.Content
		if raw == "" && resp.Refusal != "" {
			raw = resp.Refusal
		}
		reply, err := llmreply.ParseWith(raw, e.src.Model, vals)
		if err == nil {
			return reply, cost, nil
		}
		var pe *llmreply.Error
		if !errors.As(err, &pe) {
			return llmreply.Reply{}, cost, &apperr.Error{Code: apperr.CodeUnanswerable, Message: "the model's reply could not be used", Err: err}
		}
		lastErr = err
		conv = append(conv, llm.Message{Role: llm.RoleAssistant, Content: raw}, llm.Message{Role: llm.RoleUser, Content: pe.Hint()})
	}
	return llmreply.Reply{}, cost, &apperr.Error{Code: apperr.CodeUnanswerable, Message: "the model's reply could not be used, twice", Err: lastErr}
}

// chat makes one call, asking for the reply's JSON schema and falling back
// to JSON mode, then plain text, when the endpoint does not support it; the
// format that worked is remembered for the next turns.
func (e *Engine) chat(ctx context.Context, conv []llm.Message, msgs llmreply.Messages) (llm.Response, error) {
	formats := []llm.Format{
		{Type: llm.FormatJSONSchema, Name: msgs.SchemaName, Schema: msgs.Schema, Strict: true},
		{Type: llm.FormatJSONObject},
		{Type: llm.FormatText},
	}
	var total time.Duration
	for i := int(e.format.Load()); i < len(formats); i++ {
		resp, err := e.opt.LLM.Chat(ctx, llm.Request{Messages: conv, Format: formats[i]})
		total += resp.Latency
		if errors.Is(err, llm.ErrUnsupported) && i+1 < len(formats) {
			e.format.CompareAndSwap(int32(i), int32(i+1))
			continue
		}
		resp.Latency = total
		return resp, err
	}
	return llm.Response{}, &llm.Error{Kind: llm.ErrUnsupported, Op: "chat"}
}

// llmError turns a failed call into LLM_ERROR with a message safe to show
// (the client's errors hold no key and at most a short excerpt); the
// caller's own cancellation passes through.
func llmError(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	msg := "the language model could not answer"
	var le *llm.Error
	if errors.As(err, &le) {
		msg += ": " + le.Kind.Error()
		if le.Status != 0 {
			msg += fmt.Sprintf(" (HTTP %d)", le.Status)
		}
	}
	return &apperr.Error{Code: apperr.CodeLLM, Message: msg, Err: err}
}

// llmClarification turns the model's normalised question into a slot (for
// the caller to store the answer under) and a card: options o1…o4, the
// best guess marked, a slot key stable for the same question.
func llmClarification(req Request, c *llmreply.Clarification) (*understand.Slot, *Clarification) {
	key := slotKey(c.Question)
	s := &understand.Slot{Key: key, Kind: KindLLM, Priority: understand.Important, Text: c.Question, Chosen: c.Best(), Ask: true}
	card := &Clarification{ID: ClarificationID(req.Question, key, req.Rounds), Kind: KindLLM, Slot: key, Priority: understand.Important,
		Question: c.Question, AllowSkip: true, AllowFreeText: true}
	for i, o := range c.Options {
		id := fmt.Sprintf("o%d", i+1)
		s.Options = append(s.Options, &understand.Option{ID: id, Label: o.Label, Description: o.Description, BestGuess: o.BestGuess})
		card.Options = append(card.Options, Option{ID: id, Label: o.Label, Description: o.Description, BestGuess: i == c.Best()})
	}
	return s, card
}

// Resolve completes a user's answer to a slot: the answer to a model's
// question carries the chosen option's label, since the next turn tells
// the model what was chosen in words. Other answers are returned as they
// are.
func Resolve(s *understand.Slot, r understand.Resolution) understand.Resolution {
	if s == nil || s.Kind != KindLLM || r.OptionID == "" || r.FreeText != "" {
		return r
	}
	for _, o := range s.Options {
		if o.ID == r.OptionID {
			r.FreeText = o.Label
		}
	}
	return r
}

// confirmed lists the user's choices for the model: the answers to the
// model's own questions (by question) and the rules' slots the user chose
// (by the words they are about).
func confirmed(in *understand.Interpretation, res map[string]understand.Resolution) map[string]string {
	out := map[string]string{}
	for k, r := range res {
		q, ok := strings.CutPrefix(k, llmSlotPrefix)
		if !ok {
			continue
		}
		switch {
		case r.Skipped:
			out[q] = "no preference: choose the most likely meaning and state it as an assumption"
		case r.FreeText != "":
			out[q] = r.FreeText
		}
	}
	for _, s := range in.Slots {
		if s.Method == understand.MethodUser && s.Chosen >= 0 && s.Chosen < len(s.Options) && s.Kind != understand.KindScope {
			out[s.Text] = s.Options[s.Chosen].Label
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// linkedEntities names the entities the interpretation linked, main first.
func linkedEntities(in *understand.Interpretation) []string {
	var out []string
	seen := map[string]bool{}
	add := func(e *model.Entity) {
		if e != nil && !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	add(in.Subject)
	if q := in.Query; q != nil {
		add(q.Base)
		for _, e := range touched(q) {
			add(e)
		}
	}
	return out
}

// summary says in a few words what the rules understood.
func summary(in *understand.Interpretation) string {
	var parts []string
	if in.Intent != "" {
		parts = append(parts, "intent "+string(in.Intent))
	}
	if in.Subject != nil {
		parts = append(parts, "about "+in.Subject.PluralLabel())
	}
	if len(in.Linked) > 0 {
		parts = append(parts, "linked words: "+strings.Join(in.Linked, ", "))
	}
	if len(in.Unknown) > 0 {
		parts = append(parts, "words not linked to the data: "+strings.Join(in.Unknown, ", "))
	}
	return strings.Join(parts, "; ")
}

// valuesFor gives the model path the catalog's values of categorical
// columns the database supplies (never names: the people behind a scope
// are not the model's to read).
func (e *Engine) valuesFor(ctx context.Context) llmreply.Values {
	cat := e.src.Catalog()
	return llmreply.ValuesFunc(func(c *model.Column) ([]string, bool) {
		if c.Role != model.RoleDimension || !c.FromDatabase() {
			return nil, false
		}
		vs, err := cat.Values(ctx, c)
		return vs, err == nil && len(vs) > 0
	})
}

// resultColumns describes a result's columns for the answer (the model's
// statement has no plan to label them).
func resultColumns(names []string) []plan.Column {
	cols := make([]plan.Column, len(names))
	for i, n := range names {
		cols[i] = plan.Column{Name: n, Label: n}
	}
	return cols
}
