package conversation

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/understand"
)

var stepLabels = map[string]string{
	"understand": "Linking words to tables and values",
	"route":      "Checking for ambiguity",
	"plan":       "Writing the SQL",
	"execute":    "Running the SQL",
	"model":      "Asking the language model",
	// the language model's tools (engine llm)
	"tool:search_values": "The model is searching stored values",
	"tool:describe":      "The model is reading a table's description",
	"tool:run_sql":       "Running the model's SQL through the guard",
	"tool:ask_user":      "The model has a question",
	"tool:final_answer":  "Running the model's answer through the guard",
	"tool:unknown":       "The model asked for a tool that does not exist",
}

// turn runs the engine on the conversation's question with the answers
// given so far and the user's learned preferences, streams its events, and
// saves the outcome with its query log and audit records, releasing the
// lease in the same write. The caller holds the conversation's lease (l);
// the returned events — the outcome's, ending with "done" (or an
// "interrupted" event) — are saved but not yet published: the caller
// publishes them together once the lease is released, so none of an
// answer is shown that the audit log does not hold, and a client that
// answers as soon as it sees "done" never finds the conversation busy.
func (s *Service) turn(ctx context.Context, c *store.Conversation, st *state, l *turnLease, emit Emit, answerNow bool) (*Result, []store.Event, error) {
	eng, err := s.engines.Engine(ctx, c.Source)
	if err != nil {
		return nil, nil, sourceError(c.Source, err)
	}
	// rights are read at every turn: a grant withdrawn since the last one
	// holds at once
	lim, err := s.scopeLimit(ctx, c, eng)
	if err != nil {
		// a refusal of rights is recorded like any other outcome
		return nil, nil, s.auditTurn(ctx, c, st, nil, err, s.opt.Clock().UTC())
	}
	start := time.Now()
	interactive := c.Interactive && !answerNow
	// the user's switch and preferences, in one read
	user, err := s.st.Learned(ctx, c.UserID, c.Source)
	if err != nil {
		s.opt.Log.Warn("read preferences", "err", err)
	}
	if user.NeverAsk {
		interactive = false
	}
	resolved, learned := s.learned(st, user.Preferences)
	var events []store.Event
	add := func(typ string, data any) {
		ev := s.event(st, c.ID, typ, data)
		events = append(events, ev)
		s.publish(emit, ev)
	}
	req := engine.Request{Question: c.Question, Resolved: resolved, Rounds: st.Rounds, Interactive: interactive, AskScope: st.AskScope && !answerNow, Scope: lim, Engine: st.Engine,
		Progress: func(step string, took time.Duration) {
			add("step", map[string]any{"step": step, "label": stepLabels[step], "ms": float64(took.Microseconds()) / 1000})
		},
		// the language model's words, as they stream (engine llm)
		Text: func(chunk string) { add("text", map[string]any{"delta": chunk}) }}
	out, err := eng.Turn(source.WithUser(ctx, c.UserID), req) // the source shares its capacity fairly between users
	if leaseLost(ctx) {
		// another instance took the turn over and saves its outcome:
		// anything saved here would only conflict with it
		return nil, nil, &apperr.Error{Code: apperr.CodeSessionBusy, Message: "another instance took this turn over; follow the conversation for its outcome", Err: errLeaseLost}
	}
	if err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		// the client went away: the turn stays without an outcome (a
		// follower resumes it), but the events already sent are kept
		// with an "interrupted" mark, so no event id is ever reused; it
		// has no outcome to audit
		if ev := s.interrupted(ctx, c, st, l, events); ev != nil {
			return nil, []store.Event{*ev}, err
		}
		return nil, nil, err
	}
	now := s.opt.Clock().UTC()
	c.UpdatedAt = now
	audit, err := s.auditRecord(ctx, c, st, out, err, now)
	// what the outcome changes, kept to build it again should its audit
	// record fail
	keptC, keptSt, shown := *c, *st, len(events)
	o, err := s.outcome(c, st, out, err, now, learned, events)
	if err != nil {
		return nil, nil, err
	}
	o.rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	// persist in a context that survives a client going away mid-save
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err = l.save(pctx, s.st, store.Save{Conversation: c, Events: o.events, Query: &o.rec, Audit: audit})
	if err != nil && audit != nil {
		// the statement ran: it is recorded even when its outcome cannot
		// be saved
		aerr := s.st.AppendAudit(pctx, *audit)
		if aerr != nil {
			s.opt.Log.Warn("append audit record", "conversation", c.ID, "outcome", audit.Outcome, "err", aerr)
		}
		if aerr != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
			// the audit log is what failed, perhaps: an answer it does
			// not hold is not shown, the turn fails instead; another
			// outcome is saved without its record
			if audit.Outcome == store.AuditAnswered {
				*c, *st = keptC, keptSt
				if o, err = s.outcome(c, st, nil, errUnaudited(aerr), now, learned, events[:shown]); err != nil {
					return nil, nil, err
				}
				o.rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
			}
			err = l.save(pctx, s.st, store.Save{Conversation: c, Events: o.events, Query: &o.rec})
		}
	}
	if errors.Is(err, store.ErrConflict) {
		return nil, nil, apperr.Errorf(apperr.CodeSessionBusy, "the conversation changed while this request ran; try again")
	}
	if err != nil {
		return nil, nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not save the conversation", Err: err}
	}
	return o.res, o.events[shown:], nil
}

// outcome is what a turn came to, ready to save.
type outcome struct {
	res *Result
	// events are the turn's events: those streamed while it ran, then
	// the outcome's, then "done".
	events []store.Event
	rec    store.QueryRecord
}

// outcome applies the engine's outcome (out, or err) to the conversation:
// its status, turns and last result, with its events after those of
// progress (shown) and its query log record. It returns an error only when
// the conversation cannot be encoded.
func (s *Service) outcome(c *store.Conversation, st *state, out *engine.Outcome, err error, now time.Time, learned map[string]bool, shown []store.Event) (outcome, error) {
	o := outcome{res: &Result{ConversationID: c.ID}, events: slices.Clip(shown)}
	add := func(typ string, data any) { o.events = append(o.events, s.event(st, c.ID, typ, data)) }
	res, rec := o.res, &o.rec
	*rec = store.QueryRecord{ConversationID: c.ID, UserID: c.UserID, Source: c.Source, Question: c.Question,
		Turns: len(st.Turns), Clarifications: st.Asked, At: now}
	if err == nil && out != nil {
		rec.Unknown = out.Understood.Unknown
	}
	switch {
	case err != nil:
		code, msg := apperr.CodeOf(err), apperr.MessageOf(err)
		if code == "" {
			// a failure nobody classified (those that are INTERNAL were
			// logged where they happened): the log has the cause, the
			// user a message that carries none of it
			s.opt.Log.Error("turn failed", "conversation", c.ID, "err", err)
			code, msg = apperr.CodeInternal, internalMessage
		}
		var uw *engine.UnknownWords
		if errors.As(err, &uw) {
			rec.Unknown = uw.Words // the words of an unanswerable question, for model review
		}
		res.Status = "failed"
		res.Error = &ErrorBody{Code: code, Message: msg}
		add("error", res.Error)
		c.Status = store.StatusFailed
		st.Turns = append(st.Turns, Turn{At: now, Role: "assistant", Kind: "error", Text: msg})
		rec.Status, rec.ErrorCode = "failed", string(code)
	case out.Status == engine.StatusNeedsQuestion:
		res.Status = out.Status
		res.Clarification = out.Clarification
		u := out.Understood
		res.Understood = &u
		res.Assumptions = out.Assumptions
		add("assumptions", out.Assumptions)
		add("clarification", out.Clarification)
		c.Status = store.StatusAwaiting
		c.ExpiresAt = now.Add(s.opt.TTL)
		st.Pending = out.Clarification
		st.Asked++
		rec.Clarifications = st.Asked
		st.Turns = append(st.Turns, Turn{At: now, Role: "assistant", Kind: "clarification", Text: out.Clarification.Question})
		rec.Status = out.Status
	default:
		a := out.Answer
		markLearned(a, learned)
		res.Status = out.Status
		res.Answer = a
		add("text", map[string]string{"text": a.Statement})
		add("assumptions", a.Assumptions)
		add("sql", map[string]any{"sql": a.SQL, "params": a.Params, "dialect": a.Dialect})
		add("chart", a.Chart)
		add("suggestions", a.Suggestions)
		add("result", a)
		st.LastAnswer = &answerRef{Seq: st.LastSeq, Statement: a.Statement}
		c.Status = store.StatusAnswered
		st.Pending = nil
		st.Turns = append(st.Turns, Turn{At: now, Role: "assistant", Kind: "answer", Text: a.Statement})
		rec.Status, rec.SQL, rec.Rows, rec.Assumptions = out.Status, a.SQL, a.RowCount, len(a.Assumptions)
	}
	if res.Answer == nil {
		st.LastAnswer = nil
	}
	st.AnswerNow = false
	add("done", map[string]string{"status": res.Status})
	last := *res
	last.Answer = nil // kept in the "result" event (st.LastAnswer)
	st.Last = &last
	return o, s.save(c, st)
}

// interrupted saves the events of a cancelled turn and an "interrupted"
// event, which it returns for finish to publish once the lease is free;
// the conversation stays active.
func (s *Service) interrupted(ctx context.Context, c *store.Conversation, st *state, l *turnLease, events []store.Event) *store.Event {
	ev := s.event(st, c.ID, "interrupted", map[string]string{"reason": "the turn stopped when its client disconnected; it runs again when the conversation is followed"})
	events = append(events, ev)
	if err := s.save(c, st); err != nil {
		s.opt.Log.Warn("save interrupted turn", "conversation", c.ID, "err", err)
		return nil
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := l.save(pctx, s.st, store.Save{Conversation: c, Events: events}); err != nil {
		s.opt.Log.Warn("save interrupted turn", "conversation", c.ID, "err", err)
		return nil
	}
	return &ev
}

// finish runs a turn under the lease (renewed while it runs), releases the
// lease (with the turn's outcome when it is saved), then publishes the
// turn's outcome.
func (s *Service) finish(ctx context.Context, c *store.Conversation, st *state, owner string, emit Emit, answerNow bool) (*Result, error) {
	var (
		res *Result
		out []store.Event
		err error
		l   = &turnLease{owner: owner}
	)
	s.underLease(ctx, c.ID, owner, func(ctx context.Context, stop func()) {
		l.stop = stop
		res, out, err = s.turn(ctx, c, st, l, emit, answerNow)
	})
	if !l.released {
		s.unlock(c.ID, owner)
	}
	s.publish(emit, out...)
	return res, err
}

// turnLease is the lease a turn runs under, which the write of its
// outcome releases.
type turnLease struct {
	owner string
	// stop stops the heartbeat that renews the lease.
	stop func()
	// released: the lease was released with the outcome.
	released bool
}

// save writes w and releases the lease in the same transaction, once the
// heartbeat has stopped (a renewal after the release would take the turn
// for lost).
func (l *turnLease) save(ctx context.Context, st store.Store, w store.Save) error {
	l.stop()
	w.Unlock = l.owner
	if _, err := st.SaveConversation(ctx, w); err != nil {
		return err
	}
	l.released = true
	return nil
}

// learned merges the user's learned preferences (prefs, of the
// conversation's source) under the conversation's own answers: a
// remembered choice, or the same answer given three times, is applied
// (method preference, shown as "your usual choice"). Scope is never
// learned.
func (s *Service) learned(st *state, prefs []store.Preference) (map[string]understand.Resolution, map[string]bool) {
	res := make(map[string]understand.Resolution, len(st.Resolved))
	for k, r := range st.Resolved {
		res[k] = r.understand()
	}
	learned := map[string]bool{}
	for _, p := range prefs {
		if _, done := res[p.Slot]; done || p.Slot == "scope" || !p.Remember && p.Count < minRepeats {
			continue
		}
		r := understand.Resolution{Method: understand.MethodPreference, Confidence: 0.9}
		if v, ok := strings.CutPrefix(p.Value, "opt:"); ok {
			r.OptionID = v
		} else {
			r.FreeText = strings.TrimPrefix(p.Value, "text:")
		}
		res[p.Slot] = r
		learned[p.Slot] = true
	}
	return res, learned
}

// markLearned explains assumptions that came from the user's preferences.
func markLearned(a *engine.Answer, learned map[string]bool) {
	for i := range a.Assumptions {
		if learned[a.Assumptions[i].Slot] {
			a.Assumptions[i].Method = "preference"
			a.Assumptions[i].Why = "your usual choice"
		}
	}
}

// scopeLimit resolves the conversation user's rights on its source: an
// error when they may not use it, nil when they may see every scope value,
// else the values they may see (perhaps none).
func (s *Service) scopeLimit(ctx context.Context, c *store.Conversation, eng *engine.Engine) (*understand.ScopeLimit, error) {
	who := access.WhoFrom(ctx, c.UserID)
	if !s.opt.Access.MaySee(who, c.Source) {
		return nil, forbiddenSource(c.Source)
	}
	if eng.Source().Model.Scope == nil {
		return nil, nil
	}
	keys, all, err := s.opt.Access.Scope(ctx, who, c.Source, eng.Source())
	if err != nil {
		s.opt.Log.Error("rights unavailable", "user", c.UserID, "source", c.Source, "err", err)
		return nil, &apperr.Error{Code: apperr.CodeSourceUnavailable, Message: "your rights on this source could not be read; try again later", Err: err}
	}
	if all {
		return nil, nil
	}
	return understand.NewScopeLimit(keys), nil
}
