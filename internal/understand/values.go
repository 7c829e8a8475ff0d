package understand

import (
	"context"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// Catalog supplies what understanding needs from the database: the allowed
// values of database-sourced columns and the rows a scope question lists.
// Implementations cache (package source); understanding never blocks on a
// refresh once values are known.
type Catalog interface {
	// Version changes whenever any column's values change; it is cheap and
	// may start background refreshes of expired values.
	Version(ctx context.Context) uint64
	// Values returns the distinct values of a column. When the database is
	// unreachable it returns an error and understanding goes on without them.
	Values(ctx context.Context, c *model.Column) ([]string, error)
	// Rows returns the key and the given columns of an entity's rows in key
	// order, at most limit of them.
	Rows(ctx context.Context, e *model.Entity, cols []string, limit int) ([][]string, error)
}

// storedValues is one load of the stored values: their index, and the
// columns whose values could not be loaded (the database was unreachable).
type storedValues struct {
	idx    *valueindex.Index
	failed map[*model.Column]error
}

// buildValueIndex indexes the static values of the model and, through the
// catalog, the database-sourced ones. Columns whose values cannot be loaded
// are recorded in failed and skipped: understanding goes on without them.
func buildValueIndex(ctx context.Context, m *model.Model, cat Catalog, lex *lexicon) *storedValues {
	x := valueindex.New()
	failed := map[*model.Column]error{}
	for _, e := range m.Entities {
		noise := map[string]bool{}
		for _, w := range entityWords(e) {
			for _, s := range strings.Fields(text.StemPhrase(w)) {
				noise[s] = true
			}
		}
		for _, c := range e.Columns {
			if c.Values == nil {
				continue
			}
			for _, it := range c.Values.Items {
				x.Add(c, it.Value, noise)
			}
			if c.FromDatabase() && cat != nil {
				vals, err := cat.Values(ctx, c)
				if err != nil {
					failed[c] = err
					continue
				}
				for _, v := range vals {
					x.Add(c, v, noise)
				}
			}
		}
	}
	// the model's own words take part in typo correction too, and the
	// long built-in words a question turns on ("hihgest")
	for w := range lex.words {
		if !x.HasWord(w) {
			x.AddTypoTarget(w)
		}
	}
	for _, w := range typoTargets {
		if !x.HasWord(w) && !lex.words[w] {
			x.AddTypoTarget(w)
		}
	}
	return &storedValues{idx: x, failed: failed}
}
