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

	"github.com/clarify-sql/clarify/internal/model"
)

// valueCache holds the distinct values of database-sourced columns and the
// rows scope questions list. Entries expire after a TTL; an expired entry
// is still served while a background refresh runs (stale-while-revalidate).
// When the database cannot be reached, the error is remembered for a short
// backoff and understanding goes on without those values.
//
// A column's first load never makes understanding wait: Snapshot starts it
// in the background and answers at once with what the cache has, and Probe
// looks the words of one question up in the column with a bounded query
// (probeBudget) until the load is done. Values and CountedValues, for
// callers that need the whole list, still wait for the first load.
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
	// probed are the values probes found, with the rows they saw hold
	// each (at least that many), until the first load ends
	probed map[string]int64
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
	// probeBudget bounds a probe: the rows a scan reads in this time are
	// searched, and a word not found by then is not a value as far as
	// this question knows.
	probeBudget = 100 * time.Millisecond
	// maxProbeWords bounds the words (phrases) one probe looks up.
	maxProbeWords = 256
)

func newValueCache(s *Source) *valueCache {
	return &valueCache{s: s, cols: map[*model.Column]*valueEntry{}, rows: map[string]*rowsEntry{}, log: slog.Default()}
}

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
	got, err := vc.load(ctx, c, since)
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
		e.full, e.probed = true, nil
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
	e := &valueEntry{loading: true, first: make(chan struct{})}
	// detached from any one caller and owned by the source: a caller
	// that gives up (its client went away) does not stop it, and closing
	// the source does
	if !vc.bg.run(ctx, func(bctx context.Context) { vc.loadFirst(bctx, c, e) }) {
		return nil
	}
	vc.cols[c] = e
	return e
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
	values = make([]string, 0, len(e.probed))
	for v := range e.probed {
		values = append(values, v)
	}
	slices.Sort(values)
	rows = make([]int64, len(values))
	for i, v := range values {
		rows[i] = e.probed[v]
	}
	if e.first == nil {
		err = e.err
	}
	return values, rows, false, err
}

// Probe returns the values of column c that equal one of words without
// regard to case, with how many rows hold each as far as it read, without
// loading the column: a scan for just those words, bounded by
// probeBudget, or the loaded values once there are. What it finds is kept
// for Snapshot until the first load ends. A word it does not return may
// still be a value the scan did not reach in time.
func (vc *valueCache) Probe(ctx context.Context, c *model.Column, words []string) ([]string, []int64, error) {
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
	if e := vc.cols[c]; e != nil && e.full {
		var vals []string
		var rows []int64
		for i, v := range e.values {
			if want[strings.ToLower(v)] {
				vals, rows = append(vals, v), append(rows, e.rows[i])
			}
		}
		vc.mu.Unlock()
		return vals, rows, nil
	}
	vc.mu.Unlock()
	found, err := vc.scan(ctx, c, want)
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
			if e.probed == nil {
				e.probed = map[string]int64{}
			}
			e.probed[v] = max(e.probed[v], found[v])
		}
	}
	vc.mu.Unlock()
	return vals, rows, nil
}

// scan reads the rows whose column c, lower-cased, is one of want (bound
// parameters), for at most probeBudget, and returns the values found with
// how many rows it saw hold each. It stops early once every word has been
// seen in two rows (enough to tell a shared name). Running out of time is
// no error: the values found so far are returned.
func (vc *valueCache) scan(ctx context.Context, c *model.Column, want map[string]bool) (map[string]int64, error) {
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	col := w(c.Name)
	if c.Computed() {
		col = "(" + c.Expr.For(s.Target.Dialect) + ")"
	}
	marks := make([]string, 0, len(want))
	args := make([]any, 0, len(want))
	for v := range want {
		marks = append(marks, placeholder(s.Target.Dialect, len(marks)+1))
		args = append(args, v)
	}
	q := fmt.Sprintf("SELECT %s FROM %s WHERE lower(%s) IN (%s)", col, w(c.Entity().TableName()), col, strings.Join(marks, ", "))
	pctx, cancel := context.WithTimeout(ctx, probeBudget)
	defer cancel()
	found := map[string]int64{}
	seen := map[string]int64{} // by word
	_, err := s.readOnly(pctx, func(qr queryer) (*Result, error) {
		rows, err := qr.QueryContext(pctx, q, args...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		cts, err := rows.ColumnTypes()
		if err != nil {
			return nil, err
		}
		typ := strings.ToUpper(cts[0].DatabaseTypeName())
		for rows.Next() {
			var v any
			if err := rows.Scan(&v); err != nil {
				return nil, err
			}
			if v == nil {
				continue
			}
			val := fmt.Sprint(normalize(v, typ))
			found[val]++
			seen[strings.ToLower(val)]++
			if allTwice(want, seen) {
				return nil, nil
			}
		}
		return nil, rows.Err()
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

// loadFirst loads a column's values for the first time, within
// ValueLoadTimeout, and remembers them or the error in e.
func (vc *valueCache) loadFirst(ctx context.Context, c *model.Column, e *valueEntry) {
	lctx, cancel := context.WithTimeout(ctx, vc.s.opt.ValueLoadTimeout)
	defer cancel()
	got, err := vc.load(lctx, c, nil)
	vc.mu.Lock()
	defer vc.mu.Unlock()
	e.loading = false
	e.loaded = vc.s.opt.Clock()
	close(e.first)
	e.first = nil
	if err != nil {
		e.err = err
		vc.log.Warn("load values failed; matching without them", "source", vc.s.Name, "column", c.Entity().Name+"."+c.Name, "err", err)
		// what understanding knows changed: the values are not coming
		vc.version.Add(1)
		return
	}
	e.values, e.rows, e.mark, e.err = got.values, got.rows, got.mark, nil
	e.full, e.probed = true, nil
	vc.version.Add(1)
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
// else only those whose mark is beyond since.
func (vc *valueCache) load(ctx context.Context, c *model.Column, since any) (counted, error) {
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	col := w(c.Name)
	if c.Computed() {
		col = "(" + c.Expr.For(s.Target.Dialect) + ")"
	}
	capN := s.opt.MaxIndexedValues
	mark, marked := markOf(s.Target.Dialect, c)
	sel, where, args := "", "", []any(nil)
	if marked {
		sel = ", MAX(" + mark + ")"
		if since != nil {
			where, args = " AND "+mark+" > "+placeholder(s.Target.Dialect, 1), []any{since}
		}
	}
	q := fmt.Sprintf("SELECT %s, COUNT(*)%s FROM %s WHERE %s IS NOT NULL%s GROUP BY %s ORDER BY 1 LIMIT %d",
		col, sel, w(c.Entity().TableName()), col, where, col, capN+1)
	res, err := s.Query(ctx, q, args, capN+1)
	if err != nil {
		return counted{}, err
	}
	got := counted{values: make([]string, 0, len(res.Rows)), rows: make([]int64, 0, len(res.Rows))}
	for _, r := range res.Rows {
		got.values = append(got.values, fmt.Sprint(r[0]))
		got.rows = append(got.rows, countOf(r[1]))
		if marked && r[2] != nil && (got.mark == nil || greater(r[2], got.mark)) {
			got.mark = r[2]
		}
	}
	if len(got.values) > capN {
		vc.log.Warn("column has more distinct values than are indexed", "column", c.Entity().Name+"."+c.Name, "indexed", capN)
		got.values, got.rows = got.values[:capN], got.rows[:capN]
		// the rows of the values left out were read too: a mark would
		// skip them for good, so the next refresh reads everything again
		got.mark, got.capped = nil, true
		return got, nil
	}
	if since != nil && got.mark == nil {
		got.mark = since // no new rows: the mark stays
	}
	return got, nil
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
	col := w(c.Name)
	if c.Computed() {
		col = "(" + c.Expr.For(s.Target.Dialect) + ")"
	}
	mark := placeholder(s.Target.Dialect, 1)
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s = %s ORDER BY %s LIMIT %d", sel, w(e.TableName()), col, mark, w(e.Key), limit)
	res, err := s.Query(ctx, q, []any{value}, limit)
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
	res, err := s.Query(ctx, q, nil, limit)
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
	res, err := s.Query(ctx, q, args, limit)
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
