// Package units converts a quantity between units of one kind: durations
// ("3 hours" against a runtime in minutes), lengths, weights, data sizes
// and shares ("30%" against a commission stored as 0.3). Calendar months
// and years are not durations of fixed length and are not converted.
package units

import "strings"

// unit is one unit: its kind and its size in the kind's base unit.
type unit struct {
	kind   string
	factor float64
}

// Kinds of quantity.
const (
	Duration = "duration"
	Length   = "length"
	Mass     = "mass"
	Data     = "data"
	Share    = "share"
)

// Fraction is the unit of a share stored as a fraction of 1 (0.3 for 30%).
const Fraction = "fraction"

var table = map[string]unit{
	"ms": {Duration, 0.001}, "msec": {Duration, 0.001}, "millis": {Duration, 0.001}, "millisecond": {Duration, 0.001}, "milliseconds": {Duration, 0.001},
	"s": {Duration, 1}, "sec": {Duration, 1}, "secs": {Duration, 1}, "second": {Duration, 1}, "seconds": {Duration, 1},
	"min": {Duration, 60}, "mins": {Duration, 60}, "minute": {Duration, 60}, "minutes": {Duration, 60},
	"h": {Duration, 3600}, "hr": {Duration, 3600}, "hrs": {Duration, 3600}, "hour": {Duration, 3600}, "hours": {Duration, 3600},
	"day": {Duration, 86400}, "days": {Duration, 86400}, "week": {Duration, 604800}, "weeks": {Duration, 604800},

	"mm": {Length, 0.001}, "cm": {Length, 0.01}, "m": {Length, 1}, "meter": {Length, 1}, "meters": {Length, 1}, "metre": {Length, 1},
	"metres": {Length, 1}, "km": {Length, 1000}, "kilometer": {Length, 1000}, "kilometers": {Length, 1000}, "kilometre": {Length, 1000},
	"kilometres": {Length, 1000}, "mi": {Length, 1609.344}, "mile": {Length, 1609.344}, "miles": {Length, 1609.344},
	"ft": {Length, 0.3048}, "foot": {Length, 0.3048}, "feet": {Length, 0.3048}, "inch": {Length, 0.0254}, "inches": {Length, 0.0254},

	"mg": {Mass, 0.001}, "g": {Mass, 1}, "gram": {Mass, 1}, "grams": {Mass, 1}, "kg": {Mass, 1000}, "kilo": {Mass, 1000},
	"kilos": {Mass, 1000}, "kilogram": {Mass, 1000}, "kilograms": {Mass, 1000}, "lb": {Mass, 453.59237}, "lbs": {Mass, 453.59237},
	"pound": {Mass, 453.59237}, "pounds": {Mass, 453.59237}, "t": {Mass, 1e6}, "ton": {Mass, 1e6}, "tons": {Mass, 1e6},
	"tonne": {Mass, 1e6}, "tonnes": {Mass, 1e6},

	"bytes": {Data, 1}, "byte": {Data, 1}, "kb": {Data, 1024}, "mb": {Data, 1 << 20}, "gb": {Data, 1 << 30}, "tb": {Data, 1 << 40},

	"%": {Share, 0.01}, "percent": {Share, 0.01}, "percentage": {Share, 0.01}, "pct": {Share, 0.01}, Fraction: {Share, 1},
}

func lookup(u string) (unit, bool) {
	x, ok := table[strings.ToLower(strings.TrimSpace(u))]
	return x, ok
}

// Kind returns the kind of quantity a unit measures, or "" for a unit
// this package does not convert.
func Kind(u string) string {
	x, _ := lookup(u)
	return x.kind
}

// Convertible reports whether quantities in from can be expressed in to.
func Convertible(from, to string) bool {
	a, ok1 := lookup(from)
	b, ok2 := lookup(to)
	return ok1 && ok2 && a.kind == b.kind
}

// Convert expresses v, in unit from, in unit to: 3 hours is 180 minutes.
// ok is false when the units are of different kinds or unknown.
func Convert(v float64, from, to string) (float64, bool) {
	a, ok1 := lookup(from)
	b, ok2 := lookup(to)
	if !ok1 || !ok2 || a.kind != b.kind {
		return 0, false
	}
	return v * a.factor / b.factor, true
}
