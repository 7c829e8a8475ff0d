package conversation

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/understand"
)

// Engines gives the engine of a source (package registry).
type Engines interface {
	// Engine returns the engine of a source. For a name that is not
	// configured its error has a method UnknownSource() bool returning
	// true; any other error means the source cannot be opened now.
	Engine(ctx context.Context, source string) (*engine.Engine, error)
	Default() string
}

// Options tune the service; the zero value means defaults.
type Options struct {
	// TTL of an unanswered clarification (default 24h).
	TTL time.Duration
	// MessageLimit per conversation (default 20).
	MessageLimit int
	// LockTTL is how long a conversation's lease lasts unless renewed
	// (default 10s). A running turn renews it every RenewEvery, so a turn
	// whose instance died is resumed by a follower soon after LockTTL.
	LockTTL time.Duration
	// RenewEvery is how often a running turn renews its lease (default
	// LockTTL/3, so two renewals may fail before the lease runs out).
	RenewEvery time.Duration
	// PollInterval is how often the instance's follower looks for events
	// written by other instances, in one read for all the open streams
	// (default 300ms). On PostgreSQL, which announces new events, it looks
	// only every LockTTL/4 while it listens.
	PollInterval time.Duration
	// Keep deletes the conversations last updated more than Keep ago,
	// with their events and query log rows (default 0: keep forever).
	Keep time.Duration
	// AuditKeep deletes the audit records older than AuditKeep (default 0:
	// keep forever). Keep never deletes audit records.
	AuditKeep time.Duration
	// SweepEvery is how often, with Keep or AuditKeep set, old
	// conversations and audit records are deleted; the first sweep runs as
	// the service starts (default 1h).
	SweepEvery time.Duration
	// Access holds who may see which sources and scope values (default
	// nil: everyone sees everything). The identity comes from the
	// context (access.WithWho), else the user with no groups.
	Access *access.Policy
	// Clock returns the time (default time.Now).
	Clock func() time.Time
	// Random supplies conversation ids (default crypto/rand).
	Random io.Reader
	// Log receives warnings (default slog.Default()).
	Log *slog.Logger
}

// minRepeats is how many identical answers make a user's usual choice.
const minRepeats = 3

// Service holds conversations. It is safe for concurrent use.
type Service struct {
	engines  Engines
	st       store.Store
	opt      Options
	instance string
	hub      *hub
	stop     chan struct{}
	// cancel ends the context of the background work (the sweeps).
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New builds a service and starts its janitor (expiring clarifications).
func New(engines Engines, st store.Store, opt Options) *Service {
	if opt.TTL <= 0 {
		opt.TTL = 24 * time.Hour
	}
	if opt.MessageLimit <= 0 {
		opt.MessageLimit = 20
	}
	if opt.LockTTL <= 0 {
		opt.LockTTL = 10 * time.Second
	}
	if opt.RenewEvery <= 0 || opt.RenewEvery >= opt.LockTTL {
		opt.RenewEvery = opt.LockTTL / 3
	}
	if opt.PollInterval <= 0 {
		opt.PollInterval = 300 * time.Millisecond
	}
	if opt.SweepEvery <= 0 {
		opt.SweepEvery = time.Hour
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	if opt.Random == nil {
		opt.Random = rand.Reader
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	s := &Service{engines: engines, st: st, opt: opt, hub: newHub(), stop: make(chan struct{})}
	s.instance = s.newID("i_")
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.wg.Add(2)
	go s.janitor(ctx)
	go s.follow(ctx)
	if opt.Keep > 0 || opt.AuditKeep > 0 {
		s.wg.Add(1)
		go s.sweeper(ctx)
	}
	return s
}

// Close stops the janitor, the sweeper and the follower of open streams,
// cancelling a sweep under way, and waits for them.
func (s *Service) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.cancel()
	s.wg.Wait()
}

// sweeper deletes the conversations older than Options.Keep now and every
// Options.SweepEvery, until ctx ends.
func (s *Service) sweeper(ctx context.Context) {
	defer s.wg.Done()
	t := time.NewTicker(s.opt.SweepEvery)
	defer t.Stop()
	for {
		s.sweep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweep deletes the conversations last updated more than Options.Keep ago
// and the audit records older than Options.AuditKeep, each when set.
func (s *Service) sweep(ctx context.Context) {
	if s.opt.AuditKeep > 0 {
		s.sweepAudit(ctx)
	}
	if s.opt.Keep <= 0 {
		return
	}
	before := s.opt.Clock().Add(-s.opt.Keep)
	n, err := s.st.DeleteOlderThan(ctx, before)
	if n > 0 {
		s.opt.Log.Info("deleted old conversations", "count", n, "updated_before", before.UTC())
	}
	if err != nil && ctx.Err() == nil {
		s.opt.Log.Warn("delete old conversations", "err", err)
	}
}

// janitor expires conversations every minute until Close; a pass under
// way when Close is called is cancelled with ctx.
func (s *Service) janitor(ctx context.Context) {
	defer s.wg.Done()
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			pass, cancel := context.WithTimeout(ctx, 30*time.Second)
			if _, err := s.st.ExpireConversations(pass, s.opt.Clock()); err != nil && ctx.Err() == nil {
				s.opt.Log.Warn("expire conversations", "err", err)
			}
			cancel()
		}
	}
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns prefix + 128 random bits.
func (s *Service) newID(prefix string) string {
	var b [16]byte
	if _, err := io.ReadFull(s.opt.Random, b[:]); err != nil {
		panic(fmt.Sprintf("random source failed: %v", err)) // crypto/rand does not fail
	}
	return prefix + idEncoding.EncodeToString(b[:])
}

// Emit receives the events of a turn as they happen (for SSE): one call
// for the events that happen together, such as an outcome's, so that a
// stream can send them at once.
type Emit func(...store.Event)

// Ask starts a conversation and runs its first turn.
func (s *Service) Ask(ctx context.Context, user string, a Ask, emit Emit) (*Result, error) {
	if strings.TrimSpace(a.Question) == "" {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "the question is empty")
	}
	if len([]rune(a.Question)) > understand.MaxQuestionLen {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "the question is longer than %d characters", understand.MaxQuestionLen)
	}
	src := a.Source
	if src == "" {
		src = s.engines.Default()
	}
	if !s.opt.Access.MaySee(access.WhoFrom(ctx, user), src) {
		return nil, forbiddenSource(src)
	}
	eng, err := s.engines.Engine(ctx, src)
	if err != nil {
		return nil, sourceError(src, err)
	}
	if err := eng.CheckEngine(a.Engine); err != nil {
		return nil, err // BAD_REQUEST, saying which engines there are
	}
	interactive := (a.Interactive == nil || *a.Interactive) && (a.EnableClarification == nil || *a.EnableClarification)
	now := s.opt.Clock().UTC()
	st := &state{Resolved: map[string]resolution{}, AskScope: a.AskScope, Engine: a.Engine}
	st.Turns = append(st.Turns, Turn{At: now, Role: "user", Kind: "question", Text: a.Question})
	c := &store.Conversation{ID: s.newID("c_"), UserID: user, Source: src, Question: a.Question, Status: store.StatusActive,
		Interactive: interactive, Messages: 1, CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(s.opt.TTL)}
	first := s.event(st, c.ID, "conversation", map[string]any{"conversation_id": c.ID, "status": c.Status, "question": a.Question, "source": src})
	if err := s.save(c, st); err != nil {
		return nil, err
	}
	// the lease is taken with the conversation: a follower never sees it
	// active and free, which would make it resume the turn
	owner := s.newID(s.instance + "/")
	if _, err := s.st.CreateLocked(ctx, c, owner, s.opt.LockTTL, first); err != nil {
		if errors.Is(err, store.ErrLocked) {
			return nil, s.lockError(nil)
		}
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not save the conversation", Err: err}
	}
	s.publish(emit, first)
	return s.finish(ctx, c, st, owner, emit, false)
}

func (s *Service) lockError(err error) error {
	if err != nil {
		return &apperr.Error{Code: apperr.CodeInternal, Message: "could not lock the conversation", Err: err}
	}
	return apperr.Errorf(apperr.CodeSessionBusy, "the conversation is busy with another request; try again")
}

func (s *Service) unlock(id, owner string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.st.Unlock(ctx, id, owner); err != nil {
		s.opt.Log.Warn("unlock conversation", "conversation", id, "err", err)
	}
}

// loadRow reads a conversation of a user (another user's is "not found")
// without decoding its state.
func (s *Service) loadRow(ctx context.Context, user, id string) (*store.Conversation, error) {
	c, err := s.st.Conversation(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && c.UserID != user {
		return nil, apperr.Errorf(apperr.CodeNotFound, "no conversation %q", id)
	}
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not read the conversation", Err: err}
	}
	return c, nil
}

// load reads a conversation of a user (another user's is "not found")
// and decodes its state.
func (s *Service) load(ctx context.Context, user, id string) (*store.Conversation, *state, error) {
	c, err := s.loadRow(ctx, user, id)
	if err != nil {
		return nil, nil, err
	}
	st := &state{}
	if err := json.Unmarshal(c.State, st); err != nil {
		return nil, nil, &apperr.Error{Code: apperr.CodeInternal, Message: "the conversation's state is unreadable", Err: err}
	}
	if st.Resolved == nil {
		st.Resolved = map[string]resolution{}
	}
	return c, st, nil
}

func (s *Service) save(c *store.Conversation, st *state) error {
	b, err := json.Marshal(st)
	if err != nil {
		return &apperr.Error{Code: apperr.CodeInternal, Message: "could not encode the conversation", Err: err}
	}
	c.State = b
	c.Statement = ""
	switch {
	case st.LastAnswer != nil:
		c.Statement = st.LastAnswer.Statement
	case st.Last != nil && st.Last.Answer != nil: // a state written before LastAnswer
		c.Statement = st.Last.Answer.Statement
	}
	return nil
}

// lastAnswer returns the conversation's last answer (nil when its last
// turn did not answer), read from its "result" event.
func (s *Service) lastAnswer(ctx context.Context, c *store.Conversation, st *state) (*engine.Answer, error) {
	if st.LastAnswer == nil {
		if st.Last != nil {
			return st.Last.Answer, nil // a state written before LastAnswer
		}
		return nil, nil
	}
	seq := st.LastAnswer.Seq
	evs, err := s.st.Events(ctx, c.ID, seq-1)
	if err == nil && (len(evs) == 0 || evs[0].Seq != seq || evs[0].Type != "result") {
		err = fmt.Errorf("event %d is not the answer's", seq)
	}
	a := &engine.Answer{}
	if err == nil {
		err = json.Unmarshal(evs[0].Data, a)
	}
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not read the conversation's answer", Err: err}
	}
	return a, nil
}

// begin reads a conversation for a new message (once, decoding its
// state) and checks the user, expiry and the message limit. Unless locked
// is set, or the conversation is active (a turn runs, or should run), it
// takes no lease: the message's save takes it (store.Save.Lock), so that a
// message costs one write before its turn instead of two. With locked, it
// takes the lease first and reads the conversation under it; a lease it
// cannot take is reported as the conversation's state explains (not
// found, expired, at its limit), else as busy. held reports whether the
// lease is held.
func (s *Service) begin(ctx context.Context, user, id string, locked bool) (c *store.Conversation, st *state, owner string, held bool, err error) {
	owner = s.newID(s.instance + "/")
	if !locked {
		c, st, err = s.load(ctx, user, id)
		if err == nil {
			err = s.takesMessages(c)
		}
		if err != nil || c.Status != store.StatusActive {
			return c, st, owner, false, err
		}
	}
	ok, err := s.st.Lock(ctx, id, owner, s.opt.LockTTL)
	if err != nil {
		return nil, nil, "", false, s.lockError(err)
	}
	if !ok {
		c, err := s.loadRow(ctx, user, id)
		if err == nil {
			err = s.takesMessages(c)
		}
		if err == nil {
			err = s.lockError(nil)
		}
		return nil, nil, "", false, err
	}
	// another user's conversation (or none) was locked only for as long as
	// this read: the lease is released before "not found" is answered
	c, st, err = s.load(ctx, user, id)
	if err == nil {
		err = s.takesMessages(c)
	}
	if err != nil {
		s.unlock(id, owner)
		return nil, nil, "", false, err
	}
	return c, st, owner, true, nil
}

// takesMessages reports why a conversation takes no more messages: its
// clarification expired, or it reached the message limit.
func (s *Service) takesMessages(c *store.Conversation) error {
	if c.Status == store.StatusAbandoned || c.Status == store.StatusAwaiting && s.opt.Clock().After(c.ExpiresAt) {
		return apperr.Errorf(apperr.CodeClarificationExpired, "the clarification expired; ask the question again")
	}
	if c.Messages >= s.opt.MessageLimit {
		return apperr.Errorf(apperr.CodeMessageLimit, "this conversation reached its limit of %d messages; start a new one", s.opt.MessageLimit)
	}
	return nil
}

// Send continues a conversation with an answer or text.
func (s *Service) Send(ctx context.Context, user, id string, m Message, emit Emit) (*Result, error) {
	if m.Answer == nil && strings.TrimSpace(m.Text) == "" {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "a message needs an answer or text")
	}
	if m.Answer != nil && m.Text != "" {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "send an answer or text, not both")
	}
	if len([]rune(m.Text)) > understand.MaxQuestionLen || m.Answer != nil && len([]rune(m.Answer.FreeText)) > understand.MaxQuestionLen {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "the message is longer than %d characters", understand.MaxQuestionLen)
	}
	return s.message(ctx, user, id, emit, func(c *store.Conversation, st *state) (store.Save, bool, error) {
		var (
			ev     store.Event
			answer *store.Answer // what the user's preferences learn from the answer
			err    error
		)
		switch {
		case m.Answer != nil:
			ev, answer, err = s.applyAnswer(c, st, *m.Answer)
		case c.Status == store.StatusAwaiting && st.Pending != nil && !clarify.LooksLikeQuestion(m.Text):
			// text while a question is pending answers it
			ev, answer, err = s.applyAnswer(c, st, Answer{ClarificationID: st.Pending.ID, FreeText: m.Text})
		default:
			ev = s.applyText(c, st, m.Text, s.opt.Clock().UTC())
		}
		return store.Save{Events: []store.Event{ev}, Answer: answer}, false, err
	})
}

// message runs a message of a user: it reads the conversation (begin),
// applies the message to it (apply returns what to save with it, and
// whether the turn must answer rather than ask), saves it — taking the
// conversation's lease in the same write, unless begin took it — and runs
// the turn. A save that finds the conversation changed since it was read
// (another message, an expiry) starts over once, under the lease, so the
// message is judged by what the conversation has become.
func (s *Service) message(ctx context.Context, user, id string, emit Emit, apply func(*store.Conversation, *state) (store.Save, bool, error)) (*Result, error) {
	for locked := false; ; locked = true {
		c, st, owner, held, err := s.begin(ctx, user, id, locked)
		if err != nil {
			return nil, err
		}
		now := s.opt.Clock().UTC()
		c.Messages++
		w, answerNow, err := apply(c, st)
		if err != nil {
			if held {
				s.unlock(c.ID, owner)
			}
			return nil, err
		}
		// the message is saved before the turn runs: a crash now loses
		// nothing
		c.Status = store.StatusActive
		c.UpdatedAt = now
		w.Conversation = c
		if !held {
			w.Lock, w.LockTTL = owner, s.opt.LockTTL
		}
		err = s.persist(ctx, w, st, emit)
		if err != nil && held {
			s.unlock(c.ID, owner)
		}
		switch {
		case errors.Is(err, errChanged) && !held:
			continue
		case errors.Is(err, store.ErrLocked):
			return nil, s.lockError(nil)
		case errors.Is(err, store.ErrNotFound):
			return nil, apperr.Errorf(apperr.CodeNotFound, "no conversation %q", id)
		case err != nil:
			return nil, err
		}
		return s.finish(ctx, c, st, owner, emit, answerNow)
	}
}

// applyAnswer applies an answer to the pending clarification; it returns
// the answer's event and, unless the answer teaches nothing about the
// user's preferences, the answer to record with them.
func (s *Service) applyAnswer(c *store.Conversation, st *state, a Answer) (store.Event, *store.Answer, error) {
	p := st.Pending
	if c.Status != store.StatusAwaiting || p == nil {
		return store.Event{}, nil, apperr.Errorf(apperr.CodeStaleClarification, "no clarification is waiting for an answer")
	}
	if a.ClarificationID != p.ID {
		return store.Event{}, nil, apperr.Errorf(apperr.CodeStaleClarification, "clarification %q is not the one waiting (%s)", a.ClarificationID, p.ID)
	}
	var r resolution
	switch {
	case a.Skipped:
		if !p.AllowSkip {
			return store.Event{}, nil, apperr.Errorf(apperr.CodeBadRequest, "this question cannot be skipped")
		}
		r.Skipped = true
	case a.OptionID != "":
		found := false
		for _, o := range p.Options {
			if o.ID == a.OptionID {
				found = true
			}
		}
		if !found {
			return store.Event{}, nil, apperr.Errorf(apperr.CodeBadRequest, "option %q is not one of the clarification's options", a.OptionID)
		}
		r.OptionID = a.OptionID
	case strings.TrimSpace(a.FreeText) != "":
		ur := clarify.Interpret(a.FreeText, slotOf(p))
		r = resolution{OptionID: ur.OptionID, FreeText: ur.FreeText, Skipped: ur.Skipped}
		if r.Skipped && !p.AllowSkip {
			return store.Event{}, nil, apperr.Errorf(apperr.CodeBadRequest, "this question cannot be skipped")
		}
	default:
		return store.Event{}, nil, apperr.Errorf(apperr.CodeBadRequest, "an answer needs option_id, free_text or skipped")
	}
	if p.Kind == engine.KindLLM && r.OptionID != "" {
		r.FreeText = answerText(p, r) // the model is told the choice in words
	}
	st.Resolved[p.Slot] = r
	st.Rounds++
	now := s.opt.Clock().UTC()
	st.Turns = append(st.Turns, Turn{At: now, Role: "user", Kind: "answer", Text: answerText(p, r)})
	// the model's questions are not learned: their options are its own
	var rec *store.Answer
	if !r.Skipped && p.Kind != understand.KindScope && p.Kind != engine.KindLLM {
		value := "opt:" + r.OptionID
		if r.OptionID == "" {
			value = "text:" + r.FreeText
		}
		rec = &store.Answer{UserID: c.UserID, Source: c.Source, Slot: p.Slot, Value: value, Remember: a.Remember,
			Kind: p.Kind, BestGuess: bestGuess(p), At: now}
	}
	st.Pending = nil
	return s.event(st, c.ID, "answer", map[string]any{"clarification_id": p.ID, "slot": p.Slot, "option_id": r.OptionID,
		"free_text": r.FreeText, "skipped": r.Skipped, "remember": a.Remember}), rec, nil
}

// applyText handles text that is not an answer: a follow-up refining the
// last question ("only the infected ones", "by clinic"), or a new question.
func (s *Service) applyText(c *store.Conversation, st *state, text string, now time.Time) store.Event {
	text = strings.TrimSpace(text)
	kind := "refine"
	if clarify.LooksLikeQuestion(text) || c.Status == store.StatusFailed {
		kind = "question"
		c.Question = text
		st.Resolved = map[string]resolution{}
		st.Rounds = 0
	} else {
		c.Question = strings.TrimRight(c.Question, " ?.!") + " " + text
	}
	st.Pending = nil
	st.Turns = append(st.Turns, Turn{At: now, Role: "user", Kind: "text", Text: text})
	return s.event(st, c.ID, "message", map[string]any{"kind": kind, "text": text, "question": c.Question})
}

// ChangeAssumption re-answers a question with one assumption changed; every
// other choice is kept.
func (s *Service) ChangeAssumption(ctx context.Context, user, id, slot, optionID string, emit Emit) (*Result, error) {
	if optionID == "" {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "option_id is required")
	}
	return s.message(ctx, user, id, emit, func(c *store.Conversation, st *state) (store.Save, bool, error) {
		last, err := s.lastAnswer(ctx, c, st)
		if err != nil {
			return store.Save{}, false, err
		}
		ev, err := s.changeAssumption(c, st, last, slot, optionID)
		// a changed answer is answered, never turned into a new question
		return store.Save{Events: []store.Event{ev}}, true, err
	})
}

// changeAssumption applies a changed assumption to the conversation, whose
// last answer must have that assumption and that alternative, and returns
// its event.
func (s *Service) changeAssumption(c *store.Conversation, st *state, last *engine.Answer, slot, optionID string) (store.Event, error) {
	if last == nil {
		return store.Event{}, apperr.Errorf(apperr.CodeBadRequest, "the conversation has no answer to change")
	}
	var a *clarify.Assumption
	for _, list := range [][]clarify.Assumption{last.Assumptions, last.OpenQuestions} {
		for i := range list {
			if list[i].Slot == slot {
				a = &list[i]
			}
		}
	}
	if a == nil {
		return store.Event{}, apperr.Errorf(apperr.CodeNotFound, "the answer has no assumption %q", slot)
	}
	ok := a.Chosen == optionID
	for _, alt := range a.Alternatives {
		ok = ok || alt.ID == optionID
	}
	if !ok {
		return store.Event{}, apperr.Errorf(apperr.CodeBadRequest, "option %q is not an alternative of %q", optionID, slot)
	}
	now := s.opt.Clock().UTC()
	st.Resolved[slot] = resolution{OptionID: optionID}
	st.Turns = append(st.Turns, Turn{At: now, Role: "user", Kind: "change", Text: slot + " → " + optionID})
	st.AnswerNow = true
	return s.event(st, c.ID, "change", map[string]any{"slot": slot, "option_id": optionID}), nil
}

// event builds the next event of a conversation.
func (s *Service) event(st *state, id, typ string, data any) store.Event {
	b, err := json.Marshal(data)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	st.LastSeq++
	return store.Event{ConversationID: id, Seq: st.LastSeq, Type: typ, Data: b, At: s.opt.Clock().UTC()}
}

// publish hands events to emit, all in one call, and to the
// conversation's followers.
func (s *Service) publish(emit Emit, evs ...store.Event) {
	if len(evs) == 0 {
		return
	}
	if emit != nil {
		emit(evs...)
	}
	for _, ev := range evs {
		s.hub.publish(ev)
	}
}

// persist saves a conversation (w.Conversation, with its state st) and
// what goes with it in one write, then publishes w's events.
func (s *Service) persist(ctx context.Context, w store.Save, st *state, emit Emit) error {
	c, events := w.Conversation, w.Events
	if err := s.save(c, st); err != nil {
		return err
	}
	stored, err := s.st.SaveConversation(ctx, w)
	if errors.Is(err, store.ErrConflict) {
		return &apperr.Error{Code: apperr.CodeSessionBusy, Message: "the conversation changed while this request ran; try again", Err: errChanged}
	}
	if errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err != nil {
		return &apperr.Error{Code: apperr.CodeInternal, Message: "could not save the conversation", Err: err}
	}
	for i, ev := range stored {
		if i < len(events) && ev.Seq != events[i].Seq {
			s.opt.Log.Warn("event sequence differs from the store's", "conversation", c.ID, "want", events[i].Seq, "got", ev.Seq)
		}
	}
	if emit != nil || len(events) > 0 {
		s.publish(emit, events...)
	}
	return nil
}

// Events returns the logged events of a conversation after a sequence.
func (s *Service) Events(ctx context.Context, user, id string, after int64) ([]store.Event, error) {
	if _, err := s.loadRow(ctx, user, id); err != nil {
		return nil, err
	}
	evs, err := s.st.Events(ctx, id, after)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not read events", Err: err}
	}
	return evs, nil
}

// maxAhead bounds the live events a follower holds while it waits for
// earlier ones from the store.
const maxAhead = 256

// Follow sends a conversation's events after a sequence, then every new
// one — published by this instance as it happens, or written by another
// instance (found by the instance's one follower, which watches the store
// for every stream) — until ctx ends or send fails. It is Watch, then
// the Watcher's Run.
func (s *Service) Follow(ctx context.Context, user, id string, after int64, send func(store.Event) error) error {
	w, err := s.Watch(ctx, user, id)
	if err != nil {
		return err
	}
	return w.Run(ctx, after, send)
}

// Watcher is a conversation a user may follow, found by Watch.
type Watcher struct {
	s    *Service
	user string
	c    *store.Conversation
}

// Watch checks that a conversation exists and is the user's (else
// NOT_FOUND), in one read of its row that does not decode its state, so
// that a server can answer an error before it opens an event stream.
func (s *Service) Watch(ctx context.Context, user, id string) (*Watcher, error) {
	c, err := offStack(func() (*store.Conversation, error) { return s.loadRow(ctx, user, id) })
	if err != nil {
		return nil, err
	}
	c.State = nil // not needed: an open stream keeps no copy of it
	return &Watcher{s: s, user: user, c: c}, nil
}

// offStack runs f on a short-lived goroutine and returns what it returns.
// A store read grows the stack of the goroutine that runs it (SQLite's
// most of all), and a goroutine keeps its stack while it waits: the
// goroutine of an open event stream, which waits for as long as the
// stream is open, reads the store only through offStack.
func offStack[T any](f func() (T, error)) (T, error) {
	type res struct {
		v   T
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := f()
		ch <- res{v, err}
	}()
	r := <-ch
	return r.v, r.err
}

// Run follows the conversation as Follow does, from the row Watch read.
func (w *Watcher) Run(ctx context.Context, after int64, send func(store.Event) error) error {
	s, user, c, id := w.s, w.user, w.c, w.c.ID
	w.c = nil
	sub := s.hub.subscribe(id, after)
	defer s.hub.unsubscribe(id, sub)
	// events go out in sequence with no gap: a live event ahead of one not
	// seen yet (a follower that joined mid-turn: the turn's first events
	// are stored when it ends) waits until the store has the missing ones
	ahead := map[int64]store.Event{}
	interrupted := false // the last event sent marks a turn to resume
	deliver := func(evs []store.Event) error {
		for _, ev := range evs {
			if ev.Seq > after && len(ahead) < maxAhead {
				ahead[ev.Seq] = ev
			}
		}
		for {
			ev, ok := ahead[after+1]
			if !ok {
				break
			}
			delete(ahead, ev.Seq)
			if err := send(ev); err != nil {
				return err
			}
			after = ev.Seq
			sub.sent.Store(after)
			interrupted = ev.Type == "interrupted"
		}
		for seq := range ahead {
			if seq <= after {
				delete(ahead, seq)
			}
		}
		return nil
	}
	// store reads run on a short-lived goroutine: the follower's own stack
	// stays small while it waits, which is what an open stream costs
	poll := func() error {
		evs, err := offStack(func() ([]store.Event, error) { return s.st.Events(ctx, id, after) })
		if err != nil {
			return err
		}
		return deliver(evs)
	}
	if err := poll(); err != nil {
		return err
	}
	// a turn that started but has no outcome (its client went away, or its
	// instance died and the lease ran out) is run again for this follower
	emit := func(evs ...store.Event) { _ = deliver(evs) }
	var resumed time.Time
	if c.Status == store.StatusActive {
		sub.active.Store(true)
		resumed = time.Now()
		if err := s.resume(ctx, user, id, emit); err != nil {
			return err
		}
	}
	for {
		if interrupted {
			resumed = time.Now()
			if err := s.resume(ctx, user, id, emit); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-sub.events:
			if err := deliver([]store.Event{ev}); err != nil {
				return err
			}
			if len(ahead) > 0 {
				if err := poll(); err != nil { // catch up on a gap
					return err
				}
			}
		case <-sub.wake:
			if sub.changed.Swap(false) {
				if err := poll(); err != nil {
					return err
				}
			}
			// the lease of a turn whose instance died runs out at most
			// LockTTL after its last renewal: trying every LockTTL/4
			// resumes the turn within 1.25 LockTTL of the death
			if sub.active.Load() && time.Since(resumed) >= s.opt.LockTTL/4 {
				resumed = time.Now()
				if err := s.resume(ctx, user, id, emit); err != nil {
					return err
				}
			}
		}
	}
}

// resume runs the turn of a conversation left active with nobody holding
// its lease: what the user sent was saved, but the turn that should answer
// it was cancelled with its client or died with its instance. The turn
// runs under the follower's context, so it stops if the follower goes too.
func (s *Service) resume(ctx context.Context, user, id string, emit Emit) error {
	c, err := s.loadRow(ctx, user, id)
	if err != nil || c.Status != store.StatusActive {
		return err
	}
	owner := s.newID(s.instance + "/")
	ok, err := s.st.Lock(ctx, id, owner, s.opt.LockTTL)
	if err != nil || !ok {
		return err // busy: the turn is running somewhere, its events will come
	}
	c, st, err := s.load(ctx, user, id)
	if err != nil || c.Status != store.StatusActive {
		s.unlock(id, owner)
		return err
	}
	s.opt.Log.Info("resuming a turn without an outcome", "conversation", id)
	if _, err := s.finish(ctx, c, st, owner, emit, st.AnswerNow); err != nil && ctx.Err() == nil {
		s.opt.Log.Warn("resumed turn failed", "conversation", id, "err", err)
	}
	return ctx.Err()
}

// Get returns a conversation.
func (s *Service) Get(ctx context.Context, user, id string) (*View, error) {
	c, st, err := s.load(ctx, user, id)
	if err != nil {
		return nil, err
	}
	v := &View{ConversationID: c.ID, Status: c.Status, Question: c.Question, Source: c.Source, Engine: st.Engine, Turns: st.Turns,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	if v.Turns == nil {
		v.Turns = []Turn{}
	}
	if c.Status == store.StatusAwaiting {
		v.Pending = st.Pending
		exp := c.ExpiresAt
		v.ExpiresAt = &exp
		if s.opt.Clock().After(c.ExpiresAt) {
			v.Status = store.StatusAbandoned
			v.Pending = nil
		}
	}
	if v.LastAnswer, err = s.lastAnswer(ctx, c, st); err != nil {
		return nil, err
	}
	return v, nil
}

// Delete removes a conversation.
func (s *Service) Delete(ctx context.Context, user, id string) error {
	if _, err := s.loadRow(ctx, user, id); err != nil {
		return err
	}
	if err := s.st.DeleteConversation(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		return &apperr.Error{Code: apperr.CodeInternal, Message: "could not delete the conversation", Err: err}
	}
	return nil
}

// slotOf rebuilds the parts of a slot a reply is read against.
func slotOf(c *engine.Clarification) *understand.Slot {
	s := &understand.Slot{Key: c.Slot, Kind: c.Kind, Chosen: -1}
	for _, o := range c.Options {
		s.Options = append(s.Options, &understand.Option{ID: o.ID, Label: o.Label, BestGuess: o.BestGuess})
	}
	return s
}

func answerText(c *engine.Clarification, r resolution) string {
	switch {
	case r.Skipped:
		return "I don't know — use your best judgment"
	case r.OptionID != "":
		for _, o := range c.Options {
			if o.ID == r.OptionID {
				return o.Label
			}
		}
		return r.OptionID
	}
	return r.FreeText
}
