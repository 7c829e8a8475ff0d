package guard_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// The fuzz targets feed arbitrary statements to a guard scoped to patient
// L2 of the labs model. CI runs each for about 20 s, as a count of inputs
// (a duration can fail at its deadline in Go 1.26; see .ci/run):
//
//	go test ./internal/guard -run '^$' -fuzz '^FuzzSQLite$' -fuzztime 40000x
//	go test ./internal/guard -run '^$' -fuzz '^FuzzPostgres$' -fuzztime 25000x
//	go test ./internal/guard -run '^$' -fuzz '^FuzzMySQL$' -fuzztime 50000x
//
// Properties: no input makes the guard's own code panic (a third-party
// parser that panics is caught and the statement rejected); for
// PostgreSQL, the tree the guard reads is pg_query's own; an accepted
// statement is accepted again as printed (what runs is what was checked);
// and, run on the labs data (SQLite always, the servers when their DSNs are set), it
// shows nothing of the other patients and, without LIMIT, answers exactly
// as it does on a copy holding only L2's rows. Crashers are kept in
// testdata/fuzz/.

func FuzzSQLite(f *testing.F)   { fuzzGuard(f, model.SQLite) }
func FuzzPostgres(f *testing.F) { fuzzGuard(f, model.Postgres) }
func FuzzMySQL(f *testing.F)    { fuzzGuard(f, model.MySQL) }

// otherPatients are values only other patients' rows hold.
var otherPatients = []string{"l1", "l3", "ivan petrov", "maria rodriguez"}

func fuzzGuard(f *testing.F, d model.Dialect) {
	for _, kind := range []string{"hostile", "legit", "contained"} {
		for _, e := range loadCorpus(f, d, kind) {
			if e.Model == "labs" && len(e.Args) == 0 {
				f.Add(e.SQL)
			}
		}
	}
	g := guard.New(demotest.Model(f, "labs"), d, guard.Options{})
	guard.Panics(g)
	dbs := fuzzDBs(f, d)
	sc := &guard.Scope{Value: "L2"}
	f.Fuzz(func(t *testing.T, q string) {
		if d == model.Postgres {
			if msg := comparePostgresTree(q); msg != "" {
				t.Fatalf("%q: %s", q, msg)
			}
		}
		st, err := g.Check(q, nil, sc)
		if err != nil {
			if _, ok := guard.IsRejection(err); !ok {
				t.Fatalf("the guard failed: %v", err)
			}
			return
		}
		if _, err := g.Check(st.SQL, nil, sc); err != nil {
			t.Fatalf("accepted %q, but not as printed: %v\n  %s", q, err, st.SQL)
		}
		if dbs == nil {
			return
		}
		res, err := dbs.full.Query(context.Background(), st.SQL, nil, 0)
		if err != nil {
			return // valid for the guard, not for the database: nothing read
		}
		lower := strings.ToLower(q)
		mentions := false
		for _, o := range otherPatients {
			mentions = mentions || strings.Contains(lower, o)
		}
		if !mentions {
			for o, s := range shownOthers(res.Rows) {
				if !madeByStatement(dbs.only, st, o) {
					t.Fatalf("%q shows another patient's data (%q)\n  %s", q, s, st.SQL)
				}
			}
		}
		// rows compared with the patient's own data must not depend on the
		// order rows are read in: not with a limit, randomness, or a window
		// (a frame of "1 PRECEDING" with no ORDER BY, or ties within one,
		// sums other neighbours when the scope's rows are read in another
		// order — FuzzMySQL found it as a flake, not a leak)
		if !strings.Contains(lower, "limit") && !strings.Contains(lower, "offset") && !strings.Contains(lower, "fetch") &&
			!strings.Contains(lower, "random") && !strings.Contains(lower, "rand(") && !windowed(lower) {
			dbs.check(t, fmt.Sprintf("%q", q), q, nil)
		}
	})
}

// shownOthers maps each of otherPatients that a value of rows holds to
// one such value (lower-cased).
func shownOthers(rows [][]any) map[string]string {
	shown := map[string]string{}
	for _, r := range rows {
		for _, v := range r {
			s := strings.ToLower(fmt.Sprint(v))
			for _, o := range otherPatients {
				if strings.Contains(s, o) {
					shown[o] = s
				}
			}
		}
	}
	return shown
}

// madeByStatement reports whether the statement shows other even on the
// copy that holds no other patient's rows: the statement built the text
// itself (FuzzSQLite found "SELECT char(76, 51)", which spells "L3"), so
// showing it reads nothing of theirs.
func madeByStatement(only *source.Source, st *guard.Statement, other string) bool {
	res, err := only.Query(context.Background(), st.SQL, st.Args, 0)
	if err != nil {
		return false
	}
	_, ok := shownOthers(res.Rows)[other]
	return ok
}

// windowed reports whether a lower-cased statement may use a window
// function: OVER followed by an opening parenthesis or a window's name.
func windowed(lower string) bool {
	for i := strings.Index(lower, "over"); i >= 0; i = nextOver(lower, i) {
		before := i == 0 || !isWordByte(lower[i-1])
		after := i+4 >= len(lower) || !isWordByte(lower[i+4])
		if before && after {
			return true
		}
	}
	return false
}

// nextOver is the index of the next "over" in s after i, or -1.
func nextOver(s string, i int) int {
	j := strings.Index(s[i+1:], "over")
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// fuzzDBs returns the scope databases for a dialect: SQLite always, a
// server only when its DSN is set (fuzzing does not require servers).
func fuzzDBs(f *testing.F, d model.Dialect) *scopeDBs {
	var dbs scopeDBs
	switch d {
	case model.SQLite:
		dbs = sqliteScopeDBs(f)
	case model.Postgres:
		if os.Getenv(testdb.EnvPostgres) == "" {
			return nil
		}
		dbs = pgScopeDBs(f)
	default:
		if os.Getenv(testdb.EnvMySQL) == "" {
			return nil
		}
		dbs = mysqlScopeDBs(f)
	}
	return &dbs
}
