package source

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/model"
)

// valueCache holds the distinct values of database-sourced columns and the
// rows scope questions list. Entries expire after a TTL; an expired entry
// is still served while a background refresh runs (stale-while-revalidate).
// When the database cannot be reached, the error is remembered for a short
// backoff and understanding goes on without those values.
//
// A column's first load never makes understanding wait long: Snapshot
// starts it in the background and answers at once with what the cache has.
// The load begins with the column's first rows (firstRows of them, a read
// of a few milliseconds): when the table holds no more, that is the whole
// load; else their values are kept as probed ones, and Settle, which waits
// for that read, lets a first question know the same values however fast
// the database is. The rest, a scan of the whole table, is deferred until
// a statement the cache did not run itself has ended (the first answer's:
// the scan does not compete with it) or deferAtMost has passed; Values and
// CountedValues, for callers that need the whole list, start it at once
// and wait for it. Until it ends, Probe looks one question's words up in
// the same first rows.
//
// A refresh of a column whose entity has a monotonic mark (an integer key,
// else a date or timestamp time column of its own) reads only the rows
// beyond the mark of the last load and adds their values; every
// fullEvery-th refresh is a full reload, which drops the values no row
// holds any more and the counts of changed or deleted rows.
type valueCache struct {
	s       *Source
	mu      sync.Mutex
	cols    map[*model.Column]*valueEntry
	rows    map[string]*rowsEntry
	version atomic.Uint64
	// bg runs refreshes and first loads; the source's Close stops them
	bg background
	// firstRows is how many rows a column's first read and a probe read
	// (default firstRowsDefault; tests make it small)
	firstRows int
	// deferAtMost bounds how long the scan of a big table waits for a
	// statement of the source's users to end (default deferDefault)
	deferAtMost time.Duration
	// served is closed when the scans of big tables may start; once
	// closes it
	served chan struct{}
	once   sync.Once
	// deferred counts the first loads waiting on served (under mu)
	deferred int
	// users counts the statements of the source's users running now
	users atomic.Int64
	// heads lets one read of first rows run at a time: on a cold source
	// they then share one connection instead of opening one each
	heads chan struct{}
	// held are first reads made with their table's for columns whose own
	// load has not taken them yet (values_heads.go; under mu)
	held map[*model.Column]heldHead
	// headReads counts the first reads run (tests read it; under mu)
	headReads int
	// scans lets one read of a whole table's column (a full load or a
	// refresh) run at a time: a wide database's first minutes start one
	// per column, and run together they took the statement pool's
	// connections and the cores from the users' statements and from
	// understanding the first question. scanning and scanPeak count those
	// running, and the most at once (under mu).
	scans              chan struct{}
	scanning, scanPeak int
	// warm opens the statement pool's first connection once
	warm sync.Once
	// Log receives warnings (capped columns, unreachable database).
	log *slog.Logger
}

// valueEntry is one column's values. An entry is made once, by the first
// caller that asks, and then changed in place under the cache's mu.
type valueEntry struct {
	values []string
	rows   []int64 // how many rows hold each value
	loaded time.Time
	err    error
	// loading: a first load or a refresh is under way
	loading bool
	// full: values hold a whole load; until then only probed are known
	full bool
	// first is closed when the first load ends (nil once it has)
	first chan struct{}
	// head is closed when the first rows have been read, or the first
	// load has ended (nil once either has)
	head chan struct{}
	// sampled: probed hold the values of the column's first rows, all a
	// probe would read
	sampled bool
	// probed are the values probes found, with the rows they saw hold
	// each (at least that many), until the first load ends; addProbed
	// changes them
	probed map[string]int64
	// inOrder and inOrderRows are probed in order, made once after each
	// change (probedValues): a wide source's first question asks for them
	// per column several times, and sorting 10,000 values each time took
	// 0.34 s of its 2.1 s CPU profile (80 tables)
	inOrder     []string
	inOrderRows []int64
	// mark is the highest key or time of the rows read by the last load
	// (nil: the column is reloaded in full)
	mark any
	// partial counts the refreshes since the last full load
	partial int
}

// counted is one load of a column's values with their row counts.
type counted struct {
	values []string
	rows   []int64
	mark   any // the highest mark of the rows read; nil if none or unknown
	// capped: there were more values than MaxIndexedValues
	capped bool
	// whole: every row of the table was read (a read of the first rows
	// that reached the end of the table; always for a full load)
	whole bool
}

type rowsEntry struct {
	rows   [][]string
	loaded time.Time
}

const (
	// retryAfter is how long a failed load is remembered before trying again.
	retryAfter = 30 * time.Second
	// fullEvery: every fullEvery-th refresh of a column with a mark is a
	// full reload; the others read only the rows beyond the mark.
	fullEvery = 6
	// firstRowsDefault is how many rows a column's first read takes, and
	// a probe searches: a word in none of them is not a value as far as a
	// question asked before the full load knows. A count of rows, not a
	// time, so that what a cold source answers does not depend on the
	// speed of its database; a few milliseconds' read.
	firstRowsDefault = 10_000
	// probeBudget bounds a probe's time on a database too slow to read
	// firstRows rows in it: what it has found by then is returned.
	probeBudget = 100 * time.Millisecond
	// deferDefault is how long at most the scan of a big table waits for
	// the first statement of the source's users to end (when none comes:
	// a question asked back, a source opened and not asked).
	deferDefault = 3 * time.Second
	// maxProbeWords bounds the words (phrases) one probe looks up.
	maxProbeWords = 256
)

func newValueCache(s *Source) *valueCache {
	return &valueCache{s: s, cols: map[*model.Column]*valueEntry{}, rows: map[string]*rowsEntry{}, log: slog.Default(),
		firstRows: firstRowsDefault, deferAtMost: deferDefault, served: make(chan struct{}), heads: make(chan struct{}, 1),
		held: map[*model.Column]heldHead{}, scans: make(chan struct{}, 1)}
}

// ownKey marks the context of a statement the cache runs itself (a load,
// a probe, a lookup for understanding), as opposed to one of the source's
// users (an answer, a preview).
type ownKey struct{}

// own returns ctx marked as the cache's own.
func own(ctx context.Context) context.Context { return context.WithValue(ctx, ownKey{}, true) }

// statement notes that a statement starts and returns what notes its
// end: the end of one of the source's users' lets the deferred scans of
// big tables start, and while one runs, deferAtMost passing does not.
// Source.Query calls it.
func (vc *valueCache) statement(ctx context.Context) (end func()) {
	if ctx.Value(ownKey{}) != nil {
		return func() {}
	}
	vc.users.Add(1)
	return func() {
		vc.users.Add(-1)
		vc.release()
	}
}

// release lets the deferred scans of big tables start.
func (vc *valueCache) release() { vc.once.Do(func() { close(vc.served) }) }

func (vc *valueCache) ttl(c *model.Column) time.Duration {
	if c.Values != nil && c.Values.TTL > 0 {
		return c.Values.TTL
	}
	return vc.s.opt.ValueTTL
}

// Version changes whenever values change; it starts background refreshes
// of expired columns.
func (vc *valueCache) Version(ctx context.Context) uint64 {
	now := vc.s.opt.Clock()
	vc.mu.Lock()
	for c, e := range vc.cols {
		if e.loading {
			continue
		}
		expired := e.err == nil && now.Sub(e.loaded) > vc.ttl(c)
		retry := e.err != nil && now.Sub(e.loaded) > retryAfter
		if expired || retry {
			// detached from the request that noticed the expiry, owned
			// by the source; false once it is closed
			e.loading = vc.bg.run(ctx, func(ctx context.Context) { vc.refresh(ctx, c, e) })
		}
	}
	vc.mu.Unlock()
	return vc.version.Load()
}

// wait blocks until background refreshes finish.
func (vc *valueCache) wait() { vc.bg.wait() }

// Go runs f on a goroutine the source owns: f's context keeps ctx's values
// but not its cancellation, and is canceled by the source's Close, which
// waits for f to return. Go reports false, and f does not run, once the
// source is closed. An analyzer reading these values rebuilds its index
// this way (understand.Owner), so that closing the source stops it.
func (vc *valueCache) Go(ctx context.Context, f func(context.Context)) bool {
	return vc.bg.run(ctx, f)
}

// refresh reloads a column's values: only the rows beyond its mark, or
// all of them on every fullEvery-th refresh, when the last load failed or
// when the column has no mark.
func (vc *valueCache) refresh(ctx context.Context, c *model.Column, e *valueEntry) {
	vc.mu.Lock()
	since := e.mark
	if !e.full || e.err != nil || e.partial+1 >= fullEvery {
		since = nil
	}
	vc.mu.Unlock()
	got, err := vc.scan1(ctx, func(ctx context.Context) (counted, error) { return vc.load(ctx, c, since, 0) })
	vc.mu.Lock()
	defer vc.mu.Unlock()
	e.loading = false
	e.loaded = vc.s.opt.Clock()
	if err != nil {
		// keep serving the stale values; retry later
		e.err = err
		vc.log.Warn("refresh values failed; serving stale values", "source", vc.s.Name, "column", c.Entity().Name+"."+c.Name, "err", err)
		return
	}
	e.err = nil
	if since == nil {
		e.values, e.rows, e.mark, e.partial = got.values, got.rows, got.mark, 0
		e.full = true
		e.forgetProbed()
		vc.version.Add(1)
		return
	}
	e.partial++
	e.mark = got.mark // nil when capped: the next refresh is a full one
	if len(got.values) == 0 {
		return // no new rows: nothing changed
	}
	e.values, e.rows = vc.merge(c, e.values, e.rows, got)
	vc.version.Add(1)
}

// merge adds the values and row counts of the new rows to a column's,
// in order, at most MaxIndexedValues of them.
func (vc *valueCache) merge(c *model.Column, values []string, rows []int64, got counted) ([]string, []int64) {
	n := map[string]int64{}
	for i, v := range values {
		n[v] = rows[i]
	}
	for i, v := range got.values {
		n[v] += got.rows[i]
	}
	out := make([]string, 0, len(n))
	for v := range n {
		out = append(out, v)
	}
	slices.Sort(out)
	if capN := vc.s.opt.MaxIndexedValues; len(out) > capN {
		vc.log.Warn("column has more distinct values than are indexed", "column", c.Entity().Name+"."+c.Name, "indexed", capN)
		out = out[:capN]
	}
	counts := make([]int64, len(out))
	for i, v := range out {
		counts[i] = n[v]
	}
	return out, counts
}

// entry returns a column's entry, making it and starting its first load
// in the background when there is none; nil once the source is closed.
// vc.mu is held.
func (vc *valueCache) entry(ctx context.Context, c *model.Column) *valueEntry {
	if e := vc.cols[c]; e != nil {
		return e
	}
	e := &valueEntry{loading: true, first: make(chan struct{}), head: make(chan struct{})}
	// detached from any one caller and owned by the source: a caller
	// that gives up (its client went away) does not stop it, and closing
	// the source does
	if !vc.bg.run(ctx, func(bctx context.Context) { vc.loadFirst(bctx, c, e) }) {
		return nil
	}
	vc.cols[c] = e
	vc.warm.Do(func() { vc.bg.run(ctx, vc.warmStatements) })
	return e
}

// warmStatements opens the statement pool's first connection while the
// first reads of values run on the metadata pool (a cold source's first
// question waits for them), so that its answer does not then wait for
// one to open (some milliseconds on PostgreSQL or MariaDB). A failure is
// the answer's to report.
func (vc *valueCache) warmStatements(ctx context.Context) {
	_, _ = vc.s.Query(own(ctx), "SELECT 1", nil, 1)
}

// Values returns a column's distinct values, waiting for their first load.
func (vc *valueCache) Values(ctx context.Context, c *model.Column) ([]string, error) {
	vals, _, err := vc.CountedValues(ctx, c)
	return vals, err
}

// CountedValues returns a column's distinct values and, for each, how many
// rows hold it (a name that several customers share), waiting for their
// first load.
func (vc *valueCache) CountedValues(ctx context.Context, c *model.Column) ([]string, []int64, error) {
	// a caller that has already given up gets its own error, whatever is
	// cached or loading: select below picks at random between two ready cases
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	vc.mu.Lock()
	e := vc.entry(ctx, c)
	if e == nil {
		vc.mu.Unlock()
		return nil, nil, errClosed
	}
	first := e.first
	vc.mu.Unlock()
	if first != nil {
		// the caller needs the whole list: no load waits any more
		vc.release()
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-first:
		}
	}
	vc.mu.Lock()
	defer vc.mu.Unlock()
	if !e.full {
		return nil, nil, e.err
	}
	return e.values, e.rows, nil
}

// Snapshot returns at once what the cache holds of a column's values and
// whether that is all of them, starting their first load in the background
// when none has started. Until it ends, the values are those probes found
// (complete is false); after, the last load's, stale or not (complete is
// true). A first load that failed is err, with the probed values.
func (vc *valueCache) Snapshot(ctx context.Context, c *model.Column) (values []string, rows []int64, complete bool, err error) {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	e := vc.entry(ctx, c)
	if e == nil {
		return nil, nil, false, errClosed
	}
	if e.full {
		return e.values, e.rows, true, nil
	}
	values, rows = e.probedValues()
	if e.first == nil {
		err = e.err
	}
	return values, rows, false, err
}

// probedValues returns the values probes and the read of the first rows
// found, in order, with their rows; callers must not modify them. vc.mu
// is held.
func (e *valueEntry) probedValues() ([]string, []int64) {
	if e.inOrder != nil || len(e.probed) == 0 {
		return e.inOrder, e.inOrderRows
	}
	values := make([]string, 0, len(e.probed))
	for v := range e.probed {
		values = append(values, v)
	}
	slices.Sort(values)
	rows := make([]int64, len(values))
	for i, v := range values {
		rows[i] = e.probed[v]
	}
	e.inOrder, e.inOrderRows = values, rows
	return values, rows
}

// addProbed notes that at least n rows hold value v, found before the
// first load ended. vc.mu is held.
func (e *valueEntry) addProbed(v string, n int64) {
	if e.probed == nil {
		e.probed = map[string]int64{}
	}
	if old, ok := e.probed[v]; !ok || n > old {
		e.probed[v] = n
		e.inOrder, e.inOrderRows = nil, nil
	}
}

// forgetProbed drops what probes found, once a full load holds every
// value. vc.mu is held.
func (e *valueEntry) forgetProbed() {
	e.probed, e.inOrder, e.inOrderRows = nil, nil, nil
}

// Settle waits until the first rows of a column have been read, starting
// its load when none has started (at once when they have been, or the
// load has ended): Snapshot then holds all its values when its table has
// no more rows than that, else those of its first rows, which are all a
// probe would find. A question asked on a cold source knows as much
// whatever the speed of its database. ctx ending ends the wait, not the
// read.
func (vc *valueCache) Settle(ctx context.Context, c *model.Column) error {
	vc.mu.Lock()
	e := vc.entry(ctx, c)
	if e == nil {
		vc.mu.Unlock()
		return errClosed
	}
	head := e.head
	vc.mu.Unlock()
	if head == nil {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-head:
		return nil
	}
}

// Probe returns the values of column c that equal one of words without
// regard to case, with how many rows hold each as far as it read, without
// loading the column: a scan of the table's first rows (firstRows, within
// probeBudget) for just those words, the values of those rows once their
// read by the first load has ended, or the loaded values once there are.
// What it finds is kept for Snapshot until the first load ends. A word it
// does not return may still be a value of a row beyond the first.
func (vc *valueCache) Probe(ctx context.Context, c *model.Column, words []string) ([]string, []int64, error) {
	return vc.probe(ctx, c, words, false)
}

// ProbeTable is Probe over the whole table rather than its first rows,
// for the words a question could link to nothing else: a value named
// there may be in a row beyond the first (a customer among 50,000). It
// scans the table for those words only, within probeBudget, and returns
// what it found by then; once the column is loaded, the loaded values
// answer.
func (vc *valueCache) ProbeTable(ctx context.Context, c *model.Column, words []string) ([]string, []int64, error) {
	return vc.probe(ctx, c, words, true)
}

// probe is Probe, over the first rows or (whole) the whole table.
func (vc *valueCache) probe(ctx context.Context, c *model.Column, words []string, whole bool) ([]string, []int64, error) {
	want := map[string]bool{}
	for _, w := range words {
		if len(want) == maxProbeWords {
			break
		}
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			want[w] = true
		}
	}
	if len(want) == 0 {
		return nil, nil, nil
	}
	vc.mu.Lock()
	if e := vc.cols[c]; e != nil && (e.full || e.sampled && !whole) {
		known, counts := e.values, e.rows
		if !e.full {
			known, counts = e.probedValues()
		}
		vc.mu.Unlock() // the slices are never changed in place
		vals, rows := matchWords(want, known, counts)
		return vals, rows, nil
	}
	vc.mu.Unlock()
	limit := vc.firstRows
	if whole {
		limit = 0
	}
	found, err := vc.scan(ctx, c, want, limit)
	if err != nil {
		return nil, nil, err
	}
	vals := make([]string, 0, len(found))
	for v := range found {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	rows := make([]int64, len(vals))
	vc.mu.Lock()
	e := vc.cols[c]
	for i, v := range vals {
		rows[i] = found[v]
		if e != nil && !e.full {
			e.addProbed(v, found[v])
		}
	}
	vc.mu.Unlock()
	return vals, rows, nil
}

// matchWords returns the values of known that equal one of want (lower
// case) without regard to case, with their counts. While a wide source's
// columns load, every question looks its words up in all of them (240
// columns, up to 2.4 million values), so a value that cannot be a word is
// passed over without lower-casing it: one whose first byte, an ASCII
// one, starts no word, or whose length no word has while it holds only
// ASCII bytes (lower-casing keeps their number).
func matchWords(want map[string]bool, known []string, counts []int64) ([]string, []int64) {
	var first [utf8.RuneSelf]bool
	var lens [64]bool
	long := false
	for w := range want {
		if w[0] < utf8.RuneSelf {
			first[w[0]] = true
		}
		if len(w) < len(lens) {
			lens[len(w)] = true
		} else {
			long = true
		}
	}
	var vals []string
	var rows []int64
	for i, v := range known {
		if v == "" {
			continue
		}
		if b := v[0]; b < utf8.RuneSelf {
			if 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
			if !first[b] {
				continue
			}
		}
		if n := len(v); (n < len(lens) && !lens[n] || n >= len(lens) && !long) && isASCII(v) {
			continue
		}
		if want[strings.ToLower(v)] {
			vals, rows = append(vals, v), append(rows, counts[i])
		}
	}
	return vals, rows
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// scan reads the rows among the table's first limit (0: all of them)
// whose column c, lower-cased, is one of want (bound parameters), for at
// most probeBudget, and returns the values found with
// how many rows it saw hold each. It stops early once every word has been
// seen in two rows (enough to tell a shared name). Running out of time is
// no error: the values found so far are returned.
func (vc *valueCache) scan(ctx context.Context, c *model.Column, want map[string]bool, limit int) (map[string]int64, error) {
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	col := columnSQL(s.Target.Dialect, c)
	marks := make([]string, 0, len(want))
	args := make([]any, 0, len(want))
	for v := range want {
		marks = append(marks, placeholder(s.Target.Dialect, len(marks)+1))
		args = append(args, v)
	}
	from := fmt.Sprintf("(SELECT %s AS v FROM %s LIMIT %d)", col, w(c.Entity().TableName()), limit)
	if limit <= 0 {
		from = fmt.Sprintf("(SELECT %s AS v FROM %s)", col, w(c.Entity().TableName()))
	}
	q := fmt.Sprintf("SELECT v FROM %s AS h WHERE lower(v) IN (%s)", from, strings.Join(marks, ", "))
	pctx, cancel := context.WithTimeout(own(ctx), probeBudget)
	defer cancel()
	found := map[string]int64{}
	seen := map[string]int64{} // by word
	_, err := s.readOnly(pctx, func(qr queryer) (*Result, error) {
		return nil, eachRow(pctx, func() {}, qr, q, args, nil, func(r []any) bool {
			if r[0] == nil {
				return true
			}
			val := fmt.Sprint(r[0])
			found[val]++
			seen[strings.ToLower(val)]++
			return !allTwice(want, seen)
		})
	})
	if err != nil && pctx.Err() == nil {
		return nil, fmt.Errorf("probe values of %s.%s: %w", c.Entity().Name, c.Name, err)
	}
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err() // the caller gave up, not the budget
	}
	return found, nil
}

// allTwice reports whether every word has been seen in two rows.
func allTwice(want map[string]bool, seen map[string]int64) bool {
	for w := range want {
		if seen[w] < 2 {
			return false
		}
	}
	return true
}

// loadFirst loads a column's values for the first time, each read
// within ValueLoadTimeout, and remembers them or the error in e: its
// first rows, which are all of them on a small table; else, kept as
// probed values, they are what a question knows of the column until the
// whole table has been read, which waits for a statement of the source's
// users to end (or for deferAtMost), so as not to slow the first answer.
func (vc *valueCache) loadFirst(ctx context.Context, c *model.Column, e *valueEntry) {
	got, err := vc.loadHead(ctx, c)
	if err == nil && !got.whole {
		vc.mu.Lock()
		fresh := len(e.probed) == 0
		for i, v := range got.values {
			e.addProbed(v, got.rows[i])
		}
		if fresh && slices.IsSorted(got.values) {
			e.inOrder, e.inOrderRows = got.values, got.rows // as probedValues would make them
		}
		e.sampled = true
		close(e.head)
		e.head = nil
		vc.deferred++
		vc.mu.Unlock()
		vc.version.Add(1)
		vc.awaitUsers(ctx)
		vc.mu.Lock()
		vc.deferred--
		vc.mu.Unlock()
		got, err = vc.loadWithin(ctx, c, 0)
	}
	vc.mu.Lock()
	defer vc.mu.Unlock()
	e.loading = false
	e.loaded = vc.s.opt.Clock()
	close(e.first)
	e.first = nil
	if e.head != nil {
		close(e.head)
		e.head = nil
	}
	if err != nil {
		e.err = err
		vc.log.Warn("load values failed; matching without them", "source", vc.s.Name, "column", c.Entity().Name+"."+c.Name, "err", err)
		// what understanding knows changed: the values are not coming
		vc.version.Add(1)
		return
	}
	e.values, e.rows, e.mark, e.err = got.values, got.rows, got.mark, nil
	e.full, e.sampled = true, false
	e.forgetProbed()
	vc.version.Add(1)
}

// awaitUsers waits until a statement of the source's users has ended,
// or deferAtMost has passed with none running (else that statement's end
// is waited for), or ctx ends.
func (vc *valueCache) awaitUsers(ctx context.Context) {
	t := time.NewTimer(vc.deferAtMost)
	defer t.Stop()
	select {
	case <-vc.served:
		return
	case <-ctx.Done(): // the source is closing: the load after fails at once
		return
	case <-t.C:
	}
	if vc.users.Load() == 0 {
		return
	}
	select {
	case <-vc.served:
	case <-ctx.Done():
	}
}

// loadHead reads a column's first rows, one such read at a time.
func (vc *valueCache) loadHead(ctx context.Context, c *model.Column) (counted, error) {
	select {
	case vc.heads <- struct{}{}:
	case <-ctx.Done():
		return counted{}, ctx.Err()
	}
	defer func() { <-vc.heads }()
	vc.mu.Lock()
	got, ok := vc.takeHeld(c)
	if !ok {
		vc.headReads++
	}
	vc.mu.Unlock()
	if ok {
		return got, nil
	}
	cols := c.Entity().ValueColumns()
	if len(cols) < 2 || !slices.Contains(cols, c) {
		return vc.loadWithin(ctx, c, vc.firstRows)
	}
	all, err := vc.loadTableHeads(ctx, cols)
	if err != nil {
		return counted{}, err
	}
	now := time.Now()
	vc.mu.Lock()
	for col, got := range all {
		if col != c && vc.cols[col] != nil && vc.cols[col].head != nil {
			vc.held[col] = heldHead{got: got, at: now}
		}
	}
	vc.mu.Unlock()
	return all[c], nil
}

// loadWithin is load of all rows (first 0) or of the first rows, within
// ValueLoadTimeout.
func (vc *valueCache) loadWithin(ctx context.Context, c *model.Column, first int) (counted, error) {
	read := func(ctx context.Context) (counted, error) {
		ctx, cancel := context.WithTimeout(ctx, vc.s.opt.ValueLoadTimeout)
		defer cancel()
		return vc.load(ctx, c, nil, first)
	}
	if first > 0 {
		return read(ctx)
	}
	return vc.scan1(ctx, read)
}

// scan1 runs read, a read of a whole table's column, when no other such
// read of the source runs; its time limit starts then, not while it waits.
func (vc *valueCache) scan1(ctx context.Context, read func(context.Context) (counted, error)) (counted, error) {
	select {
	case vc.scans <- struct{}{}:
	case <-ctx.Done():
		return counted{}, ctx.Err()
	}
	vc.mu.Lock()
	vc.scanning++
	vc.scanPeak = max(vc.scanPeak, vc.scanning)
	vc.mu.Unlock()
	defer func() {
		vc.mu.Lock()
		vc.scanning--
		vc.mu.Unlock()
		<-vc.scans
	}()
	return read(ctx)
}

// countOf reads a COUNT(*) as the drivers return it.
func countOf(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case []byte:
		n, _ := strconv.ParseInt(string(x), 10, 64)
		return n
	case string:
		n, _ := strconv.ParseInt(x, 10, 64)
		return n
	}
	return 0
}

// markOf returns the column of c's entity that grows with each new row, as
// SQL: its key when it is an integer, else its time column when that is a
// date or timestamp of its own. ok is false when it has neither.
func markOf(d model.Dialect, c *model.Column) (string, bool) {
	e := c.Entity()
	if k := e.KeyColumn(); k != nil && !k.Computed() && k.Type == "integer" {
		return d.QuoteIdent(k.Name), true
	}
	if e.TimeColumn == "" || strings.Contains(e.TimeColumn, ".") {
		return "", false
	}
	if t := e.Column(e.TimeColumn); t != nil && !t.Computed() && (t.Type == "date" || t.Type == "timestamp") {
		return d.QuoteIdent(t.Name), true
	}
	return "", false
}

// load reads a column's distinct values (a computed column's expression
// is evaluated) with their row counts, at most MaxIndexedValues of them,
// and the highest mark of the rows it read: all rows when since is nil,
// else only those whose mark is beyond since; with first > 0, only the
// table's first rows, that many (whole: the table has fewer), on the
// metadata pool, as a probe reads them: a read of bounded size, which
// leaves the statement pool's connections to the answers.
func (vc *valueCache) load(ctx context.Context, c *model.Column, since any, first int) (counted, error) {
	ctx = own(ctx)
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	col := columnSQL(s.Target.Dialect, c)
	capN := s.opt.MaxIndexedValues
	mark, marked := markOf(s.Target.Dialect, c)
	var q string
	var args []any
	if first > 0 {
		// NULLs are a group of their own here: their rows count toward
		// whether the table had fewer than first
		inner, sel := "SELECT "+col+" AS v", ""
		if marked {
			inner, sel = inner+", "+mark+" AS m", ", MAX(m)"
		}
		q = fmt.Sprintf("SELECT v, COUNT(*)%s FROM (%s FROM %s LIMIT %d) AS h GROUP BY v ORDER BY 1 LIMIT %d",
			sel, inner, w(c.Entity().TableName()), first, capN+2)
	} else {
		sel, where := "", ""
		if marked {
			sel = ", MAX(" + mark + ")"
			if since != nil {
				where, args = " AND "+mark+" > "+placeholder(s.Target.Dialect, 1), []any{since}
			}
		}
		q = fmt.Sprintf("SELECT %s, COUNT(*)%s FROM %s WHERE %s IS NOT NULL%s GROUP BY %s ORDER BY 1 LIMIT %d",
			col, sel, w(c.Entity().TableName()), col, where, col, capN+1)
	}
	run := s.Query
	if first > 0 {
		run = s.metaQuery
	}
	res, err := run(ctx, q, args, capN+2)
	if err != nil {
		return counted{}, err
	}
	got := counted{values: make([]string, 0, len(res.Rows)), rows: make([]int64, 0, len(res.Rows)), whole: true}
	read := int64(0)
	for _, r := range res.Rows {
		n := countOf(r[1])
		read += n
		if marked && r[2] != nil && (got.mark == nil || greater(r[2], got.mark)) {
			got.mark = r[2]
		}
		if r[0] == nil {
			continue
		}
		got.values = append(got.values, fmt.Sprint(r[0]))
		got.rows = append(got.rows, n)
	}
	if first > 0 {
		// every group came back, and they hold fewer rows than first:
		// the table ended before
		got.whole = len(res.Rows) < capN+2 && read < int64(first)
	}
	if vc.capTo(c, &got, capN) {
		return got, nil
	}
	if since != nil && got.mark == nil {
		got.mark = since // no new rows: the mark stays
	}
	return got, nil
}

// capTo keeps the first capN values of a read of c (in order) and reports
// whether it left any out, warning then: the rows of the values left out
// were read too, so a mark would skip them for good — it is dropped, and
// the next refresh reads everything again.
func (vc *valueCache) capTo(c *model.Column, got *counted, capN int) bool {
	if len(got.values) <= capN {
		return false
	}
	vc.log.Warn("column has more distinct values than are indexed", "column", c.Entity().Name+"."+c.Name, "indexed", capN)
	got.values, got.rows = got.values[:capN], got.rows[:capN]
	got.mark, got.capped = nil, true
	return true
}

// columnSQL is c as a value in a statement on its table: its quoted name,
// or its expression when it is computed.
func columnSQL(d model.Dialect, c *model.Column) string {
	if c.Computed() {
		return "(" + c.Expr.For(d) + ")"
	}
	return d.QuoteIdent(c.Name)
}

// greater compares two marks as the drivers return them: integers as
// numbers, times as their text (ISO order).
func greater(a, b any) bool {
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			return x > y
		}
	}
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok {
			return x > y
		}
	}
	return fmt.Sprint(a) > fmt.Sprint(b)
}

// RowsWith returns the key and the given columns of the rows whose column
// c holds value, bound as a parameter, in key order (not cached: asked only
// when a name fits several rows).
func (vc *valueCache) RowsWith(ctx context.Context, c *model.Column, value string, cols []string, limit int) ([][]string, error) {
	s := vc.s
	e := c.Entity()
	w := s.Target.Dialect.QuoteIdent
	if e.Key == "" {
		return nil, fmt.Errorf("%s has no key to tell its rows apart", e.Name)
	}
	sel := w(e.Key)
	for _, n := range cols {
		sel += ", " + w(n)
	}
	col := columnSQL(s.Target.Dialect, c)
	mark := placeholder(s.Target.Dialect, 1)
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s = %s ORDER BY %s LIMIT %d", sel, w(e.TableName()), col, mark, w(e.Key), limit)
	res, err := s.Query(own(ctx), q, []any{value}, limit)
	if err != nil {
		return nil, err
	}
	return textRows(res.Rows), nil
}

// Rows returns the key and the given columns of an entity's rows in key
// order (cached like values).
func (vc *valueCache) Rows(ctx context.Context, e *model.Entity, cols []string, limit int) ([][]string, error) {
	key := fmt.Sprintf("%s|%v|%d", e.Name, cols, limit)
	now := vc.s.opt.Clock()
	vc.mu.Lock()
	if r, ok := vc.rows[key]; ok && now.Sub(r.loaded) < vc.s.opt.ValueTTL {
		vc.mu.Unlock()
		return r.rows, nil
	}
	vc.mu.Unlock()
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	sel := w(e.Key)
	for _, c := range cols {
		sel += ", " + w(c)
	}
	q := fmt.Sprintf("SELECT %s FROM %s ORDER BY %s LIMIT %d", sel, w(e.TableName()), w(e.Key), limit)
	res, err := s.Query(own(ctx), q, nil, limit)
	if err != nil {
		return nil, err
	}
	out := textRows(res.Rows)
	vc.mu.Lock()
	vc.rows[key] = &rowsEntry{rows: out, loaded: now}
	vc.mu.Unlock()
	return out, nil
}

// RowsByKey returns the key and the given columns of the entity's rows
// whose key is one of keys (bound, never SQL text), in key order, at most
// limit of them: the rows a user limited to some scope values may be
// offered. Not cached: the keys differ from user to user.
func (vc *valueCache) RowsByKey(ctx context.Context, e *model.Entity, cols []string, keys []string, limit int) ([][]string, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	if e.Key == "" {
		return nil, fmt.Errorf("%s has no key to tell its rows apart", e.Name)
	}
	if len(keys) > limit {
		keys = keys[:limit] // the caller sorted them; the rest are typed, not listed
	}
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	sel := w(e.Key)
	for _, c := range cols {
		sel += ", " + w(c)
	}
	marks := make([]string, len(keys))
	args := make([]any, len(keys))
	for i, k := range keys {
		marks[i] = placeholder(s.Target.Dialect, i+1)
		args[i] = k
	}
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s IN (%s) ORDER BY %s LIMIT %d",
		sel, w(e.TableName()), w(e.Key), strings.Join(marks, ", "), w(e.Key), limit)
	res, err := s.Query(own(ctx), q, args, limit)
	if err != nil {
		return nil, err
	}
	return textRows(res.Rows), nil
}

// placeholder is the dialect's mark for the n-th bound parameter.
func placeholder(d model.Dialect, n int) string {
	if d == model.Postgres {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// textRows writes each cell as text; NULL is "".
func textRows(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, v := range r {
			if v != nil {
				out[i][j] = fmt.Sprint(v)
			}
		}
	}
	return out
}
