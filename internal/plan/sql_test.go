package plan

import (
	"errors"
	"fmt"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// TestBindNumbersInTextOrder binds values in one order and places them in
// another: placeholders and values follow the text, per dialect.
func TestBindNumbersInTextOrder(t *testing.T) {
	for _, tc := range []struct {
		d    model.Dialect
		want string
	}{
		{model.SQLite, "a = ? AND b = ? LIMIT ?"},
		{model.MySQL, "a = ? AND b = ? LIMIT ?"},
		{model.Postgres, "a = $1 AND b = $2 LIMIT $3"},
	} {
		t.Run(string(tc.d), func(t *testing.T) {
			w := &writer{d: tc.d}
			b := w.param("B") // rendered first, stands second
			a := w.param("A")
			sql, args := w.bind("a = " + a + " AND b = " + b + " LIMIT " + w.param(10))
			if sql != tc.want || fmt.Sprint(args) != "[A B 10]" || w.err != nil {
				t.Errorf("bind = %q %v (err %v), want %q [A B 10]", sql, args, w.err, tc.want)
			}
		})
	}
}

// TestBindMalformedMarker: text that is not a marker written by param
// fails the compile instead of reaching SQL or panicking.
func TestBindMalformedMarker(t *testing.T) {
	for _, text := range []string{"x = " + paramMark + "7" + paramMark, "x = " + paramMark + "0"} {
		w := &writer{d: model.SQLite}
		w.param(1)
		w.bind(text)
		if !errors.Is(w.err, ErrUnsupported) {
			t.Errorf("bind(%q): err %v, want ErrUnsupported", text, w.err)
		}
	}
}

// TestLabelsCapitalizeRunes: a heading made from a label whose first
// letter takes two bytes stays valid text ("число" → "Число").
func TestLabelsCapitalizeRunes(t *testing.T) {
	if got := aggMeta(query.Agg{Func: "count", Label: "число пациентов"}).Label; got != "Число пациентов" {
		t.Errorf("label %q, want Число пациентов", got)
	}
}
