package understand

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
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
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var got []string
			for _, tok := range Tokenize(Normalize(tc.in)) {
				got = append(got, tok.Stem)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Tokenize(%q) (-want +got):\n%s", tc.in, d)
			}
		})
	}
}
