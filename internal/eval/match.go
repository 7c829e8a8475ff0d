package eval

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Match reports whether an answer equals the gold result: equal row counts
// and every gold column equal, as a multiset (or in order when ordered),
// to a distinct answer column; numbers compare to 1e-6 relative.
func Match(gold, got [][]any, ordered bool) (bool, string) {
	if len(gold) != len(got) {
		return false, fmt.Sprintf("%d rows, want %d", len(got), len(gold))
	}
	if len(gold) == 0 {
		return true, ""
	}
	gc, ac := columns(gold), columns(got)
	used := make([]bool, len(ac))
	var assign func(i int) bool
	assign = func(i int) bool {
		if i == len(gc) {
			return true
		}
		for j := range ac {
			if used[j] || !sameColumn(gc[i], ac[j], ordered) {
				continue
			}
			used[j] = true
			if assign(i + 1) {
				return true
			}
			used[j] = false
		}
		return false
	}
	if assign(0) {
		return true, ""
	}
	for i, g := range gc {
		found := false
		for _, a := range ac {
			if sameColumn(g, a, ordered) {
				found = true
			}
		}
		if !found {
			return false, fmt.Sprintf("gold column %d (%v…) has no equal answer column", i+1, preview(g))
		}
	}
	return false, "gold columns cannot all be matched to distinct answer columns"
}

func preview(col []any) []any {
	if len(col) > 3 {
		return col[:3]
	}
	return col
}

func columns(rows [][]any) [][]any {
	if len(rows) == 0 {
		return nil
	}
	n := len(rows[0])
	out := make([][]any, n)
	for _, r := range rows {
		for j := 0; j < n && j < len(r); j++ {
			out[j] = append(out[j], r[j])
		}
	}
	return out
}

func sameColumn(a, b []any, ordered bool) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := a, b
	if !ordered {
		x, y = sorted(a), sorted(b)
	}
	for i := range x {
		if !equal(x[i], y[i]) {
			return false
		}
	}
	return true
}

// key orders values: NULLs, then numbers, then strings.
type key struct {
	kind int
	num  float64
	str  string
}

func keyOf(v any) key {
	if v == nil {
		return key{kind: 0}
	}
	if f, ok := number(v); ok {
		return key{kind: 1, num: f}
	}
	return key{kind: 2, str: fmt.Sprint(v)}
}

func sorted(col []any) []any {
	out := append([]any(nil), col...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := keyOf(out[i]), keyOf(out[j])
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		if a.kind == 1 {
			return a.num < b.num
		}
		return a.str < b.str
	})
	return out
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil && x != ""
	}
	return 0, false
}

func equal(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	fa, oka := number(a)
	fb, okb := number(b)
	if oka && okb {
		if fa == fb {
			return true
		}
		d := math.Abs(fa - fb)
		return d <= 1e-6*math.Max(math.Abs(fa), math.Abs(fb)) || d < 1e-9
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}
