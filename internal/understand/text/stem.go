package text

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// Stem returns the stem of a lower-case word (English or Russian by script);
// words with digits are kept whole.
func Stem(w string) string {
	cyr, lat := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			return w
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.IsLetter(r):
			lat++
		}
	}
	if cyr > 0 && lat == 0 {
		return russian.Stem(w, true)
	}
	if cyr == 0 && lat > 0 {
		return english.Stem(w, true)
	}
	return w
}

// StemPhrase normalizes, tokenizes and stems a phrase into a lexicon key.
func StemPhrase(s string) string {
	toks := Tokenize(Normalize(s))
	parts := make([]string, 0, len(toks))
	for _, t := range toks {
		parts = append(parts, t.Stem)
	}
	return strings.Join(parts, " ")
}

// ValueStem is the matching key of a word of a stored value: plural
// endings removed and nothing else, so "supermarkets" finds "Supermarket"
// but "provide" does not find "Providence" nor "opened" "Open". Russian
// words use the Russian stemmer (their endings carry case, not meaning).
func ValueStem(w string) string {
	cyr := false
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			return w
		case unicode.Is(unicode.Cyrillic, r):
			cyr = true
		}
	}
	if cyr {
		return russian.Stem(w, true)
	}
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}
