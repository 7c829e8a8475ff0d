package cli_test

import (
	"regexp"
	"testing"
)

// TestAskReadable: the values of answers are written for people — money
// exact with its currency, months and dates as such, lab values outside
// their range marked — and the SQL one clause per line.
func TestAskReadable(t *testing.T) {
	dir := dataDir(t)
	tests := []struct {
		name, source, question string
		want                   []string // regular expressions
		not                    []string
	}{
		{"money by month", "retail", "Revenue by month",
			[]string{`(?m)^[A-Z][a-z]{2} 20\d\d +\$\d{1,3}(,\d{3})*\.\d\d$`, `(?m)^  FROM "sales_order_lines"$`, `(?m)^  GROUP BY `},
			[]string{`e\+0`, `\d{4}-\d\d  `}},
		{"dates", "trades", "Daily close of AAPL over the last 90 days",
			[]string{`(?m)^[A-Z][a-z]{2} \d{1,2}, 20\d\d +AAPL +\$\d+\.\d\d$`},
			[]string{`(?m)^\d{4}-\d\d-\d\d`}},
		{"lab values", "labs", "all vitamin D results for John Doe",
			[]string{`(?m)^[A-Z][a-z]{2} \d{1,2}, 20\d\d +25-OH Vitamin D +\d+\.\d ↓`, `↓ below, ↑ above the reference range`},
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, "", "ask", "--data-dir", dir, "--source", tc.source, tc.question)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, re := range tc.want {
				if !regexp.MustCompile(re).MatchString(out) {
					t.Errorf("the output has nothing like %s:\n%s", re, out)
				}
			}
			for _, re := range tc.not {
				if m := regexp.MustCompile(re).FindString(out); m != "" {
					t.Errorf("the output has %q (%s):\n%s", m, re, out)
				}
			}
		})
	}
}
