package text_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/understand/text"
)

func TestTokenize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"List wounds having an area over 35 cm²", []string{"list", "wound", "have", "an", "area", "over", "35", "cm2"}},
		{"more than 10,000 shares", []string{"more", "than", "10000", "share"}},
		{"Ivan Petrov's cholesterol", []string{"ivan", "petrov", "cholesterol"}},
		{"MSFT's highest close", []string{"msft", "highest", "close"}},
		{"area>=2.5", []string{"area", ">=", "2.5"}},
		{"25-OH Vitamin D", []string{"25", "oh", "vitamin", "d"}},
		{"покажи мои анализы", []string{"покаж", "мо", "анализ"}},
		{"30cm2 and 10k", []string{"30", "cm2", "and", "10000"}},
		{"don't", []string{"do", "not"}},
		{"top 5th", []string{"top", "5"}},
		// digits of other scripts are not numbers here: skipped, never looped on
		{"٧ days", []string{"day"}},
		{"x٣y 4", []string{"x٣y", "4"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, tok := range text.Tokenize(text.Normalize(tc.in)) {
				got = append(got, tok.Stem)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Tokenize(%q) (-want +got):\n%s", tc.in, d)
			}
		})
	}
}

// TestTokenKinds: numbers carry their value, operators are spelled one
// way, and offsets point into the normalized text.
func TestTokenKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []text.Token
	}{
		{"operators", "a ≥ 2 ≠ <>", []text.Token{
			{Text: "a", Stem: "a", Kind: text.Word, Start: 0, End: 1},
			{Text: ">=", Stem: ">=", Kind: text.Op, Start: 2, End: 5},
			{Text: "2", Stem: "2", Kind: text.Number, Num: 2, Start: 6, End: 7},
			{Text: "!=", Stem: "!=", Kind: text.Op, Start: 8, End: 11},
			{Text: "!=", Stem: "!=", Kind: text.Op, Start: 12, End: 14},
		}},
		{"thousands and k", "10,000 2.5k", []text.Token{
			{Text: "10000", Stem: "10000", Kind: text.Number, Num: 10000, Start: 0, End: 6},
			{Text: "2500", Stem: "2500", Kind: text.Number, Num: 2500, Start: 7, End: 11},
		}},
		{"unit glued to a number", "30cm2", []text.Token{
			{Text: "30", Stem: "30", Kind: text.Number, Num: 30, Start: 0, End: 2},
			{Text: "cm2", Stem: "cm2", Kind: text.Word, Start: 2, End: 5},
		}},
		{"currency sign", "$5", []text.Token{
			{Text: "$", Stem: "$", Kind: text.Word, Start: 0, End: 1},
			{Text: "5", Stem: "5", Kind: text.Number, Num: 5, Start: 1, End: 2},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if d := cmp.Diff(tc.want, text.Tokenize(tc.in)); d != "" {
				t.Errorf("Tokenize(%q) (-want +got):\n%s", tc.in, d)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Patient’s “Wounds”", "patient's \"wounds\""},
		{"10–20", "10-20"},
		{"ＡＢＣ", "abc"},
		{"Ёлка", "елка"},
		{"a\u00a0b", "a b"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			if got := text.Normalize(tc.in); got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestStems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word      string
		stem      string // for model words
		valueStem string // for stored values: plurals only
	}{
		{"patients", "patient", "patient"},
		{"opened", "open", "opened"},
		{"supermarkets", "supermarket", "supermarket"},
		{"categories", "categori", "category"},
		{"boxes", "box", "box"},
		{"status", "status", "status"},
		{"d2", "d2", "d2"},
		{"анализы", "анализ", "анализ"},
	}
	for _, tc := range tests {
		t.Run(tc.word, func(t *testing.T) {
			t.Parallel()
			if got := text.Stem(tc.word); got != tc.stem {
				t.Errorf("Stem(%q) = %q, want %q", tc.word, got, tc.stem)
			}
			if got := text.ValueStem(tc.word); got != tc.valueStem {
				t.Errorf("ValueStem(%q) = %q, want %q", tc.word, got, tc.valueStem)
			}
		})
	}
	if got, want := text.StemPhrase("Wound Assessments"), "wound assess"; got != want {
		t.Errorf("StemPhrase = %q, want %q", got, want)
	}
}

func TestIsCyrillic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"покажи мои анализы", true},
		{"show my results", false},
		{"покажи HbA1c", true},
		{"show глюкоза results", false},
		{"42", false},
	} {
		if got := text.IsCyrillic(tc.in); got != tc.want {
			t.Errorf("IsCyrillic(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
		sim  float64
	}{
		{"healing", "healing", 0, 1},
		{"pateints", "patients", 1, 1 - 1.0/8}, // a transposition is one edit
		{"wound", "wounds", 1, 1 - 1.0/6},
		{"cat", "dog", 3, 0},
		{"", "", 0, 1},
		{"ёж", "еж", 1, 0.5}, // runes, not bytes
	}
	for _, tc := range tests {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			t.Parallel()
			if got := text.EditDistance(tc.a, tc.b); got != tc.want {
				t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
			if got := text.Similarity(tc.a, tc.b); got != tc.sim {
				t.Errorf("Similarity(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.sim)
			}
		})
	}
}

// TestEditDistanceAtMost checks the bounded distance against the full one
// on every pair of a set of words that differ by typos, transpositions and
// length, for every bound from below zero to past the longest word.
func TestEditDistanceAtMost(t *testing.T) {
	t.Parallel()
	words := []string{"", "a", "ab", "ba", "abc", "acb", "healing", "heailng", "dealing", "pateints", "patients",
		"wound", "wounds", "created on", "creatde on", "ganfelashlu", "ganfelasl", "oxkaoxva", "xokaoxav",
		"kaloner", "lokaner", "ёж", "еж", "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz012345678"}
	for _, a := range words {
		for _, b := range words {
			full := text.EditDistance(a, b)
			for k := -1; k <= 40; k++ {
				want := min(full, k+1)
				if got := text.EditDistanceAtMost([]rune(a), []rune(b), k); got != want {
					t.Errorf("EditDistanceAtMost(%q, %q, %d) = %d, want %d (distance %d)", a, b, k, got, want, full)
				}
			}
		}
	}
}

func TestReplaceWords(t *testing.T) {
	t.Parallel()
	tests := []struct{ s, phrase, with, want string }{
		{"list glorp wounds", "glorp", "large", "list large wounds"},
		{"glorps and glorp", "glorp", "x", "glorps and x"},
		{"reorder level > 5", "reorder level", "reorder_level", "reorder_level > 5"},
		{"unchanged", "", "x", "unchanged"},
	}
	for _, tc := range tests {
		if got := text.ReplaceWords(tc.s, tc.phrase, tc.with); got != tc.want {
			t.Errorf("ReplaceWords(%q, %q, %q) = %q, want %q", tc.s, tc.phrase, tc.with, got, tc.want)
		}
	}
}

func TestQuantityWords(t *testing.T) {
	t.Parallel()
	if n, ok := text.NumberWord("five"); !ok || n != 5 {
		t.Errorf("NumberWord(five) = %v, %v", n, ok)
	}
	if _, ok := text.NumberWord("fivе"); ok { // a Cyrillic е
		t.Error("a misspelt number word was read as a number")
	}
	var words []string
	for w := range text.NumberWords() {
		words = append(words, w)
	}
	if !slices.IsSorted(words) || !slices.Contains(words, "a dozen") {
		t.Errorf("NumberWords not sorted or incomplete: %v", words)
	}
	for _, w := range []string{"shares", "cm2", "%", "usd"} {
		if !text.IsUnitWord(w) {
			t.Errorf("IsUnitWord(%q) = false", w)
		}
	}
	if text.IsUnitWord("share price") {
		t.Error("IsUnitWord(share price) = true")
	}
}

// FuzzTokenize checks that any text tokenizes in finite time into tokens
// whose offsets advance through the text.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"area over 35 cm²", "٧", "10,000.5k", "don't", ">=<>!", "25-OH"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := text.Normalize(s)
		end := 0
		for _, tok := range text.Tokenize(n) {
			if tok.Start < end || tok.End <= tok.Start || tok.End > len(n) {
				t.Fatalf("token %+v out of order in %q (previous end %d)", tok, n, end)
			}
			end = tok.End
		}
	})
}

func TestVerbForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w                 string
		verb, unambiguous bool
	}{
		{"lost", true, true}, {"won", true, true}, {"departing", true, true}, {"arriving", true, true},
		{"winning", true, true}, {"carried", true, true}, {"spoken", true, true}, {"aired", true, true},
		{"live", true, false}, {"lives", true, false}, {"arrives", true, false},
		{"shipped", true, true}, {"ordering", true, true}, {"ship", false, false}, {"orders", false, false},
		{"weather", false, false}, {"open", false, false}, {"price", false, false}, {"spanish", false, false},
	} {
		verb, un := text.VerbForm(tc.w)
		if verb != tc.verb || un != tc.unambiguous {
			t.Errorf("VerbForm(%q) = %v, %v; want %v, %v", tc.w, verb, un, tc.verb, tc.unambiguous)
		}
	}
}
