package guard_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// dosStatements are statements built to make parsers work hard.
func dosStatements() []struct{ name, sql string } {
	in := strings.Repeat("'abcdefghij', ", (1<<20)/14)
	return []struct{ name, sql string }{
		{"1 MB statement", "SELECT id FROM patients WHERE full_name IN (" + in + "'x')"},
		{"1,000-deep parentheses", "SELECT " + strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000) + " FROM patients"},
		{"1,000-deep subqueries", strings.Repeat("SELECT * FROM (", 1000) + "SELECT id FROM patients" + strings.Repeat(") t", 1000)},
		{"10,000 UNIONs", strings.Repeat("SELECT id FROM patients UNION ", 9999) + "SELECT id FROM patients"},
		{"2,000 UNIONs in 32 KiB", strings.Repeat("SELECT 1 UNION ", 2000) + "SELECT 1"},
		{"32 KiB IN list", "SELECT id FROM patients WHERE full_name IN (" + strings.Repeat("'abcdefghij', ", (31<<10)/14) + "'x')"},
		{"60-deep subqueries", strings.Repeat("SELECT * FROM (", 60) + "SELECT id FROM patients" + strings.Repeat(") t", 60)},
		{"32 UNIONs of joins", strings.Repeat("SELECT r.id FROM lab_results r JOIN patients p ON p.id = r.patient_id UNION ", 32) + "SELECT 1"},
	}
}

// TestParserDoS checks each statement is rejected or checked without a
// failure, and logs how long it took and how much it allocated with the
// default limits, which stop the largest before any parser sees them.
// Timings are reported, not asserted; the target is under 50 ms each.
// (With the limits lifted, rqlite/sql's printer is quadratic in the
// members of a compound SELECT: 10,000 UNIONs took 18 s there.)
func TestParserDoS(t *testing.T) {
	m := demotest.Model(t, "labs")
	for _, d := range model.Dialects() {
		for _, limits := range []struct {
			name string
			opt  guard.Options
		}{{"default limits", guard.Options{}}} {
			g := guard.New(m, d, limits.opt)
			if _, err := g.Check("SELECT 1", nil, nil); err != nil {
				t.Fatal(err) // warm up: open the verifier, load the parser
			}
			for _, c := range dosStatements() {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				start := time.Now()
				_, err := g.Check(c.sql, nil, &guard.Scope{Value: "L2"})
				took := time.Since(start)
				runtime.ReadMemStats(&after)
				verdict := "accepted"
				if ge, ok := guard.IsRejection(err); ok {
					verdict = "rejected: " + ge.Reason
					if len(verdict) > 90 {
						verdict = verdict[:90] + "…"
					}
				} else if err != nil {
					t.Errorf("%s, %s, %s: the guard failed: %v", d, limits.name, c.name, err)
				}
				slow := ""
				if took > 50*time.Millisecond {
					slow = "  (over the 50 ms target)"
				}
				t.Logf("%-8s %-14s %-24s %8.2f ms %7.1f MiB  %s%s", d, limits.name, c.name,
					float64(took.Microseconds())/1000, float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), verdict, slow)
			}
		}
	}
}
