package valueindex_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// question returns the words of a question as written and their value
// stems, as the linker gives them to the index.
func question(q string) (texts, stems []string) {
	for _, t := range text.Tokenize(text.Normalize(q)) {
		texts = append(texts, t.Text)
		stems = append(stems, text.ValueStem(t.Text))
	}
	return texts, stems
}

// build indexes values of one column.
func build(c *model.Column, values ...string) *valueindex.Index {
	x := valueindex.New()
	for _, v := range values {
		x.Add(c, v, nil)
	}
	return x
}

func values(x *valueindex.Index, ids []int32) []string {
	var out []string
	for _, id := range ids {
		out = append(out, x.Entry(id).Value)
	}
	return out
}

func TestExact(t *testing.T) {
	t.Parallel()
	status := &model.Column{Name: "status"}
	x := build(status, "Open", "Ulcer", "in_repair", "Healing", "New York")
	tests := []struct {
		question string
		at       int
		want     map[int][]string // length in words → values
		asText   bool             // found as written, not only by stems
	}{
		{"show open wounds", 1, map[int][]string{1: {"Open"}}, true},
		{"show ulcers", 1, map[int][]string{1: {"Ulcer"}}, false},
		{"trucks in repair", 1, map[int][]string{2: {"in_repair"}}, true},
		{"orders from new york city", 2, map[int][]string{2: {"New York"}}, true},
		// plural-only stems: a past tense is not the status
		{"tickets opened today", 1, map[int][]string{}, false},
		{"healed wounds", 0, map[int][]string{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			t.Parallel()
			texts, stems := question(tc.question)
			got := map[int][]string{}
			for l, h := range x.Exact(texts, stems, tc.at) {
				got[l] = values(x, h.IDs)
				if h.Text != tc.asText {
					t.Errorf("Exact(%q) length %d: as written = %v, want %v", tc.question, l, h.Text, tc.asText)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Exact(%q, %d) (-want +got):\n%s", tc.question, tc.at, d)
			}
		})
	}
}

func TestPartial(t *testing.T) {
	t.Parallel()
	name := &model.Column{Name: "name"}
	tests := []struct {
		name   string
		values []string
		words  string
		want   []string  // best first
		cover  []float64 // per value in want
	}{
		{
			name:   "noise words do not count",
			values: []string{"Tesla Energy Storage", "Tesla, Inc."},
			words:  "tesla",
			want:   []string{"Tesla, Inc.", "Tesla Energy Storage"},
			cover:  []float64{1, 1.0 / 3},
		},
		{
			name:   "a letter matches itself followed by digits",
			values: []string{"25-OH Vitamin D", "Vitamin D2 (Ergocalciferol)", "Vitamin D3", "Vitamin B12"},
			words:  "vitamin d",
			want:   []string{"Vitamin D2 (Ergocalciferol)", "Vitamin D3", "25-OH Vitamin D"},
			cover:  []float64{1, 1, 0.5},
		},
		{
			name:   "every word must be in the value",
			values: []string{"Left Heel", "Right Heel", "Left Knee"},
			words:  "left heel",
			want:   []string{"Left Heel"},
			cover:  []float64{1},
		},
		{
			name:   "a word no value has",
			values: []string{"Left Heel"},
			words:  "left elbow",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			x := build(name, tc.values...)
			_, stems := question(tc.words)
			var got []string
			var cover []float64
			for _, m := range x.Partial(stems) {
				got = append(got, x.Entry(m.ID).Value)
				cover = append(cover, m.Coverage)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Partial(%q) (-want +got):\n%s", tc.words, d)
			}
			if d := cmp.Diff(tc.cover, cover); d != "" {
				t.Errorf("Partial(%q) coverage (-want +got):\n%s", tc.words, d)
			}
		})
	}
}

func TestCorrect(t *testing.T) {
	t.Parallel()
	x := build(&model.Column{Name: "status"}, "Healing", "North Hall", "Stage 2", "Stake")
	x.AddTypoTarget("patients") // a word of the model, not of a value
	x.AddTypoTarget("low")      // too short to correct into
	tests := []struct {
		typed string
		want  string // "" when nothing is corrected
	}{
		{"haeling", "healing"},   // a transposition
		{"healin", "healing"},    // a deletion
		{"pateints", "patients"}, // into a model word
		{"dealing", ""},          // a typo keeps its first letter
		{"worth", ""},            // not "north"
		{"stape", ""},            // "stage" or "stake": not one word
		{"healing", ""},          // known words are not typos of themselves
		{"lwo", ""},              // short words are never corrected
		{"hxxling", ""},          // two edits
	}
	for _, tc := range tests {
		t.Run(tc.typed, func(t *testing.T) {
			t.Parallel()
			got, ok := x.Correct(tc.typed)
			if ok != (tc.want != "") || got != tc.want {
				t.Errorf("Correct(%q) = %q, %v, want %q", tc.typed, got, ok, tc.want)
			}
		})
	}
}

// TestExactAsWritten: a phrase as written names only the values written
// so, though values written otherwise share its stems ("bike" is Bike, not
// Bikes), in the order they were added, across columns.
func TestExactAsWritten(t *testing.T) {
	t.Parallel()
	kind := &model.Column{Name: "kind"}
	part := &model.Column{Name: "part"}
	x := valueindex.New()
	for _, v := range []string{"Bike", "Bikes", "Road Bikes", "Road Bike"} {
		x.Add(kind, v, nil)
	}
	x.Add(part, "Bike", nil)
	x.Add(part, "Bikes", nil)
	x.Seal()
	tests := []struct {
		question string
		want     map[int][]string // length in words → values, as written
	}{
		{"bike", map[int][]string{1: {"kind=Bike", "part=Bike"}}},
		{"bikes", map[int][]string{1: {"kind=Bikes", "part=Bikes"}}},
		{"road bikes", map[int][]string{2: {"kind=Road Bikes"}}},
		{"road bike", map[int][]string{2: {"kind=Road Bike"}}},
	}
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			t.Parallel()
			texts, stems := question(tc.question)
			got := map[int][]string{}
			for l, h := range x.Exact(texts, stems, 0) {
				if !h.Text {
					continue
				}
				for _, id := range h.IDs {
					e := x.Entry(id)
					got[l] = append(got[l], e.Column.Name+"="+e.Value)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Exact(%q) as written (-want +got):\n%s", tc.question, d)
			}
		})
	}
}

// TestDuplicates: a value stored twice in one column is one value; the
// same value in two columns is two.
func TestDuplicates(t *testing.T) {
	t.Parallel()
	orders := &model.Column{Name: "order_status"}
	shipments := &model.Column{Name: "shipment_status"}
	x := valueindex.New()
	for _, v := range []string{"Pending", "Pending", "Shipped"} {
		x.Add(orders, v, nil)
	}
	x.Add(shipments, "Pending", nil)
	x.Add(orders, "Pending", nil) // after another column's values
	x.Add(shipments, "  ", nil)   // blank values are not indexed
	texts, stems := question("pending")
	var got []string
	for _, id := range x.Exact(texts, stems, 0)[1].IDs {
		e := x.Entry(id)
		got = append(got, e.Column.Name+"="+e.Value)
	}
	want := []string{"order_status=Pending", "shipment_status=Pending"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("values named by %q (-want +got):\n%s", "pending", d)
	}
	if !x.HasWord("pending") || !x.HasStem("shipped") || x.HasWord("opened") {
		t.Errorf("HasWord/HasStem do not reflect the values: pending=%v shipped=%v", x.HasWord("pending"), x.HasStem("shipped"))
	}
}

// TestEntityNoise: words of the column's own entity do not make a value
// distinct, so naming the rest of it names it whole.
func TestEntityNoise(t *testing.T) {
	t.Parallel()
	c := &model.Column{Name: "name"}
	x := valueindex.New()
	noise := map[string]bool{text.Stem("clinic"): true}
	x.Add(c, "Riverside Clinic", noise)
	_, stems := question("riverside")
	ms := x.Partial(stems)
	if len(ms) != 1 || ms[0].Coverage != 1 {
		t.Fatalf("Partial(riverside) = %+v, want Riverside Clinic fully covered", ms)
	}
	if !strings.EqualFold(x.Entry(ms[0].ID).Value, "riverside clinic") {
		t.Errorf("got %q", x.Entry(ms[0].ID).Value)
	}
}

// TestKindWords: a word that many values of a column share names their
// kind, so it alone matches none of them, and a value is named in full
// without it.
func TestKindWords(t *testing.T) {
	t.Parallel()
	c := &model.Column{Name: "category_name"}
	x := build(c, "Road Bikes", "Mountain Bikes", "Kids Bikes", "Electric Bikes", "Accessories")
	x.Seal()
	if got := x.Partial([]string{text.ValueStem("bikes")}); len(got) != 0 {
		t.Errorf("\"bikes\" alone matched %d values, want none", len(got))
	}
	got := x.Partial([]string{text.ValueStem("mountain")})
	if len(got) != 1 || x.Entry(got[0].ID).Value != "Mountain Bikes" || got[0].Coverage != 1 {
		t.Errorf("\"mountain\" = %+v, want Mountain Bikes named in full", got)
	}
	// a shared first word tells values apart
	z := build(c, "Left Heel", "Left Hip", "Left Knee", "Right Heel", "Sacrum")
	z.Seal()
	if got := z.Partial([]string{"left"}); len(got) != 3 {
		t.Errorf("\"left\" matched %d values, want 3", len(got))
	}
	// a word only two values share still names them
	y := build(c, "Vitamin D2", "Vitamin D3", "Glucose", "HDL Cholesterol", "LDL Cholesterol", "Sodium", "Potassium")
	y.Seal()
	if got := y.Partial([]string{"vitamin"}); len(got) != 2 {
		t.Errorf("\"vitamin\" matched %d values, want 2", len(got))
	}
}

// TestRows keeps how many rows hold each value.
func TestRows(t *testing.T) {
	t.Parallel()
	c := &model.Column{Name: "first_name"}
	x := valueindex.New()
	x.AddCounted(c, "Frank", 2, nil)
	x.AddCounted(c, "Nina", 1, nil)
	texts, stems := question("orders of frank")
	hit := x.Exact(texts, stems, 2)[1]
	if len(hit.IDs) != 1 || x.Entry(hit.IDs[0]).Rows != 2 {
		t.Errorf("frank: %+v, want one value held by 2 rows", hit)
	}
}

// TestWords checks that the words stored with each value are the stems
// text.StemPhrase gives it, which understanding compares with a question's
// words instead of stemming every candidate value again.
func TestWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, value string
	}{
		{"plural", "Road Bikes"},
		{"stemmed beyond plurals", "Healing Wounds"},
		{"unchanged", "Tesla"},
		{"number and letters", "25-OH Vitamin D"},
		{"parentheses", "Vitamin D2 (Ergocalciferol)"},
		{"stored code", "in_repairs"},
		{"full-width underscore", "in＿repairs"},
		{"cyrillic", "Анализы крови"},
		{"possessive", "Macy's Stores"},
	}
	c := &model.Column{Name: "name"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			x := build(c, tc.value)
			want := strings.Fields(text.StemPhrase(tc.value))
			if d := cmp.Diff(want, x.Entry(0).Words()); d != "" {
				t.Errorf("Words of %q (-want +got):\n%s", tc.value, d)
			}
		})
	}
}
