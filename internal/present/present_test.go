package present_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/present"
)

func TestCell(t *testing.T) {
	t.Parallel()
	usd := plan.Column{Name: "revenue", Type: "real", Kind: plan.KindMeasure, Unit: "USD"}
	tests := []struct {
		name   string
		col    plan.Column
		column []any // every value of the column (for its decimals)
		want   []string
	}{
		{"money in dollars, two decimals, grouped", usd,
			[]any{733912.5, 1418000.0, 266800.1234, -12.5, nil},
			[]string{"$733,912.5000", "$1,418,000.0000", "$266,800.1234", "-$12.5000", "—"}},
		{"whole dollars still show cents", usd, []any{733912.0, 5.0}, []string{"$733,912.00", "$5.00"}},
		{"float noise of a sum is not digits", usd, []any{733912.5000000001, 0.1 + 0.2}, []string{"$733,912.50", "$0.30"}},
		{"yen have no decimals", plan.Column{Name: "sales", Kind: plan.KindMeasure, Unit: "JPY"}, []any{1234567.0}, []string{"¥1,234,567"}},
		{"a currency code that is not a sign", plan.Column{Name: "fee", Kind: plan.KindMeasure, Unit: "CHF"}, []any{12.0}, []string{"CHF 12.00"}},
		{"a unit that is not a currency stays in the heading", plan.Column{Name: "area", Kind: plan.KindMeasure, Unit: "cm²"}, []any{12.25, 3.0}, []string{"12.25", "3.00"}},
		{"lower-case codes are units, not money", plan.Column{Name: "x", Kind: plan.KindMeasure, Unit: "usd"}, []any{1.5}, []string{"1.5"}},
		{"a close price keeps its decimals", plan.Column{Name: "close", Type: "real", Kind: plan.KindMeasure}, []any{142.46, 140.2, 99.0}, []string{"142.46", "140.20", "99.00"}},
		{"counts are grouped", plan.Column{Name: "n", Type: "integer", Kind: plan.KindCount}, []any{int64(1234567), int64(0), float64(12)}, []string{"1,234,567", "0", "12"}},
		{"an average is cut at six decimals", plan.Column{Name: "avg", Kind: plan.KindMeasure}, []any{2.0 / 3}, []string{"0.666667"}},
		{"negative zero has no sign", plan.Column{Name: "d", Kind: plan.KindMeasure}, []any{-0.0000001, 1.5}, []string{"0.000000", "1.500000"}},
		{"ids are not grouped", plan.Column{Name: "patient_id", Type: "integer", Kind: plan.KindID}, []any{int64(100123), "L2"}, []string{"100123", "L2"}},
		{"years are not grouped", plan.Column{Name: "year", Type: "integer", Kind: plan.KindYear}, []any{int64(2024), 2025.0}, []string{"2024", "2025"}},
		{"dates as dates", plan.Column{Name: "test_date", Type: "date", Kind: plan.KindDate},
			[]any{"2026-11-04", "2026-11-04 00:00:00", time.Date(2023, 1, 9, 0, 0, 0, 0, time.UTC), "2026-11-04 13:05:00", "soon"},
			[]string{"Nov 4, 2026", "Nov 4, 2026", "Jan 9, 2023", "Nov 4, 2026 13:05", "soon"}},
		{"timestamps keep their time and zone", plan.Column{Name: "at", Type: "timestamp", Kind: plan.KindTimestamp},
			[]any{"2026-11-04T13:05:09Z", "2026-11-04 13:05:00", "2026-11-04T13:05:00+02:00"},
			[]string{"Nov 4, 2026 13:05:09 UTC", "Nov 4, 2026 13:05", "Nov 4, 2026 13:05 +02:00"}},
		{"months", plan.Column{Name: "month", Type: "text", Kind: plan.KindPeriod, Grain: "month"},
			[]any{"2023-11", "2024-01-01", nil}, []string{"Nov 2023", "Jan 2024", "—"}},
		{"quarters", plan.Column{Name: "quarter", Kind: plan.KindPeriod, Grain: "quarter"},
			[]any{"2024-Q1", "2024-05-01"}, []string{"Q1 2024", "Q2 2024"}},
		{"weeks", plan.Column{Name: "week", Kind: plan.KindPeriod, Grain: "week"},
			[]any{"2023-11-06", "2024-W05"}, []string{"Week of Nov 6, 2023", "Week 5, 2024"}},
		{"years as periods", plan.Column{Name: "year", Kind: plan.KindPeriod, Grain: "year"},
			[]any{"2024", int64(2025), "2026-01-01"}, []string{"2024", "2025", "2026"}},
		{"flags", plan.Column{Name: "infected", Kind: plan.KindBool}, []any{true, false, int64(1), int64(0), "t", nil},
			[]string{"Yes", "No", "Yes", "No", "Yes", "—"}},
		{"text is kept, line breaks are not", plan.Column{Name: "note", Kind: plan.KindText}, []any{"a\nb", ""}, []string{"a b", ""}},
		{"JSON numbers", plan.Column{Name: "v", Kind: plan.KindMeasure}, []any{json.Number("1234.5")}, []string{"1,234.5"}},

		// without metadata, from the name, the type and the values
		{"guessed: a month column", plan.Column{Name: "month", Type: "text"}, []any{"2023-11", "2023-12"}, []string{"Nov 2023", "Dec 2023"}},
		{"guessed: a date column", plan.Column{Name: "d", Type: "text"}, []any{"2023-11-05", nil}, []string{"Nov 5, 2023", "—"}},
		{"guessed: a measure", plan.Column{Name: "revenue", Type: "real"}, []any{733912.5, 1418000.0}, []string{"733,912.5", "1,418,000.0"}},
		{"guessed: an id", plan.Column{Name: "customer_id", Type: "integer"}, []any{int64(10234)}, []string{"10234"}},
		{"guessed: a year", plan.Column{Name: "year", Type: "integer"}, []any{int64(2024)}, []string{"2024"}},
		{"guessed: a count", plan.Column{Name: "orders", Type: "integer"}, []any{int64(12345)}, []string{"12,345"}},
		{"guessed: booleans", plan.Column{Name: "ok"}, []any{true, false}, []string{"Yes", "No"}},
		{"guessed: text", plan.Column{Name: "name", Type: "text"}, []any{"Ana", int64(3)}, []string{"Ana", "3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := present.For(tc.col, tc.column)
			var got []string
			for _, v := range tc.column {
				got = append(got, f.Cell(v))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("cells (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHeading(t *testing.T) {
	t.Parallel()
	tests := []struct {
		col  plan.Column
		want string
	}{
		{plan.Column{Name: "revenue", Label: "Revenue", Kind: plan.KindMeasure, Unit: "USD"}, "Revenue"},
		{plan.Column{Name: "area", Label: "Assessed area", Kind: plan.KindMeasure, Unit: "cm²"}, "Assessed area (cm²)"},
		{plan.Column{Name: "area_cm2", Kind: plan.KindMeasure, Unit: "cm²"}, "Area cm2 (cm²)"},
		{plan.Column{Name: "number_of_wounds"}, "Number of wounds"},
		{plan.Column{Name: "id", Label: "patient id"}, "Patient id"},
		{plan.Column{Name: "_"}, "_"},
	}
	for _, tc := range tests {
		if got := present.For(tc.col, nil).Heading(); got != tc.want {
			t.Errorf("heading of %+v = %q, want %q", tc.col, got, tc.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	t.Parallel()
	cols := []plan.Column{
		{Name: "month", Type: "text", Label: "Month", Kind: plan.KindPeriod, Grain: "month"},
		{Name: "clinic_id", Type: "integer", Kind: plan.KindID, Display: "clinic"},
		{Name: "clinic", Type: "text", Label: "Clinic", Kind: plan.KindName},
		{Name: "revenue", Type: "real", Label: "Revenue", Kind: plan.KindMeasure, Unit: "USD"},
		{Name: "note", Type: "text", Kind: plan.KindText},
	}
	rows := [][]any{
		{"2023-11", int64(1), "Harbor Health", 266812.5, nil},
		{"2023-12", int64(2), "北京诊所", 1418000.0, strings.Repeat("x", 50)},
		{"2024-01", int64(3), nil, nil, "short"},
	}
	var b strings.Builder
	if err := present.WriteTable(&b, cols, rows, 2); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"Month     Clinic               Revenue  Note\n" +
		"────────  ─────────────  ─────────────  " + strings.Repeat("─", 40) + "\n" +
		"Nov 2023  Harbor Health    $266,812.50  —\n" +
		"Dec 2023  北京诊所       $1,418,000.00  " + strings.Repeat("x", 39) + "…\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}

func TestWriteTableRanges(t *testing.T) {
	t.Parallel()
	cols := []plan.Column{
		{Name: "value", Type: "real", Label: "Value", Kind: plan.KindMeasure, RangeLow: "low", RangeHigh: "high"},
		{Name: "low", Type: "real", Kind: plan.KindMeasure},
		{Name: "high", Type: "real", Kind: plan.KindMeasure},
	}
	rows := [][]any{{23.7, 30.0, 100.0}, {32.1, 30.0, 100.0}, {120.0, 30.0, 100.0}, {nil, 30.0, 100.0}, {50.0, nil, nil}}
	var b strings.Builder
	if err := present.WriteTable(&b, cols, rows, 0); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"  Value  Low  High\n" +
		"───────  ───  ────\n" +
		" 23.7 ↓   30   100\n" +
		" 32.1     30   100\n" +
		"120.0 ↑   30   100\n" +
		"    —     30   100\n" +
		" 50.0      —     —\n" +
		"↓ below, ↑ above the reference range\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}
