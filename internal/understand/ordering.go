// Ordering, after the period: how a list is sorted ("sorted by date of
// birth", "oldest first", "alphabetically").

package understand

import (
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// ordering reads how a list is to be sorted: "sorted by date of birth",
// "oldest first", "alphabetically". Other intents order by what they
// compute.
func (b *builder) ordering() {
	q := b.q
	if q.Intent != query.IntentList || len(q.Order) > 0 || q.Base == nil {
		return
	}
	var col *model.Column
	desc, dirSaid := false, false
	for i, m := range b.ms {
		switch m.kind {
		case kOrder:
			if _, n := b.next(i); n != nil && n.kind == kColumn && col == nil {
				if c := n.entry().column; b.a.model.Reachable(q.Base, c.Entity()) {
					col = c
					n.used = true
				}
			}
			m.used = true
		case kDesc:
			desc, dirSaid = true, true
			m.used = true
		case kAsc:
			if m.entry().op == "alpha" && col == nil {
				col = q.Base.DisplayColumn()
			}
			desc, dirSaid = false, true
			m.used = true
		}
	}
	if col == nil && dirSaid {
		// "oldest first": by the rows' own date
		if tc := b.a.model.TimeColumn(q.Base); tc != nil && tc.Entity() == q.Base {
			col = tc
		}
	}
	if col != nil {
		q.Order = []query.Order{{Column: col, Desc: desc}}
	}
}
