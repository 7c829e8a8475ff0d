package valueindex

import "github.com/clarify-sql/clarify/internal/model"

// A source's first question must not wait for an index of every value
// of a wide database (800,000 names took seconds to index), nor should a
// question whose words a probe found in the database make the whole index
// be built again. A layer is a small index over a big sealed one: it
// holds only the values added to it, and its lookups find the base's
// values too, under the base's ids.

// Layer returns an index that finds x's values and those added to it,
// leaving x as it is, so that adding a few values to a big index costs
// only theirs. x must be sealed. A layer over a layer is made over the
// same base with the upper layer's values in it again, so a lookup never
// goes down more than one layer. Seal the layer once its values are
// added.
func (x *Index) Layer() *Index {
	base, own := x, []Entry(nil)
	if x.base != nil {
		base, own = x.base, x.vals
	}
	y := NewSized(len(own))
	y.base, y.off, y.maxLen = base, base.off+int32(len(base.vals)), base.maxLen
	if x.base != nil {
		// a base's own left-out values are counted through y.base
		for c, n := range x.outside {
			y.Outside(c, n)
		}
	}
	for _, e := range own {
		y.add(e.Column, e.Value, e.Rows, nil, e.core)
	}
	return y
}

// exactIDs returns the values whose stemmed phrase is key, the base's
// first.
func (x *Index) exactIDs(key string) []int32 {
	own := x.exact[key]
	if x.base == nil {
		return own
	}
	return concat(x.base.exactIDs(key), own)
}

// posting appends to ids the values holding stem s, or a stem that is s
// followed by digits ("d" → "d2"), the base's first.
func (x *Index) posting(s string, ids []int32) []int32 {
	if x.base != nil {
		ids = x.base.posting(s, ids)
	}
	ids = append(ids, x.postings[s]...)
	for _, ext := range x.digitExt[s] {
		ids = append(ids, x.postings[ext]...)
	}
	return ids
}

// deletesOf returns the typo targets under deletion key k, the base's
// first.
func (x *Index) deletesOf(k string) []string {
	own := x.deletes[k]
	if x.base == nil {
		return own
	}
	return concat(x.base.deletesOf(k), own)
}

// holds reports whether column c has value v, whose stemmed phrase is
// key, in this index or its base.
func (x *Index) holds(c *model.Column, key, v string) bool {
	for _, id := range x.exactIDs(key) {
		if e := x.entry(id); e.Column == c && e.Value == v {
			return true
		}
	}
	return false
}

// concat returns a then b, reusing either when the other is empty.
func concat[T any](a, b []T) []T {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	return append(append(make([]T, 0, len(a)+len(b)), a...), b...)
}
