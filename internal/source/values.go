package source

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/clarify-sql/clarify/internal/model"
)

// valueCache holds the distinct values of database-sourced columns and the
// rows scope questions list. Entries expire after a TTL; an expired entry
// is still served while a background refresh runs (stale-while-revalidate).
// When the database cannot be reached, the error is remembered for a short
// backoff and understanding goes on without those values.
type valueCache struct {
	s       *Source
	mu      sync.Mutex
	cols    map[*model.Column]*valueEntry
	rows    map[string]*rowsEntry
	version atomic.Uint64
	// bg runs refreshes and first loads; the source's Close stops them
	bg    background
	first singleflight.Group // first loads, one per column
	// Log receives warnings (capped columns, unreachable database).
	log *slog.Logger
}

type valueEntry struct {
	values  []string
	rows    []int64 // how many rows hold each value
	loaded  time.Time
	err     error
	loading bool
}

// counted is one load of a column's values with their row counts.
type counted struct {
	values []string
	rows   []int64
}

type rowsEntry struct {
	rows   [][]string
	loaded time.Time
}

// retryAfter is how long a failed load is remembered before trying again.
const retryAfter = 30 * time.Second

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
			e.loading = vc.bg.run(ctx, func(ctx context.Context) { vc.refresh(ctx, c) })
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

func (vc *valueCache) refresh(ctx context.Context, c *model.Column) {
	got, err := vc.load(ctx, c)
	vc.mu.Lock()
	e := vc.cols[c]
	e.loading = false
	e.loaded = vc.s.opt.Clock()
	if err != nil {
		// keep serving the stale values; retry later
		e.err = err
		vc.log.Warn("refresh values failed; serving stale values", "source", vc.s.Name, "column", c.Entity().Name+"."+c.Name, "err", err)
	} else {
		e.values, e.rows, e.err = got.values, got.rows, nil
		vc.version.Add(1)
	}
	vc.mu.Unlock()
}

// Values returns a column's distinct values, loading them on first use.
func (vc *valueCache) Values(ctx context.Context, c *model.Column) ([]string, error) {
	vals, _, err := vc.CountedValues(ctx, c)
	return vals, err
}

// CountedValues returns a column's distinct values and, for each, how many
// rows hold it (a name that several customers share), loading them on
// first use.
func (vc *valueCache) CountedValues(ctx context.Context, c *model.Column) ([]string, []int64, error) {
	// a caller that has already given up gets its own error, whatever is
	// cached or loading: select below picks at random between two ready cases
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	vc.mu.Lock()
	e, ok := vc.cols[c]
	if ok && (e.values != nil || e.loading || e.err != nil) {
		vals, rows, err := e.values, e.rows, e.err
		vc.mu.Unlock()
		if vals != nil {
			return vals, rows, nil
		}
		return nil, nil, err
	}
	vc.mu.Unlock()
	// one load per column however many turns want it, detached from any
	// one caller and owned by the source: a caller that gives up (its
	// client went away) returns at once, its cancellation is never
	// remembered as the column's error, and closing the source stops it
	ch := make(chan singleflight.Result, 1)
	started := vc.bg.run(ctx, func(bctx context.Context) {
		v, err, shared := vc.first.Do(c.Entity().Name+"."+c.Name, func() (any, error) {
			return vc.loadFirst(bctx, c)
		})
		ch <- singleflight.Result{Val: v, Err: err, Shared: shared}
	})
	if !started {
		return nil, nil, errClosed
	}
	select {
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return nil, nil, r.Err
		}
		got := r.Val.(counted)
		return got.values, got.rows, nil
	}
}

// loadFirst loads a column's values for the first time, within
// ValueLoadTimeout, and remembers them or the error.
func (vc *valueCache) loadFirst(ctx context.Context, c *model.Column) (any, error) {
	lctx, cancel := context.WithTimeout(ctx, vc.s.opt.ValueLoadTimeout)
	defer cancel()
	got, err := vc.load(lctx, c)
	vc.mu.Lock()
	defer vc.mu.Unlock()
	vc.cols[c] = &valueEntry{values: got.values, rows: got.rows, loaded: vc.s.opt.Clock(), err: err}
	if err != nil {
		vc.log.Warn("load values failed; matching without them", "source", vc.s.Name, "column", c.Entity().Name+"."+c.Name, "err", err)
		return nil, err
	}
	vc.version.Add(1)
	return got, nil
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

// load reads a column's distinct values (a computed column's expression
// is evaluated) with their row counts, at most MaxIndexedValues of them.
func (vc *valueCache) load(ctx context.Context, c *model.Column) (counted, error) {
	s := vc.s
	w := s.Target.Dialect.QuoteIdent
	col := w(c.Name)
	if c.Computed() {
		col = "(" + c.Expr.For(s.Target.Dialect) + ")"
	}
	capN := s.opt.MaxIndexedValues
	q := fmt.Sprintf("SELECT %s, COUNT(*) FROM %s WHERE %s IS NOT NULL GROUP BY %s ORDER BY 1 LIMIT %d",
		col, w(c.Entity().TableName()), col, col, capN+1)
	res, err := s.Query(ctx, q, nil, capN+1)
	if err != nil {
		return counted{}, err
	}
	got := counted{values: make([]string, 0, len(res.Rows)), rows: make([]int64, 0, len(res.Rows))}
	for _, r := range res.Rows {
		got.values = append(got.values, fmt.Sprint(r[0]))
		got.rows = append(got.rows, countOf(r[1]))
	}
	if len(got.values) > capN {
		vc.log.Warn("column has more distinct values than are indexed", "column", c.Entity().Name+"."+c.Name, "indexed", capN)
		got.values, got.rows = got.values[:capN], got.rows[:capN]
	}
	return got, nil
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
