package guard_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/guard/corpustest"
	"github.com/clarify-sql/clarify/internal/model"
)

// entry is one statement of a corpus in testdata/corpus/DIALECT/KIND.sql.
type entry struct {
	Name   string
	Model  string
	Scopes []*guard.Scope // the scopes it is checked in (nil: unscoped)
	Args   []any
	Code   string
	SQL    string
	Line   int
}

func (e entry) String() string { return fmt.Sprintf("%s (line %d)", e.Name, e.Line) }

// loadCorpus reads one corpus file (corpustest.Read) and gives each entry
// the scopes it is checked in.
func loadCorpus(t testing.TB, d model.Dialect, kind string) []entry {
	t.Helper()
	read, err := corpustest.Read(filepath.Join("testdata", "corpus", string(d), kind+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]entry, len(read))
	for i, r := range read {
		e := entry{Name: r.Name, Model: r.Model, Args: r.Args, Code: r.Code, SQL: r.SQL, Line: r.Line}
		switch r.Scope {
		case "", "none":
			e.Scopes = []*guard.Scope{nil}
		case "both":
			e.Scopes = []*guard.Scope{nil, {Value: "L2"}}
		default:
			e.Scopes = []*guard.Scope{{Value: r.Scope}}
		}
		out[i] = e
	}
	return out
}

// guards caches one guard per model and dialect for the test binary.
var guards struct {
	sync.Mutex
	m map[string]*guard.Guard
}

func guardFor(t testing.TB, name string, d model.Dialect) *guard.Guard {
	t.Helper()
	guards.Lock()
	defer guards.Unlock()
	if guards.m == nil {
		guards.m = map[string]*guard.Guard{}
	}
	key := name + "/" + string(d)
	if g := guards.m[key]; g != nil {
		return g
	}
	g := guard.New(demotest.Model(t, name), d, guard.Options{})
	guards.m[key] = g
	return g
}

func scopeName(s *guard.Scope) string {
	if s == nil {
		return "unscoped"
	}
	return "scope " + s.Value
}

// TestHostileRejected checks every hostile statement of every dialect is
// rejected, with the expected code where the corpus names one.
func TestHostileRejected(t *testing.T) {
	t.Parallel()
	for _, d := range model.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			es := loadCorpus(t, d, "hostile")
			if len(es) < 80 {
				t.Errorf("only %d hostile statements, want at least 80", len(es))
			}
			for _, e := range es {
				for _, sc := range e.Scopes {
					st, err := guardFor(t, e.Model, d).Check(e.SQL, e.Args, sc)
					ge, ok := guard.IsRejection(err)
					switch {
					case err == nil:
						t.Errorf("%s (%s) was accepted as:\n  %s", e, scopeName(sc), st.SQL)
					case !ok:
						t.Errorf("%s: the guard failed instead of rejecting: %v", e, err)
					case e.Code != "" && string(ge.Code) != e.Code:
						t.Errorf("%s: code %s (%s), want %s", e, ge.Code, ge.Reason, e.Code)
					case ge.Reason == "":
						t.Errorf("%s: rejected without a reason", e)
					}
				}
			}
		})
	}
}

// TestLegitAccepted checks every legitimate statement is accepted.
func TestLegitAccepted(t *testing.T) {
	t.Parallel()
	for _, d := range model.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			es := loadCorpus(t, d, "legit")
			if len(es) < 80 {
				t.Errorf("only %d legitimate statements, want at least 80", len(es))
			}
			for _, e := range es {
				for _, sc := range e.Scopes {
					if _, err := guardFor(t, e.Model, d).Check(e.SQL, e.Args, sc); err != nil {
						t.Errorf("%s (%s) was rejected: %v", e, scopeName(sc), err)
					}
				}
			}
		})
	}
}

// TestReasonsCarryNoData: a rejection never repeats a literal of the
// statement (which could be data someone pasted).
func TestReasonsCarryNoData(t *testing.T) {
	t.Parallel()
	const secret = "Secret-Value-4711"
	for _, d := range model.Dialects() {
		for _, q := range []string{
			"SELECT * FROM lab_results WHERE patient_id = '" + secret + "'",
			"SELECT '" + secret + "' FROM clarify_secrets",
			"SELECT * FROM patients WHERE full_name = '" + secret + "'; DELETE FROM patients",
			"SELECT '" + secret + "",
			"SELECT pg_sleep('" + secret + "')",
			"SELECT " + secret + " FROM patients",
		} {
			_, err := guardFor(t, "labs", d).Check(q, []any{secret}, &guard.Scope{Value: "L2"})
			if err != nil && strings.Contains(err.Error(), "4711") {
				t.Errorf("%s: the reason repeats a literal: %v", d, err)
			}
		}
	}
}
