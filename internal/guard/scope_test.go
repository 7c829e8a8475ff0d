package guard_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// scopeDBs is the labs data on one database twice: all of it, and only
// the rows of the patients in keep (L2 unless a test asks for a set). A
// statement the guard accepted for that scope must answer the same on
// both — if it could see another patient's rows, some answer would
// differ. The copy keeps the rows in their original order, so even LIMIT
// without ORDER BY picks the same rows.
type scopeDBs struct {
	d          model.Dialect
	keep       []string
	full, only *source.Source
	// g checks the statements; nil: the shared guard of the labs model.
	g *guard.Guard
}

const scopeValue = "L2"

// scope is the guard's scope for the patients the copy holds: one value,
// or the set.
func (s scopeDBs) scope() *guard.Scope {
	if len(s.keep) == 1 {
		return &guard.Scope{Value: s.keep[0]}
	}
	return &guard.Scope{Values: s.keep}
}

// keepList renders keep as an SQL list of literals (test constants).
func keepList(keep []string) string {
	return "('" + strings.Join(keep, "', '") + "')"
}

func (s scopeDBs) check(t *testing.T, label, q string, args []any) (accepted bool) {
	t.Helper()
	g := s.g
	if g == nil {
		g = guardFor(t, "labs", s.d)
	}
	st, err := g.Check(q, args, s.scope())
	if _, ok := guard.IsRejection(err); ok {
		return false
	}
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	ctx := context.Background()
	a, errA := s.full.Query(ctx, st.SQL, st.Args, 0)
	b, errB := s.only.Query(ctx, st.SQL, st.Args, 0)
	if (errA == nil) != (errB == nil) {
		t.Errorf("%s: runs on one database only (%v / %v)\n  %s", label, errA, errB, st.SQL)
		return true
	}
	if errA != nil {
		return true // invalid SQL for this dialect: nothing was read
	}
	if diff := cmp.Diff(sortedRows(b.Rows), sortedRows(a.Rows)); diff != "" {
		t.Errorf("%s: sees rows of other patients (-only %v +all data):\n%s\n  %s", label, s.keep, diff, st.SQL)
	}
	return true
}

// plant renders statements that add rows to the full data only, with
// "{ns}" standing for the schema or database qualifier of its tables.
func plant(t testing.TB, db *sql.DB, ns string, stmts []string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(strings.ReplaceAll(q, "{ns}", ns)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// sqliteScopeDBs builds the SQLite pair for patient L2; planted
// statements add rows of other patients to the full data.
func sqliteScopeDBs(t testing.TB, planted ...string) scopeDBs {
	t.Helper()
	return sqliteScopeDBsOf(t, []string{scopeValue}, planted...)
}

// sqliteScopeDBsOf builds the SQLite pair for the patients in keep.
func sqliteScopeDBsOf(t testing.TB, keep []string, planted ...string) scopeDBs {
	t.Helper()
	full := demotest.Path(t, "labs")
	if len(planted) > 0 {
		p := filepath.Join(t.TempDir(), "labs-planted.db")
		copyFile(t, full, p)
		db, err := sql.Open("sqlite", p)
		if err != nil {
			t.Fatal(err)
		}
		plant(t, db, "", planted)
		db.Close()
		full = p
	}
	only := filepath.Join(t.TempDir(), "labs-l2.db")
	copyFile(t, full, only)
	db, err := sql.Open("sqlite", only)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DELETE FROM lab_results WHERE patient_id NOT IN " + keepList(keep),
		"DELETE FROM patients WHERE id NOT IN " + keepList(keep),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	return scopeDBs{d: model.SQLite, keep: keep, full: openSource(t, "sqlite:"+full), only: openSource(t, "sqlite:"+only)}
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func openSource(t testing.TB, dsn string) *source.Source {
	t.Helper()
	src, err := source.Open(context.Background(), "labs", dsn, demotest.Model(t, "labs"), source.Options{RowCap: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func pgScopeDBs(t testing.TB, planted ...string) scopeDBs {
	t.Helper()
	return pgScopeDBsOf(t, []string{scopeValue}, planted...)
}

func pgScopeDBsOf(t testing.TB, keep []string, planted ...string) scopeDBs {
	t.Helper()
	srv := testdb.PostgresServer(t)
	admin, full, only := srv.Admin, srv.Namespace(t, "t_scope"), srv.Namespace(t, "t_scope")
	if err := demo.LoadPostgres(context.Background(), admin, "labs", full, demo.Options{AsOf: demotest.AsOf}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE SCHEMA " + only,
		"CREATE TABLE " + only + ".patients AS SELECT * FROM " + full + ".patients WHERE id IN " + keepList(keep),
		"CREATE TABLE " + only + ".lab_results AS SELECT * FROM " + full + ".lab_results WHERE patient_id IN " + keepList(keep) + " ORDER BY id",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	plant(t, admin, full+".", planted)
	return scopeDBs{d: model.Postgres, keep: keep, full: openSource(t, srv.DSN(t, full)), only: openSource(t, srv.DSN(t, only))}
}

func mysqlScopeDBs(t testing.TB, planted ...string) scopeDBs {
	t.Helper()
	return mysqlScopeDBsOf(t, []string{scopeValue}, planted...)
}

func mysqlScopeDBsOf(t testing.TB, keep []string, planted ...string) scopeDBs {
	t.Helper()
	srv := testdb.MySQLServer(t)
	admin, full, only := srv.Admin, srv.Namespace(t, "t_scope"), srv.Namespace(t, "t_scope")
	if err := demo.LoadMySQL(context.Background(), admin, "labs", full, demo.Options{AsOf: demotest.AsOf}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE DATABASE " + only,
		"CREATE TABLE " + only + ".patients LIKE " + full + ".patients",
		"INSERT INTO " + only + ".patients SELECT * FROM " + full + ".patients WHERE id IN " + keepList(keep),
		"CREATE TABLE " + only + ".lab_results LIKE " + full + ".lab_results",
		"INSERT INTO " + only + ".lab_results SELECT * FROM " + full + ".lab_results WHERE patient_id IN " + keepList(keep) + " ORDER BY id",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	plant(t, admin, full+".", planted)
	return scopeDBs{d: model.MySQL, keep: keep, full: openSource(t, srv.DSN(t, full)), only: openSource(t, srv.DSN(t, only))}
}

func allScopeDBs(t *testing.T) []scopeDBs {
	t.Helper()
	return []scopeDBs{sqliteScopeDBs(t), pgScopeDBs(t), mysqlScopeDBs(t)}
}

// TestScopeProperty composes random statements over the labs model — joins
// through both tables, self-joins, subqueries (correlated or not), CTEs,
// derived tables, UNION branches, aggregates, windows, OR/NOT/NULL
// predicates — and runs every one the guard accepts for patient L2 on
// real SQLite, PostgreSQL and MariaDB: each returns only L2's rows.
func TestScopeProperty(t *testing.T) {
	const n = 300
	for _, dbs := range allScopeDBs(t) {
		t.Run(string(dbs.d), func(t *testing.T) {
			gen := &queryGen{r: rand.New(rand.NewPCG(7, uint64(len(dbs.d)))), d: dbs.d}
			accepted := 0
			for i := 0; i < n; i++ {
				q := gen.statement()
				if dbs.check(t, fmt.Sprintf("random #%d", i), q, nil) {
					accepted++
				}
			}
			t.Logf("%s: %d of %d random statements accepted and contained", dbs.d, accepted, n)
			if accepted < n/3 {
				t.Errorf("only %d of %d random statements were accepted: the property is barely tested", accepted, n)
			}
		})
	}
}

// TestContainedCorpus runs the statements that try to leave the scope but
// are accepted: every one returns only L2's rows.
func TestContainedCorpus(t *testing.T) {
	for _, dbs := range allScopeDBs(t) {
		t.Run(string(dbs.d), func(t *testing.T) {
			for _, e := range loadCorpus(t, dbs.d, "contained") {
				if !dbs.check(t, e.String(), e.SQL, e.Args) {
					t.Errorf("%s was rejected; the corpus expects it accepted and contained", e)
				}
			}
		})
	}
}

// TestScopeSetProperty is TestScopeProperty and the contained corpus for
// a user who may see a set of patients, {L1, L2}, and named none: every
// statement the guard accepts answers on the full data exactly as on a
// copy holding only L1's and L2's rows, on real SQLite, PostgreSQL and
// MariaDB.
func TestScopeSetProperty(t *testing.T) {
	const n = 150
	keep := []string{"L1", "L2"}
	for _, dbs := range []scopeDBs{sqliteScopeDBsOf(t, keep), pgScopeDBsOf(t, keep), mysqlScopeDBsOf(t, keep)} {
		t.Run(string(dbs.d), func(t *testing.T) {
			// Two patients' rows overflow the default row cap in self-joins,
			// and which rows a cut keeps is the plan's choice: no cut here.
			dbs.g = guard.New(demotest.Model(t, "labs"), dbs.d, guard.Options{RowCap: 100_000})
			gen := &queryGen{r: rand.New(rand.NewPCG(11, uint64(len(dbs.d)))), d: dbs.d}
			accepted := 0
			for i := 0; i < n; i++ {
				if dbs.check(t, fmt.Sprintf("random #%d", i), gen.statement(), nil) {
					accepted++
				}
			}
			contained := 0
			for _, e := range loadCorpus(t, dbs.d, "contained") {
				if dbs.check(t, e.String(), e.SQL, e.Args) {
					contained++
				}
			}
			t.Logf("%s: %d of %d random statements and %d contained-corpus statements accepted for %v and contained",
				dbs.d, accepted, n, contained, keep)
			if accepted < n/3 {
				t.Errorf("only %d of %d random statements were accepted: the property is barely tested", accepted, n)
			}
		})
	}
}

// queryGen composes random SELECT statements over the labs model.
type queryGen struct {
	r *rand.Rand
	d model.Dialect
}

func (g *queryGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// pred is a predicate over lab_results aliased a (a may be empty).
func (g *queryGen) pred(a string) string {
	c := func(col string) string {
		if a == "" {
			return col
		}
		return a + "." + col
	}
	atoms := []string{
		c("patient_id") + " = 'L2'", c("patient_id") + " <> 'L1'", c("patient_id") + " IS NULL",
		c("patient_id") + " IS NOT NULL", "1 = 1", c("value") + " > 5", c("analyte") + " LIKE 'V%'",
		"lower(" + c("patient_id") + ") = 'l3'", c("value") + " > " + c("reference_high"),
		c("patient_id") + " IN (SELECT id FROM patients)", c("patient_id") + " IN ('L1', 'L3')",
		"EXISTS (SELECT 1 FROM patients q WHERE q.id <> " + c("patient_id") + ")",
		c("analyte") + " IN (SELECT x.analyte FROM lab_results x WHERE x.value > 10)",
	}
	p := g.pick(atoms...)
	switch g.r.IntN(4) {
	case 0:
		return p + " OR " + g.pick(atoms...)
	case 1:
		return "NOT (" + p + ")"
	case 2:
		return "(" + p + " AND " + g.pick(atoms...) + ") OR " + g.pick(atoms...)
	}
	return p
}

func (g *queryGen) statement() string {
	switch g.r.IntN(12) {
	case 0:
		return "SELECT r.patient_id, r.analyte, r.value FROM lab_results r WHERE " + g.pred("r") + " ORDER BY r.id"
	case 1:
		return "SELECT r.patient_id, p.id, p.full_name FROM lab_results r JOIN patients p ON " +
			g.pick("p.id = r.patient_id", "1 = 1", "p.id <> r.patient_id", "p.gender = 'F'") + " WHERE " + g.pred("r")
	case 2:
		return "SELECT patient_id FROM lab_results WHERE " + g.pred("") + " UNION" + g.pick("", " ALL") +
			" SELECT id FROM patients" + g.pick("", " WHERE id <> 'L2'", " WHERE 1 = 1")
	case 3:
		return "WITH c AS (SELECT patient_id, value FROM lab_results WHERE " + g.pred("") + ") SELECT * FROM c" +
			g.pick("", " WHERE patient_id <> 'L2'", " WHERE value > 1")
	case 4:
		return "SELECT t.* FROM (SELECT patient_id, analyte FROM lab_results WHERE " + g.pred("") + ") t"
	case 5:
		return "SELECT patient_id, count(*), avg(value) FROM lab_results GROUP BY patient_id" + g.pick("", " HAVING count(*) > 1", " HAVING patient_id IS NOT NULL")
	case 6:
		return "SELECT (SELECT count(*) FROM lab_results" + g.pick("", " WHERE "+g.pred("")) + ") AS n, (SELECT max(full_name) FROM patients) AS m"
	case 7:
		return "SELECT patient_id, row_number() OVER (PARTITION BY patient_id ORDER BY id) AS rn, count(*) OVER () AS total FROM lab_results WHERE " + g.pred("")
	case 8:
		return "SELECT p.id, (SELECT count(*) FROM lab_results r WHERE " + g.pick("r.patient_id <> p.id", "r.patient_id = p.id", "1 = 1") + ") AS n FROM patients p"
	case 9:
		return "SELECT a.patient_id, b.patient_id FROM lab_results a JOIN lab_results b ON a.analyte = b.analyte AND " +
			g.pick("a.patient_id <> b.patient_id", "a.id = b.id", "1 = 1") + " WHERE " + g.pred("a")
	case 10:
		return "SELECT full_name FROM patients p WHERE " + g.pick("EXISTS", "NOT EXISTS") +
			" (SELECT 1 FROM lab_results r WHERE r.patient_id = p.id AND " + g.pred("r") + ")"
	}
	cols := g.pick("patient_id", "analyte", "patient_id, analyte")
	// LIMIT only after a total order: which rows a bare LIMIT keeps is up
	// to the database, and the two databases may differ.
	return "SELECT DISTINCT " + cols + " FROM lab_results WHERE " + g.pred("") + g.pick("", " ORDER BY "+cols+" LIMIT 3")
}

// TestScopeValuesQuoted: scope values with quotes and backslashes are
// literals, never SQL.
func TestScopeValuesQuoted(t *testing.T) {
	for _, dbs := range allScopeDBs(t) {
		t.Run(string(dbs.d), func(t *testing.T) {
			for _, v := range []string{`L2' OR '1'='1`, `L2\' OR 1=1 -- `, `L2"`, `L2\`, "L2'; DELETE FROM patients; --"} {
				st, err := guardFor(t, "labs", dbs.d).Check("SELECT id FROM patients", nil, &guard.Scope{Value: v})
				if err != nil {
					continue // refusing an odd value is fine too
				}
				res, err := dbs.full.Query(context.Background(), st.SQL, nil, 0)
				if err != nil {
					t.Errorf("scope %q: %v\n  %s", v, err, st.SQL)
					continue
				}
				if len(res.Rows) != 0 {
					t.Errorf("scope %q matched %d rows: the value escaped its literal\n  %s", v, len(res.Rows), st.SQL)
				}
			}
		})
	}
}
