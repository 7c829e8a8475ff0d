package source

import (
	"context"
	"fmt"
	"strings"
)

// MaxMappedValues bounds the scope values one user can be granted through a
// mapping table (a clinician's patients).
const MaxMappedValues = 100_000

// ScopeMapping reads the scope values a user may see from a mapping table
// of the target database (care_team: clinician → patient). The table and
// column names come from the operator's configuration and are quoted as
// identifiers ("schema.table" quotes each part); the user is a bound
// parameter, never SQL text. Like the catalog's own statements it is built
// by code, not from a question, and runs read-only with the source's
// limits. Values come back sorted, without duplicates or NULLs.
func (s *Source) ScopeMapping(ctx context.Context, table, userColumn, valueColumn, user string) ([]string, error) {
	if table == "" || userColumn == "" || valueColumn == "" {
		return nil, fmt.Errorf("a scope mapping needs a table, a user column and a value column")
	}
	w := s.Target.Dialect.QuoteIdent
	parts := strings.Split(table, ".")
	for i, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("scope mapping table %q: an empty name part", table)
		}
		parts[i] = w(p)
	}
	q := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s = %s AND %s IS NOT NULL ORDER BY %s LIMIT %d",
		w(valueColumn), strings.Join(parts, "."), w(userColumn), placeholder(s.Target.Dialect, 1), w(valueColumn), w(valueColumn), MaxMappedValues+1)
	res, err := s.Query(ctx, q, []any{user}, MaxMappedValues+1)
	if err != nil {
		return nil, fmt.Errorf("read scope mapping %s: %w", table, err)
	}
	if len(res.Rows) > MaxMappedValues {
		return nil, fmt.Errorf("scope mapping %s grants more than %d values to one user", table, MaxMappedValues)
	}
	rows := textRows(res.Rows)
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, r[0])
	}
	return out, nil
}
