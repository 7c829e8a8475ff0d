package introspect_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/introspect"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// randomSchema is a schema made up from a seed: a few tables with
// realistic and awkward names, foreign keys between them, and rows whose
// values include the words questions are made of ("in", "by", month
// names, numbers written as text).
type randomSchema struct {
	ddl   []string
	words []string // table and column words, and some stored values
}

var (
	fuzzTables  = []string{"customers", "orders", "order_items", "products", "employees", "dept", "Invoice", "trackList", "people", "events", "cars_data", "player_ages", "stats"}
	fuzzColumns = []struct{ name, typ string }{
		{"name", "TEXT"}, {"first_name", "TEXT"}, {"last_name", "TEXT"}, {"au_fname", "TEXT"}, {"city", "TEXT"},
		{"state", "VARCHAR(2)"}, {"status", "TEXT"}, {"price", "DECIMAL(10,2)"}, {"unit_price", "REAL"}, {"quantity", "INTEGER"},
		{"qty", "INTEGER"}, {"created_at", "TIMESTAMP"}, {"order_date", "DATE"}, {"birth_year", "INTEGER"}, {"Year", "TEXT"},
		{"age", "TEXT"}, {"height", "REAL"}, {"weight_kg", "REAL"}, {"runtime", "INTEGER"}, {"is_active", "INTEGER"},
		{"flag", "TEXT"}, {"commission_pct", "REAL"}, {"discount", "REAL"}, {"milliseconds", "INTEGER"}, {"notes", "TEXT"},
		{"password_hash", "TEXT"}, {"code", "TEXT"}, {"level", "INTEGER"}, {"salary", "INTEGER"}, {"LifeExpectancy", "REAL"},
	}
	fuzzText = []string{"IN", "ON", "BY", "us", "March", "May", "Sales Manager", "High", "long", "New York", "Paris", "WA",
		"Y", "N", "1", "0", "", "Age 6", "2009", "null", "O'Brien", "Ärzte", "a|b|c", "100", "3.5"}
	fuzzQuestions = []string{"how many %s", "top 3 %s by %s", "%s with %s over 10", "average %s of %s", "%s in %s",
		"the most expensive %s", "%s not in %s", "who reports to %s", "%s per %s", "%s born before 1990",
		"%s between 2 and 5 %s", "the youngest %s", "%s whose %s starts with a", "which %s has the most %s",
		"%s that never %s", "%s in the last 30 days", "total %s by month", "%s lighter than 3 kg", "%s's %s"}
)

func newRandomSchema(seed uint64) randomSchema {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var rs randomSchema
	nt := 1 + r.IntN(4)
	perm := r.Perm(len(fuzzTables))
	var tables []string
	for i := 0; i < nt; i++ {
		t := fuzzTables[perm[i]]
		tables = append(tables, t)
		cols := []string{"id INTEGER PRIMARY KEY"}
		used := map[string]bool{"id": true}
		var fks []string
		if i > 0 && r.IntN(3) > 0 {
			parent := tables[r.IntN(i)]
			fk := strings.ToLower(strings.TrimSuffix(parent, "s")) + "_ref"
			cols = append(cols, fk+" INTEGER")
			fks = append(fks, fmt.Sprintf("FOREIGN KEY (%s) REFERENCES %q (id)", fk, parent))
			used[fk] = true
		}
		if r.IntN(4) == 0 {
			cols = append(cols, "manager_id INTEGER")
			fks = append(fks, fmt.Sprintf("FOREIGN KEY (manager_id) REFERENCES %q (id)", t))
		}
		for k := 0; k < 2+r.IntN(6); k++ {
			c := fuzzColumns[r.IntN(len(fuzzColumns))]
			if used[c.name] {
				continue
			}
			used[c.name] = true
			cols = append(cols, fmt.Sprintf("%q %s", c.name, c.typ))
			rs.words = append(rs.words, strings.ReplaceAll(c.name, "_", " "))
		}
		rs.words = append(rs.words, strings.ReplaceAll(strings.ToLower(t), "_", " "))
		rs.ddl = append(rs.ddl, fmt.Sprintf("CREATE TABLE %q (%s)", t, strings.Join(append(cols, fks...), ", ")))
		rs.ddl = append(rs.ddl, fuzzRows(r, t, cols, i)...)
	}
	for k := 0; k < 3; k++ {
		rs.words = append(rs.words, fuzzText[r.IntN(len(fuzzText))])
	}
	return rs
}

// fuzzRows inserts a few rows into table t with columns cols (their DDL).
func fuzzRows(r *rand.Rand, t string, cols []string, parents int) []string {
	var out []string
	for row := 1; row <= 2+r.IntN(12); row++ {
		var names, vals []string
		for _, c := range cols {
			name, typ, _ := strings.Cut(c, " ")
			names = append(names, name)
			switch {
			case name == "id":
				vals = append(vals, fmt.Sprint(row))
			case strings.HasSuffix(name, "_ref") || name == "manager_id":
				if r.IntN(5) == 0 || parents == 0 && name != "manager_id" {
					vals = append(vals, "NULL")
				} else {
					vals = append(vals, fmt.Sprint(1+r.IntN(row)))
				}
			case strings.Contains(typ, "INT"):
				vals = append(vals, fmt.Sprint([]int{0, 1, 2, 1990, 2009, 120000, -3, 45}[r.IntN(8)]))
			case strings.Contains(typ, "REAL") || strings.Contains(typ, "DECIMAL"):
				vals = append(vals, fmt.Sprint([]float64{0, 0.3, 1, 2.5, 19.99, 180.5, 1e6}[r.IntN(7)]))
			case typ == "DATE" || typ == "TIMESTAMP":
				vals = append(vals, fmt.Sprintf("'%s'", time.Date(2020+r.IntN(6), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC).Format("2006-01-02")))
			default:
				vals = append(vals, "'"+strings.ReplaceAll(fuzzText[r.IntN(len(fuzzText))], "'", "''")+"'")
			}
		}
		out = append(out, fmt.Sprintf("INSERT INTO %q (%s) VALUES (%s)", t, strings.Join(names, ", "), strings.Join(vals, ", ")))
	}
	return out
}

// fuzzEngines caches one engine per seed within a fuzzing process.
var fuzzEngines struct {
	sync.Mutex
	m map[uint64]*fuzzEngine
}

type fuzzEngine struct {
	eng   *engine.Engine
	words []string
	err   error
}

func engineFor(seed uint64) *fuzzEngine {
	fuzzEngines.Lock()
	defer fuzzEngines.Unlock()
	if fe := fuzzEngines.m[seed]; fe != nil {
		return fe
	}
	if fuzzEngines.m == nil {
		fuzzEngines.m = map[uint64]*fuzzEngine{}
	}
	rs := newRandomSchema(seed)
	fe := &fuzzEngine{words: rs.words}
	fuzzEngines.m[seed] = fe
	dir, err := filepath.Abs(filepath.Join(fuzzDir, fmt.Sprintf("s%d.sqlite", seed)))
	if err != nil {
		fe.err = err
		return fe
	}
	db, err := sql.Open("sqlite", dir)
	if err != nil {
		fe.err = err
		return fe
	}
	defer db.Close()
	for _, s := range rs.ddl {
		if _, err := db.Exec(s); err != nil {
			fe.err = fmt.Errorf("%s: %w", s, err)
			return fe
		}
	}
	s, err := introspect.Inspect(context.Background(), db, model.SQLite)
	if err != nil {
		fe.err = err
		return fe
	}
	out, err := introspect.Draft(s, "fuzz")
	if err != nil {
		fe.err = fmt.Errorf("draft: %w", err)
		return fe
	}
	m, err := model.Parse("fuzz.yaml", out)
	if err != nil {
		fe.err = fmt.Errorf("the draft does not load: %w\n%s", err, out)
		return fe
	}
	if err := guard.CheckModel(m); err != nil {
		fe.err = fmt.Errorf("the guard refuses the draft: %w\n%s", err, out)
		return fe
	}
	src, err := source.Open(context.Background(), "fuzz", "sqlite:"+dir, m, source.Options{})
	if err != nil {
		fe.err = err
		return fe
	}
	fe.eng = engine.New(src, engine.Options{Now: func() time.Time { return time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC) }})
	return fe
}

// fuzzDir is the directory of the databases made up for a test process,
// removed by TestMain when the process ends.
var fuzzDir string

// TestMain owns the directory of the made-up databases.
func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "clarify-fuzzturn-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fuzzDir = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// FuzzTurn drafts a model of a random schema, with no edits, and runs a
// whole turn on it for random questions and questions made of the
// schema's own words: whatever the question, the turn answers, asks, or
// fails with a clear error. A panic (recovered into INTERNAL), a
// statement of our own that the guard refuses (VALIDATION_FAILED) or that
// the database rejects (DB_ERROR) is a bug. CI runs it for a bounded time (.ci/run); without -fuzz the seeds
// run as a test.
func FuzzTurn(f *testing.F) {
	for i, q := range []string{"", "how many", "top 3", "list everything in 2024", "'; DROP TABLE x; --", "the oldest", "by state"} {
		f.Add(uint64(i), uint8(i), q)
	}
	f.Fuzz(func(t *testing.T, seed uint64, shape uint8, q string) {
		fe := engineFor(seed % 64)
		if fe.err != nil {
			t.Fatal(fe.err)
		}
		questions := []string{q}
		if w := fe.words; len(w) > 0 {
			form := fuzzQuestions[int(shape)%len(fuzzQuestions)]
			args := []any{w[int(shape)%len(w)], w[(int(shape)/2+1)%len(w)]}
			questions = append(questions, fmt.Sprintf(form, args[:strings.Count(form, "%s")]...)+" "+q)
		}
		for _, question := range questions {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err := fe.eng.Turn(ctx, engine.Request{Question: question})
			cancel()
			var ee *apperr.Error
			switch {
			case err == nil:
			case !errors.As(err, &ee):
				t.Fatalf("%q: an error without a code: %v", question, err)
			case ee.Code == apperr.CodeInternal, ee.Code == apperr.CodeValidationFailed, ee.Code == apperr.CodeDB:
				t.Fatalf("%q: %s: %s (%v)", question, ee.Code, ee.Message, ee.Err)
			}
		}
	})
}
