package understand_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestColumnComparisons: "received fewer outers than we ordered" compares
// two columns; a comparison whose sides cannot both be told apart is asked
// about, never dropped; "more than 30" stays a number comparison.
func TestColumnComparisons(t *testing.T) {
	an := understand.New(demotest.Model(t, "retail"), nil)
	for _, tc := range []struct {
		q        string
		want     string // "left op right" of a column comparison, or ""
		askWords string // the words of an unknown_term slot that must be asked, or ""
	}{
		{"purchase order lines where we received fewer outers than we ordered", "received_outers < ordered_outers", ""},
		{"purchase order lines where we received more outers than we ordered", "received_outers > ordered_outers", ""},
		{"purchase order lines where the outers ordered are greater than the outers received", "ordered_outers > received_outers", ""},
		{"purchase order lines with more than 30 outers ordered", "", ""},
		// a quantity is never compared with a price: asked instead
		{"purchase order lines where we received fewer than expected", "", "fewer than"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			in, err := an.Analyze(context.Background(), tc.q, understand.Settings{Now: demotest.AsOf})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, f := range in.Query.Filters {
				if c, ok := f.Cond.(model.Compare); ok && c.Left.Column != nil && len(c.Right) == 1 && c.Right[0].Column != nil {
					got = c.Left.Column.Column + " " + c.Op + " " + c.Right[0].Column.Column
				}
			}
			if got != tc.want {
				t.Errorf("column comparison = %q, want %q\n%s", got, tc.want, understand.Describe(in))
			}
			asked := ""
			for _, s := range in.Slots {
				if s.Kind == understand.KindUnknown && s.Ask {
					asked = s.Text
				}
			}
			if asked != tc.askWords {
				t.Errorf("asked about %q, want %q\n%s", asked, tc.askWords, understand.Describe(in))
			}
		})
	}
}

// TestNearTieBestGuess: among near-tie values the best guess is one that
// contains every word asked for as a whole word.
func TestNearTieBestGuess(t *testing.T) {
	an := understand.New(demotest.Model(t, "labs"), nil)
	in, err := an.Analyze(context.Background(), "vitamin D results of John Doe", understand.Settings{Now: demotest.AsOf})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range in.Slots {
		if s.Kind == understand.KindValue && s.Ask {
			if got := s.Options[s.Best()].Label; got != "25-OH Vitamin D" {
				t.Errorf("best guess for %q = %q, want 25-OH Vitamin D", s.Text, got)
			}
			return
		}
	}
	t.Fatalf("no value question asked:\n%s", understand.Describe(in))
}
