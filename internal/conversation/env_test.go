package conversation_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/store"
)

// Questions of the tests, in our own words (the public evaluation
// questions must not appear in the repository).
const (
	severeWounds = "Show me the patients who have severe wounds" // asks vague:serious
	bigWounds    = "list the big wounds"                         // assumes vague:large when not interactive
	bigOldWounds = "list the big old wounds"                     // vague:large and vague:old
	oldByClinic  = "count the old wounds per clinic"             // asks vague:old
	myFerritin   = "my ferritin results please"                  // labs: asks scope, then format
)

// waitLimit bounds every wait of a test for something the service must do;
// reaching it fails the test, it is not a measure of speed.
const waitLimit = 20 * time.Second

// engines serves the demo engines (their clock at the data's as_of).
type engines map[string]*engine.Engine

func (e engines) Engine(_ context.Context, name string) (*engine.Engine, error) {
	if en, ok := e[name]; ok {
		return en, nil
	}
	if name == "down" {
		return nil, errors.New("connect to down: connection refused")
	}
	return nil, unknownSource(name)
}

// unknownSource is the error of Engines for a name that is not configured.
type unknownSource string

func (u unknownSource) Error() string       { return fmt.Sprintf("unknown source %q", string(u)) }
func (u unknownSource) UnknownSource() bool { return true }

func (e engines) Default() string { return "clinic" }

// shared holds the demo engines every test uses: an engine is safe for
// concurrent use, and building one and warming its caches costs more than
// most tests do.
var shared struct {
	once     sync.Once
	engines  engines
	cleanups []func()
}

// keepTB is a TB whose cleanups run when the package's tests are over.
type keepTB struct{ testing.TB }

func (keepTB) Cleanup(f func()) { shared.cleanups = append(shared.cleanups, f) } // under shared.once

func demoEngines(t *testing.T) engines {
	t.Helper()
	shared.once.Do(func() {
		tb := keepTB{t}
		shared.engines = engines{"clinic": demotest.Engine(tb, "clinic"), "labs": demotest.Engine(tb, "labs")}
	})
	if len(shared.engines) == 0 {
		t.Fatal("the demo engines could not be built")
	}
	return shared.engines
}

func TestMain(m *testing.M) {
	code := demotest.Run(m)
	for _, f := range shared.cleanups {
		f()
	}
	os.Exit(code)
}

// fakeClock is the one clock of a test's service and store: moving it on
// expires clarifications and leases without waiting.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// hooks intercept a store's calls. Every turn reads the user's "never
// ask me" switch once (Learned), as it starts, under the conversation's
// lease; it saves its outcome with a SaveConversation that carries its
// "done" event.
type hooks struct {
	// neverAsk runs before each NeverAsk and Learned.
	neverAsk func(ctx context.Context)
	// saveOutcome runs before a turn's outcome is saved; an error is
	// returned instead of saving.
	saveOutcome func(ctx context.Context) error
	// beforeLock runs before each Lock, CreateLocked, and
	// SaveConversation that takes the lease.
	beforeLock func(ctx context.Context, id string)
	// lock is told each Lock (and CreateLocked, and SaveConversation that
	// takes the lease) and its result.
	lock func(id, owner string, ok bool)
}

// hookedStore is a store with hooks: how a test holds a turn at its start
// or makes an instance fail.
type hookedStore struct {
	store.Store
	h hooks
}

func (s hookedStore) NeverAsk(ctx context.Context, user string) (bool, error) {
	if s.h.neverAsk != nil {
		s.h.neverAsk(ctx)
	}
	return s.Store.NeverAsk(ctx, user)
}

func (s hookedStore) Learned(ctx context.Context, user, source string) (store.Learned, error) {
	if s.h.neverAsk != nil {
		s.h.neverAsk(ctx)
	}
	return s.Store.Learned(ctx, user, source)
}

func (s hookedStore) SaveConversation(ctx context.Context, w store.Save) ([]store.Event, error) {
	if s.h.saveOutcome != nil && len(w.Events) > 0 && w.Events[len(w.Events)-1].Type == "done" {
		if err := s.h.saveOutcome(ctx); err != nil {
			return nil, err
		}
	}
	if w.Lock != "" && s.h.beforeLock != nil {
		s.h.beforeLock(ctx, w.Conversation.ID)
	}
	evs, err := s.Store.SaveConversation(ctx, w)
	if w.Lock != "" && s.h.lock != nil && (err == nil || errors.Is(err, store.ErrLocked)) {
		s.h.lock(w.Conversation.ID, w.Lock, err == nil)
	}
	return evs, err
}

func (s hookedStore) CreateLocked(ctx context.Context, c *store.Conversation, owner string, ttl time.Duration, events ...store.Event) ([]store.Event, error) {
	if s.h.beforeLock != nil {
		s.h.beforeLock(ctx, c.ID)
	}
	evs, err := s.Store.CreateLocked(ctx, c, owner, ttl, events...)
	if s.h.lock != nil && (err == nil || errors.Is(err, store.ErrLocked)) {
		s.h.lock(c.ID, owner, err == nil)
	}
	return evs, err
}

func (s hookedStore) Lock(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	if s.h.beforeLock != nil {
		s.h.beforeLock(ctx, id)
	}
	ok, err := s.Store.Lock(ctx, id, owner, ttl)
	if err == nil && s.h.lock != nil {
		s.h.lock(id, owner, ok)
	}
	return ok, err
}

// env is a service over a fresh SQLite store and the demo engines.
type env struct {
	st      store.Store // the store itself, without hooks
	clock   *fakeClock
	engines engines
	svc     *conversation.Service
}

func newEnv(t *testing.T, opt conversation.Options, h hooks) *env {
	t.Helper()
	clock := &fakeClock{now: demotest.AsOf.Add(9 * time.Hour)}
	st, err := store.OpenConfig(context.Background(), store.Config{
		DSN: "sqlite:" + filepath.Join(t.TempDir(), "store.db"), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{st: st, clock: clock, engines: demoEngines(t)}
	e.svc = e.instance(t, opt, h)
	return e
}

// instance starts another service over the env's store, as another server
// instance would be.
func (e *env) instance(t *testing.T, opt conversation.Options, h hooks) *conversation.Service {
	t.Helper()
	if opt.Clock == nil {
		opt.Clock = e.clock.Now
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	svc := conversation.New(e.engines, hookedStore{Store: e.st, h: h}, opt)
	t.Cleanup(svc.Close)
	return svc
}

// stored reads a conversation's status as the store holds it.
func (e *env) stored(t *testing.T, id string) string {
	t.Helper()
	c, err := e.st.Conversation(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c.Status
}

func ask(t *testing.T, svc *conversation.Service, user string, a conversation.Ask) *conversation.Result {
	t.Helper()
	if a.Source == "" {
		a.Source = "clinic"
	}
	r, err := svc.Ask(context.Background(), user, a, nil)
	if err != nil {
		t.Fatalf("ask %q: %v", a.Question, err)
	}
	return r
}

func notInteractive(q, source string) conversation.Ask {
	f := false
	return conversation.Ask{Question: q, Source: source, Interactive: &f}
}

func send(t *testing.T, svc *conversation.Service, user, id string, m conversation.Message) *conversation.Result {
	t.Helper()
	r, err := svc.Send(context.Background(), user, id, m, nil)
	if err != nil {
		t.Fatalf("send %+v: %v", m, err)
	}
	return r
}

// choose answers the pending clarification of r with the option whose id
// or label contains part.
func choose(t *testing.T, svc *conversation.Service, user string, r *conversation.Result, part string) *conversation.Result {
	t.Helper()
	if r.Clarification == nil {
		t.Fatalf("no clarification to answer with %q: %s", part, r.Status)
	}
	return send(t, svc, user, r.ConversationID, conversation.Message{Answer: &conversation.Answer{
		ClarificationID: r.Clarification.ID, OptionID: option(t, r.Clarification, part)}})
}

// option returns the id of the option whose id or label contains part.
func option(t *testing.T, c *engine.Clarification, part string) string {
	t.Helper()
	for _, o := range c.Options {
		if strings.Contains(o.ID, part) || strings.Contains(strings.ToLower(o.Label), strings.ToLower(part)) {
			return o.ID
		}
	}
	t.Fatalf("clarification %s has no option like %q: %+v", c.Slot, part, c.Options)
	return ""
}

func get(t *testing.T, svc *conversation.Service, user, id string) *conversation.View {
	t.Helper()
	v, err := svc.Get(context.Background(), user, id)
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	return v
}

// wantCode fails unless err carries the service code want.
func wantCode(t *testing.T, err error, want apperr.Code) {
	t.Helper()
	var e *apperr.Error
	if !errors.As(err, &e) || e.Code != want || apperr.CodeOf(err) != want {
		t.Errorf("error %v, want code %s", err, want)
	}
}

// assumption returns the assumption of an answer about slot.
func assumption(t *testing.T, r *conversation.Result, slot string) clarify.Assumption {
	t.Helper()
	if r.Answer == nil {
		t.Fatalf("no answer (status %s, clarification %+v)", r.Status, r.Clarification)
	}
	for _, a := range r.Answer.Assumptions {
		if a.Slot == slot {
			return a
		}
	}
	t.Fatalf("the answer has no assumption about %s: %+v", slot, r.Answer.Assumptions)
	return clarify.Assumption{}
}

// count runs a COUNT on the demo clinic database itself.
func count(t *testing.T, query string, args ...any) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+demotest.Path(t, "clinic")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// daysAgo is the date the clinic model's {{days_ago n}} means.
func daysAgo(n int) string { return demotest.AsOf.AddDate(0, 0, -n).Format(time.DateOnly) }

func types(evs []store.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type
	}
	return out
}

// wantConsecutive fails unless evs are numbered after+1, after+2, ….
func wantConsecutive(t *testing.T, evs []store.Event, after int64) {
	t.Helper()
	for i, ev := range evs {
		if ev.Seq != after+1+int64(i) {
			seqs := make([]int64, len(evs))
			for j, e := range evs {
				seqs[j] = e.Seq
			}
			t.Fatalf("event ids %v (%v), want consecutive from %d", seqs, types(evs), after+1)
		}
	}
}

// eachEvent is an Emit that calls f with each event it is given.
func eachEvent(f func(store.Event)) conversation.Emit {
	return func(evs ...store.Event) {
		for _, ev := range evs {
			f(ev)
		}
	}
}
