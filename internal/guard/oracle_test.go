package guard_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgconn"
	sqlite "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// outcome is what a statement shows its caller: its rows (sorted, so the
// order a plan happens to produce does not count) and whether they were
// cut, or its error as the driver reports it — SQLSTATE or error number
// and message.
type outcome struct {
	Rows      []string
	Truncated bool
	Err       string
}

func outcomeOf(res *source.Result, err error) outcome {
	if err == nil {
		return outcome{Rows: sortedRows(res.Rows), Truncated: res.Truncated}
	}
	var pe *pgconn.PgError
	var me *mysql.MySQLError
	var se *sqlite.Error
	switch {
	case errors.As(err, &pe):
		return outcome{Err: "SQLSTATE " + pe.Code + ": " + pe.Message}
	case errors.As(err, &me):
		// MariaDB quotes the failing expression with its database's name.
		return outcome{Err: fmt.Sprintf("error %d: %s", me.Number, testNamespace.ReplaceAllString(me.Message, "ns"))}
	case errors.As(err, &se):
		return outcome{Err: fmt.Sprintf("code %d: %s", se.Code(), se.Error())}
	}
	return outcome{Err: err.Error()}
}

// testNamespace matches the names testdb gives private schemas.
var testNamespace = regexp.MustCompile(`t_scope_[0-9a-f]+`)

// oracleRows are rows of another patient (L1) planted in the full data
// only, with values that make a function fail when they reach it as
// data: a regular expression that does not compile, a LIKE pattern that
// ends in its escape character (a lone backslash), a pattern too long for SQLite. The
// corpus aims at them by key (9001, 9002).
func oracleRows(d model.Dialect) []string {
	backslash := map[model.Dialect]string{model.SQLite: "char(92)", model.Postgres: "chr(92)", model.MySQL: "CHAR(92)"}[d]
	return []string{
		"INSERT INTO {ns}lab_results (id, patient_id, analyte, value, unit, reference_low, reference_high, test_date) VALUES " +
			"(9001, 'L1', '" + strings.Repeat("%_", 60) + "', 1, '(', NULL, NULL, '2023-12-30'), " +
			"(9002, 'L1', 'Zinc', 1, " + backslash + ", NULL, NULL, '2023-12-30')",
	}
}

// oracleTargets are the rows of other patients the error-oracle corpus
// aims at, by key: the test fails if the demo data no longer puts them
// outside the scope (the patients in keep), since the corpus would then
// prove nothing.
func oracleTargets(keep []string) []string {
	out := keepList(keep)
	return []string{
		"SELECT count(*) FROM lab_results WHERE id IN (1, 15, 16) AND patient_id NOT IN " + out + " AND value > 40",
		"SELECT count(*) FROM lab_results WHERE id IN (9001, 9002) AND patient_id = 'L1' AND patient_id NOT IN " + out,
		"SELECT count(*) FROM patients WHERE full_name = 'Ivan Petrov' AND id NOT IN " + out + " AND date_of_birth < '1990-01-01'",
	}
}

// TestErrorOracle runs the error-oracle corpus (testdata/corpus/DIALECT/
// oracle.sql): statements scoped to patient L2 that try to learn about
// another patient's rows from whether an error is raised — overflows,
// domain errors, failed casts, bad regular expressions, built from that
// row's values and aimed at it by key. Every statement must either be
// refused by the guard or behave on the full data exactly as on an oracle
// database holding only L2's rows: the same rows, or the same error.
//
// It runs again for a user who may see a set of patients and named none.
// The corpus aims at L1's rows, so the set is {L2, L3} — the patients
// other than the one attacked — against an oracle holding only L2's and
// L3's rows.
func TestErrorOracle(t *testing.T) {
	for _, keep := range [][]string{{scopeValue}, {"L2", "L3"}} {
		for _, dbs := range []scopeDBs{
			sqliteScopeDBsOf(t, keep, oracleRows(model.SQLite)...),
			pgScopeDBsOf(t, keep, oracleRows(model.Postgres)...),
			mysqlScopeDBsOf(t, keep, oracleRows(model.MySQL)...),
		} {
			t.Run(strings.Join(keep, ",")+"/"+string(dbs.d), func(t *testing.T) {
				errorOracle(t, dbs)
			})
		}
	}
}

func errorOracle(t *testing.T, dbs scopeDBs) {
	ctx := context.Background()
	for _, q := range oracleTargets(dbs.keep) {
		res, err := dbs.full.Query(ctx, q, nil, 0)
		if err != nil || len(res.Rows) != 1 || fmt.Sprint(res.Rows[0][0]) == "0" {
			t.Fatalf("the corpus's target rows are not in the demo data as expected (%v): %s", err, q)
		}
	}
	g := guardFor(t, "labs", dbs.d)
	var n, equal, live int
	var refused []string
	for _, e := range loadCorpus(t, dbs.d, "oracle") {
		n++
		st, err := g.Check(e.SQL, e.Args, dbs.scope())
		if _, ok := guard.IsRejection(err); ok {
			refused = append(refused, e.Name)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		full := outcomeOf(dbs.full.Query(ctx, st.SQL, st.Args, 0))
		only := outcomeOf(dbs.only.Query(ctx, st.SQL, st.Args, 0))
		// Unscoped, the statement should trip on the row it aims at;
		// a corpus of dead payloads would prove nothing.
		if un, err := g.Check(e.SQL, e.Args, nil); err == nil {
			if o := outcomeOf(dbs.full.Query(ctx, un.SQL, un.Args, 0)); o.Err != "" && o.Err != only.Err {
				live++
			}
		}
		if diff := cmp.Diff(only, full); diff != "" {
			t.Errorf("%s: tells the full data from %v's rows alone (-only %v +all data):\n%s  %s", e, dbs.keep, dbs.keep, diff, st.SQL)
			continue
		}
		equal++
	}
	t.Logf("%s %v: %d statements, %d refused %v, %d equal to the oracle; unscoped, %d raise an error on their target row",
		dbs.d, dbs.keep, n, len(refused), refused, equal, live)
	if accepted := n - len(refused); live < accepted/2 {
		t.Errorf("only %d of %d accepted statements raise an error on their target row unscoped: the corpus has gone stale", live, accepted)
	}
}
