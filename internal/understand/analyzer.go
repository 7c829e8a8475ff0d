package understand

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// MaxQuestionLen is the longest question accepted, in characters.
const MaxQuestionLen = 2000

// ErrEmpty and ErrTooLong report questions that cannot be understood at all.
var (
	ErrEmpty   = errors.New("the question is empty")
	ErrNoWords = errors.New("the message has no words to read (only symbols or emoji): ask about the data in words, such as \"how many … are there\" or \"show … by month\"")
	ErrTooLong = fmt.Errorf("the question is longer than %d characters", MaxQuestionLen)
)

// Analyzer understands questions about one model. It is safe for concurrent
// use; build one per source and keep it.
type Analyzer struct {
	model *model.Model
	lex   *lexicon
	cat   Catalog
	log   *slog.Logger

	mu      sync.Mutex
	vx      *storedValues
	version uint64
	// rebuilding is closed when a background rebuild finishes;
	// stopRebuild cancels it. Both are nil when none runs.
	rebuilding  chan struct{}
	stopRebuild context.CancelFunc
	// rested is when the next rebuild a question notices may start: as
	// long after the last one ended as that one took (at most half of one
	// core). A wide source's values change once per column as its first
	// minute's loads end, and each change a question noticed rebuilt the
	// whole index at once, back to back, beside the questions that needed
	// the cores; a source whose index builds in milliseconds sees no
	// difference. The index in use meanwhile is the last one
	// (stale-while-revalidate), and probes find what is still loading.
	rested time.Time
	// closed: Close was called, and no rebuild starts any more
	closed bool
}

// Owner is a Catalog that also runs work in the background for as long as
// its values can be read: Go starts f with a context that keeps ctx's
// values but not its cancellation, cancels it when the catalog closes and
// waits for f then; it reports false, and f does not run, once the catalog
// is closed. A source's value cache is one (its source's Close stops the
// work). An analyzer whose catalog is an Owner has it run the rebuilds of
// its value index, so that they end with the catalog they read.
type Owner interface {
	Go(ctx context.Context, f func(context.Context)) bool
}

// New builds an analyzer for a model. cat may be nil (static values only).
func New(m *model.Model, cat Catalog) *Analyzer {
	return &Analyzer{model: m, lex: newLexicon(m), cat: cat}
}

// SetLog sets where the errors behind warnings are logged (default
// slog.Default()); a warning a user reads carries no database error text.
// Call it before the analyzer is used.
func (a *Analyzer) SetLog(l *slog.Logger) { a.log = l }

// logger returns the analyzer's logger.
func (a *Analyzer) logger() *slog.Logger {
	if a.log == nil {
		return slog.Default()
	}
	return a.log
}

// Model returns the analyzer's model.
func (a *Analyzer) Model() *model.Model { return a.model }

// Settings carry what a question is understood with besides its words.
type Settings struct {
	// Now is the engine's clock for the source.
	Now time.Time
	// Resolved holds answers to earlier clarifications and remembered
	// preferences, keyed by slot key.
	Resolved map[string]Resolution
	// Scope, when set, holds the only scope values the user may see (a
	// clinician's patients): "which patient?" offers only these, and a
	// value outside them that the question names is refused. Nil: every
	// value. It narrows what is offered; the engine and the guard enforce it.
	Scope *ScopeLimit
	// Probed: the question's words were looked up in whole tables by an
	// earlier reading of the same question (a preview reads it again with
	// one answer set): what that found is kept with the columns' first
	// rows, where this reading's probe finds it, and no table is scanned
	// for them again. On a cold source each preview's reading scanned the
	// same tables again, within the previews' budget.
	Probed bool
}

// ScopeLimit is the set of scope values (keys of the scope entity) one
// user may see.
type ScopeLimit struct {
	keys map[string]bool
	list []string
}

// NewScopeLimit returns the limit to keys; none means no value at all.
func NewScopeLimit(keys []string) *ScopeLimit {
	l := &ScopeLimit{keys: make(map[string]bool, len(keys))}
	for _, k := range keys {
		if !l.keys[k] {
			l.keys[k] = true
			l.list = append(l.list, k)
		}
	}
	slices.Sort(l.list)
	return l
}

// Permits reports whether key is one the user may see; a nil limit
// permits every key.
func (l *ScopeLimit) Permits(key string) bool { return l == nil || l.keys[key] }

// Keys returns the permitted keys, sorted.
func (l *ScopeLimit) Keys() []string { return l.list }

// index returns the value index, building it on first use and rebuilding it
// in the background when the catalog's values change (stale-while-revalidate);
// nil when ctx ends before the first is built.
func (a *Analyzer) index(ctx context.Context) *storedValues {
	var v uint64
	if a.cat != nil {
		v = a.cat.Version(ctx)
	}
	a.mu.Lock()
	if a.vx == nil {
		a.mu.Unlock()
		settle(ctx, a.model, a.cat)
		vx := buildValueIndex(ctx, a.model, a.cat, a.lex, coldIndexValues)
		if vx == nil {
			return nil // ctx ended
		}
		a.mu.Lock()
		if a.vx == nil {
			a.vx, a.version = vx, v
			if vx.short && !a.closed {
				a.rebuild(ctx, v) // the index of every value, in the background
			}
		}
		vx = a.vx
		a.mu.Unlock()
		return vx
	}
	vx := a.vx
	if a.stale(v) && !time.Now().Before(a.rested) {
		a.rebuild(ctx, v)
	}
	a.mu.Unlock()
	return vx
}

// stale reports whether the index in use was built before the catalog's
// values reached version v, and none is being built or may be. a.mu is
// held.
func (a *Analyzer) stale(v uint64) bool {
	return v != a.version && a.rebuilding == nil && !a.closed
}

// coldWait bounds how long the first question on a cold source waits for
// the first reads of its stored values (Prober.Settle): reads of a few
// thousand rows each, which end long before it unless the database is
// far slower than it should be. It is no budget that a big source runs
// out of: how much a first question knows does not depend on the speed
// of the database.
const coldWait = 2 * time.Second

// settle starts the load of every column's stored values at once and waits
// for their first reads (at most coldWait), when the catalog loads in the
// background (a Prober): a small table's column is then loaded in full,
// and the first question reads all of its values as later ones do; a big
// table's has the values of its first rows, and its whole scan waits for
// the answer. Otherwise each load is waited for as the index reads it.
func settle(ctx context.Context, m *model.Model, cat Catalog) {
	p, ok := cat.(Prober)
	if !ok {
		return
	}
	cols := StoredValueColumns(m)
	for _, c := range cols {
		_, _, _, _ = p.Snapshot(ctx, c) // starts its load
	}
	wctx, cancel := context.WithTimeout(ctx, coldWait)
	defer cancel()
	for _, c := range cols {
		// a failed load is noted by the index; only the wait ends it here
		_ = p.Settle(wctx, c)
		if wctx.Err() != nil {
			return
		}
	}
}

// StoredValueColumns are the columns whose values understanding reads
// from the database (a value list the model says comes from the data).
func StoredValueColumns(m *model.Model) []*model.Column {
	var cols []*model.Column
	for _, e := range m.Entities {
		cols = append(cols, e.ValueColumns()...)
	}
	return cols
}

// rebuild starts rebuilding the value index for catalog version v in the
// background, detached from the request that noticed the change (the
// rebuild outlives it) but owned: by the catalog when it is an Owner,
// else by the analyzer, whose Close cancels and waits for it. A rebuild
// that is canceled keeps the index it had. a.mu is held.
func (a *Analyzer) rebuild(ctx context.Context, v uint64) {
	done := make(chan struct{})
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a.rebuilding, a.stopRebuild = done, cancel
	run := func(owner context.Context) {
		defer close(done)
		defer cancel()
		stop := context.AfterFunc(owner, cancel) // the owner closing stops it
		defer stop()
		start := time.Now()
		nvx := buildValueIndex(rctx, a.model, a.cat, a.lex, 0)
		a.mu.Lock()
		if rctx.Err() == nil {
			a.vx, a.version = nvx, v
		}
		a.rested = time.Now().Add(time.Since(start))
		a.rebuilding, a.stopRebuild = nil, nil
		a.mu.Unlock()
	}
	if o, ok := a.cat.(Owner); ok {
		if !o.Go(rctx, run) {
			// the catalog is closed: nothing to rebuild from
			a.rebuilding, a.stopRebuild = nil, nil
			cancel()
			close(done)
		}
		return
	}
	go run(rctx)
}

// Close stops the analyzer's background work: a rebuild of its value index
// under way is canceled and Close waits for it; none starts after. The
// analyzer goes on understanding questions with the values it has. Call
// it when the analyzer is no longer used (before closing its catalog's
// source, whose own Close stops the rebuilds it runs).
func (a *Analyzer) Close() {
	a.mu.Lock()
	a.closed = true
	done, stop := a.rebuilding, a.stopRebuild
	a.mu.Unlock()
	if stop != nil {
		stop()
	}
	if done != nil {
		<-done
	}
}

// WaitIndex blocks until a background rebuild of the value index (if any)
// has finished, starting one at once when the values changed since the
// last; tests use it to observe refreshed values.
func (a *Analyzer) WaitIndex(ctx context.Context) {
	a.index(ctx)
	var v uint64
	if a.cat != nil {
		v = a.cat.Version(ctx)
	}
	a.mu.Lock()
	if a.stale(v) {
		a.rebuild(ctx, v) // not paced: the caller waits for it
	}
	ch := a.rebuilding
	a.mu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
		}
	}
}

// capitals reports, per token, whether its writer capitalized it; nil
// when the question says nothing by its case (all lower or all upper
// case, or only its first word capitalized).
func capitals(question string, toks []text.Token) []bool {
	// the tokens' offsets hold in the cased text when lower-casing kept
	// every byte length (no re-tokenizing, which would stem every word)
	cased := text.NormalizeKeepCase(question)
	if len(cased) != len(text.Normalize(question)) {
		return nil
	}
	caps := make([]bool, len(toks))
	upper, lower := 0, 0
	for i, t := range toks {
		if t.Start < 0 || t.End > len(cased) || t.Start >= t.End {
			return nil
		}
		w := cased[t.Start:t.End]
		r, _ := utf8.DecodeRuneInString(w)
		caps[i] = unicode.IsUpper(r)
		if t.Kind != text.Word {
			continue
		}
		if len(w) > 1 && w == strings.ToUpper(w) && w != strings.ToLower(w) {
			upper++
		} else if caps[i] && i > 0 && w != "I" {
			lower++ // a capitalized word inside the question
		}
	}
	if lower == 0 || upper > len(toks)/2 {
		return nil
	}
	return caps
}

// Analyze understands a question.
func (a *Analyzer) Analyze(ctx context.Context, question string, s Settings) (*Interpretation, error) {
	if utf8.RuneCountInString(question) > MaxQuestionLen {
		return nil, ErrTooLong
	}
	q := text.Normalize(question)
	q = applyRewrites(q, s.Resolved)
	toks := text.Tokenize(q)
	if len(toks) == 0 {
		if strings.TrimSpace(question) != "" {
			return nil, ErrNoWords
		}
		return nil, ErrEmpty
	}
	vx := a.index(ctx)
	if vx == nil {
		return nil, ctx.Err()
	}
	if len(vx.pending) > 0 {
		vx = a.probe(ctx, vx, probeWords(q, toks))
	}
	stems := make([]string, len(toks))
	vstems := make([]string, len(toks))
	texts := make([]string, len(toks))
	for i, t := range toks {
		stems[i], vstems[i], texts[i] = t.Stem, text.ValueStem(t.Text), t.Text
	}
	newLinker := func(vx *storedValues) *linker {
		l := &linker{a: a, vx: vx.idx, toks: toks, stems: stems, vstems: vstems, texts: texts, fuzzy: map[int]string{}, tp: timeexpr.NewParser(toks, s.Now)}
		if len(s.Resolved) == 0 || q == text.Normalize(question) {
			l.caps = capitals(question, toks)
		}
		return l
	}
	build := func(vx *storedValues) *builder {
		l := newLinker(vx)
		b := &builder{a: a, l: l, ms: l.link(), s: s, q: &query.Query{}, in: &Interpretation{Question: q, Lang: "en"}}
		if text.IsCyrillic(q) {
			b.in.Lang = "ru"
		}
		for c, err := range vx.failed {
			a.logger().WarnContext(ctx, "stored values unavailable", "entity", c.Entity().Name, "column", c.Name, "err", err)
			b.in.Warnings = append(b.in.Warnings, fmt.Sprintf("the %s values of %s could not be read from the database", c.Title(), c.Entity().PluralLabel()))
		}
		b.build(ctx)
		return b
	}
	b := build(vx)
	if len(vx.pending) > 0 && !s.Probed {
		// words the first rows of a table still loading did not explain
		// may be values of later rows: looked up in the whole table, and
		// the question read again with what was found
		named := namedEntities(b.ms)
		if keep, loose := b.unexplained(named, vx.pending); keep != nil {
			if nvx := a.probeTables(ctx, vx, probePhrases(q, toks, keep), named, loose); nvx != vx {
				b = build(nvx)
			}
		}
	}
	return b.in, nil
}
