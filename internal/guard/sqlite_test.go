package guard_test

import (
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// TestSQLitePrinted checks what the SQLite checker prints: the LIMIT as
// SQLite reads it, and nothing that SQLite would read differently from
// the tree that was checked.
func TestSQLitePrinted(t *testing.T) {
	t.Parallel()
	g := guardFor(t, "labs", model.SQLite)
	sc := &guard.Scope{Value: "L2"}
	for _, tc := range []struct {
		name string
		sql  string
		want string      // the end of the printed statement
		code apperr.Code // a rejection code instead
	}{
		{name: "limit kept", sql: "SELECT id FROM patients LIMIT 5", want: "LIMIT 5"},
		{name: "limit lowered", sql: "SELECT id FROM patients LIMIT 5000", want: "LIMIT 1001"},
		// Go's base prefixes are not SQLite's: 01751 is 1751 to SQLite.
		{name: "leading zero is decimal", sql: "SELECT id FROM patients LIMIT 01751", want: "LIMIT 1001"},
		{name: "leading zero under the cap", sql: "SELECT id FROM patients LIMIT 0010", want: "LIMIT 0010"},
		{name: "hexadecimal", sql: "SELECT id FROM patients LIMIT 0x7d1", want: "LIMIT 1001"},
		{name: "minus minus would print as a comment", sql: "SELECT - -1 AS x FROM patients", code: apperr.CodeValidationFailed},
		{name: "minus parenthesised", sql: "SELECT -(-1) AS x FROM patients", want: "LIMIT 1001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := g.Check(tc.sql, nil, sc)
			if tc.code != "" {
				if ge, ok := guard.IsRejection(err); !ok || ge.Code != tc.code {
					t.Fatalf("got %v, want a %s rejection", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(st.SQL, tc.want) {
				t.Errorf("printed as\n  %s\nwant it to end with %q", st.SQL, tc.want)
			}
		})
	}
}
