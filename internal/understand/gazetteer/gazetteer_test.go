package gazetteer_test

import (
	"slices"
	"testing"

	"github.com/clarify-sql/clarify/internal/understand/gazetteer"
)

func TestAlternates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"french", "france"}, {"france", "french"}, {"texas", "tx"}, {"tx", "texas"}, {"uk", "united kingdom"},
		{"asian", "asia"}, {"dutch", "netherlands"}, {"united states", "usa"}, {"new york", "ny"},
	} {
		if got := gazetteer.Alternates(tc.in); !slices.Contains(got, tc.want) {
			t.Errorf("Alternates(%q) = %q, want it to hold %q", tc.in, got, tc.want)
		}
	}
	for _, w := range []string{"in", "me", "or", "weather", ""} {
		if got := gazetteer.Alternates(w); got != nil {
			t.Errorf("Alternates(%q) = %q, want none", w, got)
		}
	}
}
