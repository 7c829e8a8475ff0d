package units_test

import (
	"math"
	"testing"

	"github.com/clarify-sql/clarify/internal/units"
)

func TestConvert(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v        float64
		from, to string
		want     float64
		ok       bool
	}{
		{3, "hours", "minutes", 180, true},
		{5, "minutes", "ms", 300000, true},
		{2, "days", "hours", 48, true},
		{30, "%", units.Fraction, 0.3, true},
		{30, "percent", "%", 30, true},
		{1.5, "kg", "g", 1500, true},
		{10, "lb", "kg", 4.5359237, true},
		{2, "km", "m", 2000, true},
		{1, "GB", "MB", 1024, true},
		{3, "hours", "kg", 0, false},
		{3, "months", "days", 0, false}, // a calendar month has no fixed length
		{3, "furlongs", "m", 0, false},
	} {
		got, ok := units.Convert(tc.v, tc.from, tc.to)
		if ok != tc.ok || ok && math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Convert(%v %s → %s) = %v, %v; want %v, %v", tc.v, tc.from, tc.to, got, ok, tc.want, tc.ok)
		}
	}
	if units.Kind("minutes") != units.Duration || units.Kind("potatoes") != "" {
		t.Error("Kind: minutes is a duration, potatoes are nothing")
	}
	if !units.Convertible("ms", "hours") || units.Convertible("ms", "kg") {
		t.Error("Convertible: ms and hours are, ms and kg are not")
	}
}
