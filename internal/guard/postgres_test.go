package guard_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// pgTreeStatements exercise node types and constants the corpora rarely
// hold, including ones the guard refuses (their trees must still be read
// right, or the refusal could be for the wrong reason).
var pgTreeStatements = []string{
	`SELECT 'a''b', E'tab\there\\ \'q\'', $$dollar 'quoted'$$, $tag$x$tag$, U&'\0041', 'con'
	'tinued', B'0101', X'1F', 1.5e3, -4, +2, 0x1F, 1_000, TRUE, FALSE, NULL, '<tag>&"'`,
	`SELECT 'a' -- a comment
	'b' AS "Mixed ""Case""", U&"\0061" FROM t`,
	`SELECT date '2024-01-01', interval '1 day', '1'::int, CAST('2' AS numeric(10, 2)), ARRAY[1, 2][1], (ROW(1, 2)).f1`,
	`SELECT a IS DISTINCT FROM b, a BETWEEN SYMMETRIC 1 AND 2, a ILIKE 'x' ESCAPE '!', a SIMILAR TO 'x', NULLIF(a, b), GREATEST(a, b), a IS NOT TRUE, a IN (1, 2), a <> ALL (ARRAY[1])`,
	`SELECT count(*) FILTER (WHERE a > 1), sum(a) OVER (PARTITION BY b ORDER BY c ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), percentile_cont(0.5) WITHIN GROUP (ORDER BY a), string_agg(DISTINCT a, ',' ORDER BY a) FROM t GROUP BY GROUPING SETS ((a), (b)), CUBE (c), ROLLUP (d)`,
	`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SEARCH DEPTH FIRST BY n SET o SELECT * FROM r, LATERAL (SELECT 1) l, generate_series(1, 2) g, ONLY t, t2 * NATURAL JOIN t3 TABLESAMPLE SYSTEM (10)`,
	`SELECT json_object('a': 1), xmlelement(name a, 'b'), EXTRACT(year FROM now()), SUBSTRING('abc' FROM 1 FOR 2), TRIM(BOTH 'x' FROM 'xax'), CURRENT_DATE, CURRENT_USER, a COLLATE "C" FROM t FOR UPDATE OF t SKIP LOCKED`,
	`VALUES (1, 'a'), (2, 'b') ORDER BY 1 LIMIT ALL OFFSET 1 ROWS`,
	`TABLE patients`,
	`(SELECT 1 FETCH FIRST 3 ROWS WITH TIES)`,
	`INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = excluded.a RETURNING *`,
	`UPDATE t SET a = 1 FROM u WHERE t.id = u.id; DELETE FROM t USING u WHERE t.a = u.a`,
	`CREATE TABLE t (a int PRIMARY KEY, b text DEFAULT 'x' CHECK (b <> ''))`,
	`COPY t TO '/tmp/x' WITH (FORMAT csv); SET search_path = public; DO $$ BEGIN NULL; END $$`,
	`SELECT $1, $2::text, pg_sleep(1), x.* FROM t AS x(a, b) WHERE x.a = ANY($3)`,
}

// TestPostgresJSONTree checks that the tree the guard reads from
// libpg_query's JSON is pg_query's own parse tree, node for node, for every
// corpus statement of every dialect and the statements above.
func TestPostgresJSONTree(t *testing.T) {
	t.Parallel()
	stmts := append([]string(nil), pgTreeStatements...)
	for _, d := range model.Dialects() {
		for _, kind := range []string{"hostile", "legit", "contained"} {
			for _, e := range loadCorpus(t, d, kind) {
				stmts = append(stmts, e.SQL)
			}
		}
	}
	for _, c := range dosStatements() {
		if len(c.sql) <= 32<<10 {
			stmts = append(stmts, c.sql)
		}
	}
	parsed := 0
	for _, s := range stmts {
		if msg := comparePostgresTree(s); msg != "" {
			t.Errorf("%.80q: %s", s, msg)
		}
		if _, err := pg.Parse(s); err == nil {
			parsed++
		}
	}
	if parsed < len(stmts)/2 {
		t.Errorf("only %d of %d statements parse: the comparison compared little", parsed, len(stmts))
	}
}

// comparePostgresTree says how the guard's tree of s differs from
// pg_query's, "" when it does not.
func comparePostgresTree(s string) string {
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		return "" // the guard refuses these before parsing
	}
	want, err := pg.Parse(s)
	got, gotErr := guard.PostgresTree(s)
	switch {
	case err != nil && gotErr == nil:
		return "pg_query refuses it (" + err.Error() + "), the guard's parse does not"
	case err != nil:
		return ""
	case gotErr != nil:
		return "the guard cannot read its tree: " + gotErr.Error()
	}
	if proto.Equal(want, got) {
		return ""
	}
	return "trees differ (-pg_query +guard):\n" + cmp.Diff(want, got, protocmp.Transform())
}

// TestPostgresSameTree checks the comparison of printed trees ignores
// positions and nothing else.
func TestPostgresSameTree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"identical", `{"a":{"b":1}}`, `{"a":{"b":1}}`, true},
		{"locations differ", `{"a":{"b":1,"location":7}}`, `{"a":{"b":1,"location":93}}`, true},
		{"location only on one side", `{"a":{"location":7,"b":1},"c":[{"location":-1}]}`, `{"a":{"b":1},"c":[{}]}`, true},
		{"statement positions", `{"stmts":[{"stmt":{"x":1},"stmt_location":3,"stmt_len":9}]}`, `{"stmts":[{"stmt":{"x":1}}]}`, true},
		{"leading members", `{"stmt_location":3,"stmt_len":9,"x":1}`, `{"x":1}`, true},
		{"value differs", `{"a":{"b":1,"location":7}}`, `{"a":{"b":2,"location":7}}`, false},
		{"member missing", `{"a":{"b":1,"c":2}}`, `{"a":{"b":1}}`, false},
		{"string that looks like a location", `{"s":"x\",\"location\":1"}`, `{"s":"x\""}`, false},
		{"other key ending in n", `{"join":5}`, `{}`, false},
		{"key containing location", `{"xlocation":5}`, `{}`, false},
		{"prefix", `{"a":1}`, `{"a":1}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := guard.PostgresSameTree(tc.a, tc.b); got != tc.same {
				t.Errorf("same(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.same)
			}
			if got := guard.PostgresSameTree(tc.b, tc.a); got != tc.same {
				t.Errorf("same(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.same)
			}
		})
	}
}

// TestPostgresPrinted checks how accepted PostgreSQL statements are printed:
// no comment survives, constants keep their values, every form of a table reference is replaced,
// and every form of LIMIT is capped. Each printed statement is accepted
// again as it stands.
func TestPostgresPrinted(t *testing.T) {
	t.Parallel()
	g := guardFor(t, "labs", model.Postgres)
	sc := &guard.Scope{Value: "L2"}
	proj := `(SELECT "id", "full_name", "gender", "date_of_birth" FROM "patients" WHERE "id" = 'L2' OFFSET 0) AS`
	for _, tc := range []struct {
		name string
		sql  string
		args []any
		want []string    // substrings of the printed statement
		code apperr.Code // a rejection code instead
	}{
		{name: "comments dropped", sql: "/*+ SeqScan(p) */ SELECT full_name -- the name\nFROM patients p /* alias */ WHERE id = 'L2';",
			want: []string{"SELECT full_name FROM " + proj + " p WHERE id = 'L2' LIMIT 1001"}},
		{name: "string continued over lines", sql: "SELECT full_name FROM patients WHERE full_name <> 'a'\n  'b'",
			want: []string{"full_name <> 'ab' LIMIT 1001"}},
		{name: "comment between continued strings", sql: "SELECT full_name FROM patients WHERE full_name <> 'a'\n-- /*+ hint */\n'b'",
			code: apperr.CodeValidationFailed},
		{name: "constants printed from their values", sql: `SELECT E'x\\y', $$it's$$, 'a''b', B'01', x'1f', 1.5e3, -4, '<>' FROM patients`,
			want: []string{`SELECT E'x\\y' , 'it''s' , 'a''b' , B'01' , X'1f' , 1.5e3 , - 4 , '<>' FROM`}},
		{name: "unicode escapes refused", sql: `SELECT U&'\0041' FROM patients`, code: apperr.CodeValidationFailed},
		{name: "quoted names kept", sql: `SELECT "p"."full_name" FROM "patients" AS "p"`, want: []string{proj + ` "p"`}},
		{name: "no alias", sql: `SELECT full_name FROM patients`, want: []string{proj + " patients LIMIT"}},
		{name: "ONLY", sql: `SELECT full_name FROM ONLY patients`, want: []string{"FROM " + proj + " patients LIMIT"}},
		{name: "ONLY in parentheses", sql: `SELECT full_name FROM ONLY (patients) p`, want: []string{"FROM " + proj + " p LIMIT"}},
		{name: "inheritance star", sql: `SELECT full_name FROM patients * AS p`, want: []string{"FROM " + proj + " p LIMIT"}},
		{name: "TABLE", sql: `TABLE patients`, want: []string{"SELECT * FROM " + proj + " patients LIMIT 1001"}},
		{name: "join", sql: `SELECT p.full_name FROM lab_results r JOIN patients p ON p.id = r.patient_id`, want: []string{"JOIN " + proj + " p ON"}},
		{name: "CTE not replaced", sql: `WITH x AS (SELECT id FROM patients) SELECT id FROM x`, want: []string{"SELECT id FROM x LIMIT 1001"}},
		{name: "limit kept", sql: `SELECT id FROM patients LIMIT 5`, want: []string{"LIMIT 5"}},
		{name: "limit lowered", sql: `SELECT id FROM patients LIMIT 5000 OFFSET 2`, want: []string{"LIMIT 1001 OFFSET 2"}},
		{name: "negative limit", sql: `SELECT id FROM patients LIMIT -5`, want: []string{"LIMIT 1001"}},
		{name: "LIMIT ALL", sql: `SELECT id FROM patients LIMIT ALL`, want: []string{"LIMIT 1001"}},
		{name: "LIMIT NULL", sql: `SELECT id FROM patients OFFSET 1 LIMIT NULL`, want: []string{"OFFSET 1 LIMIT 1001"}},
		{name: "placeholder", sql: `SELECT id FROM patients LIMIT $1`, args: []any{5}, want: []string{"LIMIT LEAST( $1 , 1001)"}},
		{name: "expression", sql: `SELECT id FROM patients LIMIT (2 + 3) OFFSET 1`, want: []string{"LIMIT LEAST( ( 2 + 3 ) , 1001) OFFSET 1"}},
		{name: "subquery in LIMIT", sql: `SELECT id FROM patients LIMIT (SELECT count(*) FROM patients)`,
			want: []string{"LIMIT LEAST( ( SELECT count ( * ) FROM " + proj + " patients ) , 1001)"}},
		{name: "FETCH FIRST", sql: `SELECT id FROM patients OFFSET 1 ROWS FETCH FIRST 5000 ROWS ONLY`, want: []string{"FETCH FIRST 1001 ROWS ONLY"}},
		{name: "FETCH FIRST ROW", sql: `SELECT id FROM patients FETCH NEXT ROW ONLY`, want: []string{"FETCH NEXT ROW ONLY"}},
		{name: "parenthesized statement", sql: `((SELECT id FROM patients))`, want: []string{"( ( SELECT id FROM " + proj + " patients LIMIT 1001 ) )"}},
		{name: "parenthesized with limit", sql: `(SELECT id FROM patients LIMIT 9999)`, want: []string{"LIMIT 1001 )"}},
		{name: "union", sql: `SELECT id FROM patients UNION (SELECT id FROM patients LIMIT 3) LIMIT $1`, args: []any{2},
			want: []string{"LIMIT 3 ) LIMIT LEAST( $1 , 1001)"}},
		{name: "limit in a subquery only", sql: `SELECT id FROM (SELECT id FROM patients LIMIT 9999) s`, want: []string{"LIMIT 9999 ) s LIMIT 1001"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := g.Check(tc.sql, tc.args, sc)
			if tc.code != "" {
				if ge, ok := guard.IsRejection(err); !ok || ge.Code != tc.code {
					t.Fatalf("got %v, want a %s rejection", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(st.SQL, w) {
					t.Errorf("printed as\n  %s\nwhich lacks\n  %s", st.SQL, w)
				}
			}
			for _, c := range []string{"--", "/*", "hint", "alias */", "the name"} {
				if strings.Contains(st.SQL, c) {
					t.Errorf("printed as\n  %s\nwhich holds %q", st.SQL, c)
				}
			}
			if _, err := g.Check(st.SQL, st.Args, sc); err != nil {
				t.Errorf("printed as\n  %s\nwhich is refused: %v", st.SQL, err)
			}
		})
	}
}
