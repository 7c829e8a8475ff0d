package introspect

import (
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// Words that make a pair of numeric columns the limits of another
// column's normal range: reference_low and reference_high beside a lab
// value, cholesterol_min and cholesterol_max beside cholesterol.
var (
	lowWords   = []string{"low", "lower", "lo", "min", "minimum"}
	highWords  = []string{"high", "upper", "hi", "max", "maximum"}
	rangeWords = []string{"reference", "ref", "normal", "norm", "limit", "range"}
)

// ranges gives each measure of e whose normal limits e also holds a
// reference range, so answers can flag values outside it. The limits are
// two numeric columns named alike but for a low and a high word, either
// after the measure's own words (glucose_low, glucose_high) or as a
// reference range (reference_low, ref_high) when e has one other measure.
func ranges(e *entity) {
	numeric := func(c *column) bool { return c.kind == KindInteger || c.kind == KindReal }
	type pair struct{ low, high *column }
	rest := func(c *column, ends []string) ([]string, bool, bool) {
		i := wordIndex(c.words, ends)
		if i < 0 {
			return nil, false, false
		}
		var out []string
		ref := false
		for j, w := range c.words {
			switch {
			case j == i:
			case slices.Contains(rangeWords, w):
				ref = true
			default:
				out = append(out, w)
			}
		}
		return out, ref, true
	}
	limits := map[*column]bool{}
	var found []struct {
		pair
		rest []string
		ref  bool
	}
	for _, l := range e.cols {
		lr, lref, ok := rest(l, lowWords)
		if !ok || !numeric(l) {
			continue
		}
		for _, h := range e.cols {
			hr, href, ok := rest(h, highWords)
			if h == l || !ok || !numeric(h) || href != lref || strings.Join(hr, " ") != strings.Join(lr, " ") {
				continue
			}
			found = append(found, struct {
				pair
				rest []string
				ref  bool
			}{pair{l, h}, lr, lref})
			limits[l], limits[h] = true, true
		}
	}
	for _, f := range found {
		var target *column
		var others []*column
		for _, c := range e.cols {
			if c.role == model.RoleMeasure && !limits[c] {
				others = append(others, c)
			}
		}
		switch {
		case len(f.rest) > 0:
			for _, c := range others {
				if strings.Join(c.words, " ") == strings.Join(f.rest, " ") {
					target = c
				}
			}
		case f.ref && len(others) == 1:
			target = others[0]
		}
		if target != nil && target.rangeLow == "" && target.rangeHigh == "" {
			target.rangeLow, target.rangeHigh = f.low.c.Name, f.high.c.Name
			// the limits are in the measure's unit: "min" in
			// noise_level_min is a minimum, not minutes
			for _, c := range []*column{f.low, f.high} {
				if c.unit != target.unit {
					c.unit, c.unitWords, c.label = target.unit, nil, ""
				}
			}
		}
	}
}
