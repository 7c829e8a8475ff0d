package demo_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo"
)

// TestDeterministic generates every source twice with the same (seed, as_of)
// and expects identical tables and files, and once with another seed and
// expects different data.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, name := range demo.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipSlowUnderRace(t, name)
			first := source(t, name, defaultOpt)
			again := filepath.Join(t.TempDir(), name+".db")
			if err := demo.WriteSQLite(context.Background(), name, again, defaultOpt); err != nil {
				t.Fatal(err)
			}
			_, want := sqliteSums(t, first)
			_, got := sqliteSums(t, again)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("same seed and as_of, different tables (-first +second):\n%s", diff)
			}
			a, err := os.ReadFile(first)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(again)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("same seed and as_of, files differ (%d and %d bytes)", len(a), len(b))
			}

			_, seed2 := sqliteSums(t, source(t, name, demo.Options{AsOf: friday, Seed: 2}))
			differ := 0
			for table, s := range want {
				if seed2[table] != s {
					differ++
				}
			}
			// clarify_meta records the seed, so it always differs; labs has
			// fixed patients but drawn results.
			if differ < 2 {
				t.Errorf("seed 2 changed %d tables, want the generated ones to change", differ)
			}
		})
	}
}
