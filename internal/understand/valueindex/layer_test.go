package valueindex_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// layerValue is one value added to an index under test.
type layerValue struct {
	col   *model.Column
	value string
	rows  int64
}

// TestLayerFindsAsOneIndex checks that an index with values added in a
// layer (and a layer over that layer) finds every value as one index
// built with all of them does, under the same ids, and that the base
// index does not see what its layers hold.
func TestLayerFindsAsOneIndex(t *testing.T) {
	t.Parallel()
	kind, name, status := &model.Column{Name: "kind"}, &model.Column{Name: "name"}, &model.Column{Name: "status"}
	base := []layerValue{{kind, "Road Bikes", 4}, {kind, "Mountain Bikes", 2}, {kind, "Kids Bikes", 1},
		{name, "Tesla Energy Storage", 1}, {status, "in_repair", 3}, {status, "Healing", 5}}
	first := []layerValue{{kind, "Gravel Bikes", 1}, {name, "Tesla, Inc.", 2}, {name, "Vitamin D3", 1},
		{status, "Healing", 9}} // already in the base: kept once
	second := []layerValue{{name, "25-OH Vitamin D", 1}, {name, "Pateints Portal", 1}}
	add := func(x *valueindex.Index, vs []layerValue) {
		for _, v := range vs {
			x.AddCounted(v.col, v.value, v.rows, nil)
		}
		x.Seal()
	}
	flat := valueindex.New()
	add(flat, append(append(append([]layerValue{}, base...), first...), second...))
	under := valueindex.New()
	add(under, base)
	one := under.Layer()
	add(one, first)
	two := one.Layer()
	add(two, second)

	phrases := []string{"road bikes", "road bike", "gravel bike", "gravel", "bikes", "tesla", "tesla inc", "vitamin d", "vitamin d3",
		"healing", "in repair", "mountain", "25 oh vitamin d", "portal"}
	type found struct {
		Exact   map[int][]string
		Partial []string
		Cover   []float64
	}
	lookups := func(x *valueindex.Index) map[string]found {
		out := map[string]found{}
		for _, p := range phrases {
			texts, stems := question(p)
			f := found{Exact: map[int][]string{}}
			for l, h := range x.Exact(texts, stems, 0) {
				f.Exact[l] = values(x, h.IDs)
			}
			for _, m := range x.Partial(stems) {
				f.Partial = append(f.Partial, x.Entry(m.ID).Value)
				f.Cover = append(f.Cover, m.Coverage)
			}
			out[p] = f
		}
		return out
	}
	if d := cmp.Diff(lookups(flat), lookups(two)); d != "" {
		t.Errorf("a layer over a layer finds otherwise than one index (-one +layered):\n%s", d)
	}
	for _, c := range []*model.Column{kind, name, status} {
		if got, want := two.ColumnSize(c), flat.ColumnSize(c); got != want {
			t.Errorf("ColumnSize(%s) = %d in layers, %d in one index", c.Name, got, want)
		}
	}
	for _, w := range []string{"patients", "portal", "gravel"} {
		gf, okf := flat.Correct(w)
		gl, okl := two.Correct(w)
		if gf != gl || okf != okl {
			t.Errorf("Correct(%q) = %q %v in layers, %q %v in one index", w, gl, okl, gf, okf)
		}
	}
	if !two.HasWord("gravel") || !two.HasStem("road") || !two.KindWord("bike") {
		t.Error("the layers lack a word of theirs or of the base")
	}
	if two.Entry(3).Value != "Tesla Energy Storage" || two.Entry(4).Rows != 3 {
		t.Errorf("the base's ids changed in the layers: 3 = %q, 4 holds %d rows", two.Entry(3).Value, two.Entry(4).Rows)
	}
	texts, stems := question("gravel")
	if under.HasWord("gravel") || len(under.Exact(texts, stems, 0)) > 0 || under.ColumnSize(kind) != 3 {
		t.Error("the base index sees a value added to its layer")
	}
}

// TestOutside checks that values left out of an index count in its
// column's size, in its layers too.
func TestOutside(t *testing.T) {
	t.Parallel()
	name := &model.Column{Name: "name"}
	x := build(name, "Ada", "Grace")
	x.Outside(name, 1000)
	x.Seal()
	l := x.Layer()
	l.Add(name, "Edsger", nil)
	l.Seal()
	if x.ColumnSize(name) != 1002 || l.ColumnSize(name) != 1003 {
		t.Errorf("ColumnSize = %d, %d in its layer; want 1002, 1003", x.ColumnSize(name), l.ColumnSize(name))
	}
}
