package source

import (
	"fmt"
	"slices"
	"testing"
)

// TestMatchWords: a question's words match stored values without regard
// to case, whatever the value's first letter or length — the shortcuts
// pass over only values starting with an ASCII byte that starts no word,
// and ASCII values of a length no word has ("K", U+212A KELVIN SIGN, is
// three bytes that lower-case to an ASCII "k").
func TestMatchWords(t *testing.T) {
	want := map[string]bool{"mauve": true, "élan": true, "kelvin": true, "zebra": true, "4 door": true}
	known := []string{"", "4 Door", "MAUVE", "Mauve", "Zebra", "red", "Élan", "élan", "\u212Aelvin", "mauve2", "Mauv"}
	counts := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	vals, rows := matchWords(want, known, counts)
	wantVals := []string{"4 Door", "MAUVE", "Mauve", "Zebra", "Élan", "élan", "\u212Aelvin"}
	if !slices.Equal(vals, wantVals) || !slices.Equal(rows, []int64{2, 3, 4, 5, 7, 8, 9}) {
		t.Errorf("matchWords = %q %v, want %q [2 3 4 5 7 8 9]", vals, rows, wantVals)
	}
}

// BenchmarkMatchWords times one question's words looked up in a column of
// 30,000 loaded names, as every question does in each of a wide source's
// columns while they load.
func BenchmarkMatchWords(b *testing.B) {
	colours := []string{"Red", "green", "Blue", "mauve", "teal", "amber", "olive", "navy"}
	known := make([]string, 30_000)
	counts := make([]int64, len(known))
	for i := range known {
		known[i] = fmt.Sprintf("%s-%d", colours[i%len(colours)], i)
	}
	slices.Sort(known)
	want := map[string]bool{}
	for _, w := range []string{"how", "many", "t12s", "are", "teal", "how many", "many t12s", "t12s are", "are teal",
		"how_many", "many_t12s", "t12s_are", "are_teal", "how many t12s", "many t12s are", "t12s are teal", "teal-4242"} {
		want[w] = true
	}
	b.ReportAllocs()
	for b.Loop() {
		matchWords(want, known, counts)
	}
}
