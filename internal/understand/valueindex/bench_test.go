package valueindex_test

import (
	"fmt"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// wideColumns returns the stored values of a wide source: per table, a
// name column of distinct values that share their words ("gamma-1234"),
// a category of twelve words and a status of three.
func wideColumns(tables, rows int) (cols []*model.Column, vals [][]string) {
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}
	status := []string{"open", "closed", "pending"}
	for t := range tables {
		names, cats := make([]string, rows), make([]string, len(words))
		for i := range rows {
			names[i] = fmt.Sprintf("%s-%d", words[(i+t)%len(words)], i)
		}
		for i, w := range words {
			cats[i] = fmt.Sprintf("%s services", w)
		}
		for _, v := range [][]string{names, cats, status} {
			cols = append(cols, &model.Column{Name: fmt.Sprintf("t%d_c%d", t, len(cols))})
			vals = append(vals, v)
		}
	}
	return cols, vals
}

// BenchmarkBuild times building the index of a wide source's stored
// values (80 tables of 10,000 names each), as a first question does.
func BenchmarkBuild(b *testing.B) {
	cols, vals := wideColumns(80, 10000)
	noise := map[string]bool{"t": true}
	b.ReportAllocs()
	for b.Loop() {
		x := valueindex.New()
		for i, c := range cols {
			for j, v := range vals[i] {
				x.AddCounted(c, v, int64(j%7), noise)
			}
		}
		x.Seal()
	}
}
