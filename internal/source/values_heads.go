package source

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
)

// A cold source's first question waits for the first read of every
// column whose values understanding reads (values.go). A table with
// several such columns is read once for all of them: its first rows,
// counted here, not grouped by the database once per column — on a wide
// SQLite database the per-column GROUP BYs were sorts of the same rows,
// 240 of them for 80 tables, and the first question's wait for them ran
// past its bound. The reads of the table's other columns are kept until
// their own loads take them (heldHeadAge at most).

// heldHeadAge is how long a first read made for a sibling column waits
// to be taken; an older one is read again.
const heldHeadAge = time.Minute

// heldHead is a first read of a column made with its table's.
type heldHead struct {
	got counted
	at  time.Time
}

// takeHeld returns the first read of c made with its table's, if one is
// held and young enough, and forgets it. vc.mu is held.
func (vc *valueCache) takeHeld(c *model.Column) (counted, bool) {
	h, ok := vc.held[c]
	if !ok {
		return counted{}, false
	}
	delete(vc.held, c)
	return h.got, time.Since(h.at) < heldHeadAge
}

// loadTableHeads reads the first rows of the table of cols (columns of
// one entity) once, within ValueLoadTimeout, and counts each column's
// values in them, as load does with first > 0 for one column.
func (vc *valueCache) loadTableHeads(ctx context.Context, cols []*model.Column) (map[*model.Column]counted, error) {
	ctx, cancel := context.WithTimeout(own(ctx), vc.s.opt.ValueLoadTimeout)
	defer cancel()
	s := vc.s
	d := s.Target.Dialect
	sel := make([]string, 0, len(cols)+1)
	for i, c := range cols {
		sel = append(sel, fmt.Sprintf("%s AS v%d", columnSQL(d, c), i))
	}
	mark, marked := markOf(d, cols[0])
	if marked {
		sel = append(sel, mark+" AS m")
	}
	first := vc.firstRows
	q := fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(sel, ", "), d.QuoteIdent(cols[0].Entity().TableName()), first)
	// the rows are counted as they come, not kept: a wide database's
	// first question waits for 80 such reads
	counts := make([]map[string]int64, len(cols))
	nulls := make([]bool, len(cols))
	for i := range counts {
		counts[i] = map[string]int64{}
	}
	var top any
	read := 0
	err := s.metaEach(ctx, q, nil, func(r []any) {
		read++
		for i := range cols {
			switch v := r[i].(type) {
			case nil:
				nulls[i] = true
			case string:
				counts[i][v]++
			default:
				counts[i][fmt.Sprint(v)]++
			}
		}
		if m := r[len(r)-1]; marked && m != nil && (top == nil || greater(m, top)) {
			top = m
		}
	})
	if err != nil {
		return nil, err
	}
	capN := s.opt.MaxIndexedValues
	out := make(map[*model.Column]counted, len(cols))
	for i, c := range cols {
		n := counts[i]
		groups := len(n)
		if nulls[i] {
			groups++
		}
		got := counted{values: make([]string, 0, len(n)), mark: top,
			whole: read < first && groups < capN+2}
		for v := range n {
			got.values = append(got.values, v)
		}
		slices.Sort(got.values)
		got.rows = make([]int64, len(got.values))
		for j, v := range got.values {
			got.rows[j] = n[v]
		}
		vc.capTo(c, &got, capN)
		out[c] = got
	}
	return out, nil
}
