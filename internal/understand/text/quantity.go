package text

import (
	"iter"
	"slices"
	"sort"
)

// The words of quantities are shared by the lexicon (package understand),
// which links them, and the time parser (package timeexpr), which must
// tell "2025 shares" (a quantity) from "2025" (a year).

var numberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50,
	"hundred": 100, "dozen": 12, "a dozen": 12,
	"один": 1, "два": 2, "три": 3, "пять": 5, "десять": 10,
}

// unitWords are measurement words; they attach numbers to columns.
var unitWords = []string{"cm2", "cm", "mm", "square centimeters", "square centimetres", "sq cm", "cm²",
	"days", "day", "weeks", "week", "months", "month", "years", "year", "hours", "hour", "minutes", "shares", "share", "units", "unit", "pieces",
	"usd", "dollars", "dollar", "$", "eur", "euro", "euros", "%", "percent", "percentage", "kg", "mg", "mg/dl",
	"ng/ml", "points", "pts", "times", "items", "orders", "лет", "дней", "штук",
	"minute", "mins", "second", "seconds", "secs", "ms", "milliseconds", "hrs", "km", "kilometers", "kilometres",
	"mile", "miles", "meters", "metres", "grams", "lb", "lbs", "pounds", "kilograms", "kilos", "tons", "tonnes",
	"feet", "ft", "kb", "mb", "gb", "tb", "bytes"}

// NumberWord returns the value of a number written as a word ("five",
// "dozen", "пять").
func NumberWord(w string) (float64, bool) {
	n, ok := numberWords[w]
	return n, ok
}

// NumberWords yields every number word (some are phrases: "a dozen") with
// its value, in alphabetical order.
func NumberWords() iter.Seq2[string, float64] {
	return func(yield func(string, float64) bool) {
		ws := make([]string, 0, len(numberWords))
		for w := range numberWords {
			ws = append(ws, w)
		}
		sort.Strings(ws)
		for _, w := range ws {
			if !yield(w, numberWords[w]) {
				return
			}
		}
	}
}

// IsUnitWord reports whether a word, as written, is a unit of measurement
// ("cm2", "shares", "usd", "%").
func IsUnitWord(w string) bool { return slices.Contains(unitWords, w) }

// UnitWords yields the units of measurement (some are phrases: "sq cm"),
// in a fixed order.
func UnitWords() iter.Seq[string] { return slices.Values(unitWords) }
