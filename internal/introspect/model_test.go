package introspect_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
)

// TestDraftEntities checks what the drafts of the test schemas say about
// each table: key, display, labels, time column, synonyms.
func TestDraftEntities(t *testing.T) {
	t.Parallel()
	models := map[string]*model.Model{}
	var raw = map[string]string{}
	for _, s := range schemas {
		out, m := sqliteDraft(t, s)
		models[s], raw[s] = m, string(out)
	}
	for _, tc := range []struct {
		schema, entity                     string
		key, display, label, plural, timeC string
		synonyms                           []string
	}{
		{"library", "authors", "author_id", "name", "author", "authors", "", []string{"author", "writers"}},
		{"library", "books", "book_id", "title", "book", "books", "", []string{"book", "books"}},
		{"library", "members", "member_id", "full_name", "member", "members", "joined_on", nil},
		{"library", "loans", "loan_id", "loan_id", "loan", "loans", "loan_date", []string{"checkout"}},
		{"library", "reviews", "review_id", "review_id", "review", "reviews", "reviewed_at", nil},
		{"hr", "departments", "department_id", "department_name", "department", "departments", "", []string{"dept"}},
		{"hr", "employees", "employee_id", "full_name", "employee", "employees", "hire_date", []string{"staff member", "workers"}},
		// a composite key with no column that tells rows apart: no key
		{"hr", "salary_history", "", "", "salary history", "salary histories", "effective_date", nil},
		// no primary key: the unique NOT NULL column
		{"hr", "job_grades", "grade_code", "grade_code", "job grade", "job grades", "", nil},
	} {
		t.Run(tc.schema+"/"+tc.entity, func(t *testing.T) {
			e := models[tc.schema].Entity(tc.entity)
			if e == nil {
				t.Fatalf("no entity %s", tc.entity)
			}
			for _, f := range []struct{ field, got, want string }{
				{"key", e.Key, tc.key}, {"display", e.Display, tc.display}, {"label", e.Label, tc.label},
				{"plural", e.Plural, tc.plural}, {"time_column", e.TimeColumn, tc.timeC}, {"area", e.Area, ""},
			} {
				if f.got != f.want {
					t.Errorf("%s = %q, want %q", f.field, f.got, f.want)
				}
			}
			for _, s := range tc.synonyms {
				if !slices.Contains(e.Synonyms, s) {
					t.Errorf("synonyms %q lack %q", e.Synonyms, s)
				}
			}
		})
	}
	t.Run("hr/audit_log is an entity without a key, with a note", func(t *testing.T) {
		e := models["hr"].Entity("audit_log")
		if e == nil || e.Key != "" {
			t.Fatalf("audit_log: %+v, want an entity without a key", e)
		}
		if !strings.Contains(raw["hr"], "# - audit_log: no primary key and no unique NOT NULL column: no key") {
			t.Errorf("no note explains that audit_log has no key:\n%s", raw["hr"])
		}
	})
}

// TestDraftColumns checks each column's role, type, references, aggregate,
// value source and a few synonyms.
func TestDraftColumns(t *testing.T) {
	t.Parallel()
	models := map[string]*model.Model{}
	for _, s := range schemas {
		_, models[s] = sqliteDraft(t, s)
	}
	for _, tc := range []struct {
		schema, entity, column string
		role, typ              string
		references, aggregate  string
		grain                  string
		values                 bool
		label                  string
		synonyms               []string
		notSynonyms            []string
	}{
		{schema: "library", entity: "authors", column: "author_id", role: "id", typ: "integer", synonyms: []string{"author id"}},
		{schema: "library", entity: "authors", column: "name", role: "name", typ: "text", values: true},
		{schema: "library", entity: "authors", column: "country", role: "dimension", typ: "text", values: true},
		// a column of calendar years: a period compares it, nothing sums it
		{schema: "library", entity: "authors", column: "birth_year", role: "dimension", typ: "integer", grain: "year", synonyms: []string{"born"}, notSynonyms: []string{"year"}},
		{schema: "library", entity: "books", column: "author_id", role: "id", typ: "integer", references: "authors.author_id"},
		{schema: "library", entity: "books", column: "title", role: "name", typ: "text", values: true},
		{schema: "library", entity: "books", column: "genre", role: "dimension", typ: "text", values: true},
		{schema: "library", entity: "books", column: "pages", role: "measure", typ: "integer", aggregate: "avg"},
		{schema: "library", entity: "books", column: "price", role: "measure", typ: "numeric", aggregate: "avg"},
		{schema: "library", entity: "books", column: "isbn", role: "text", typ: "text"},
		{schema: "library", entity: "members", column: "email", role: "text", typ: "text", synonyms: []string{"e-mail"}},
		{schema: "library", entity: "members", column: "city", role: "dimension", typ: "text", values: true},
		{schema: "library", entity: "members", column: "joined_on", role: "time", typ: "date", synonyms: []string{"joined", "date"}},
		// 0/1 integers with a state name
		{schema: "library", entity: "members", column: "active", role: "flag", typ: "integer"},
		{schema: "library", entity: "loans", column: "member_id", role: "id", typ: "integer", references: "members.member_id"},
		{schema: "library", entity: "loans", column: "loan_date", role: "time", typ: "date", synonyms: []string{"loan date", "loaned", "date"}},
		{schema: "library", entity: "loans", column: "due_date", role: "time", typ: "date", synonyms: []string{"due date", "due", "date"}},
		{schema: "library", entity: "loans", column: "return_date", role: "time", typ: "date", synonyms: []string{"returned", "date"}},
		{schema: "library", entity: "loans", column: "late_fee", role: "measure", typ: "numeric", aggregate: "sum", synonyms: []string{"late fee", "fee"}},
		// no declared foreign keys: references inferred from the names
		{schema: "library", entity: "reviews", column: "book_id", role: "id", typ: "integer", references: "books.book_id"},
		{schema: "library", entity: "reviews", column: "member_id", role: "id", typ: "integer", references: "members.member_id"},
		{schema: "library", entity: "reviews", column: "rating", role: "measure", typ: "integer", aggregate: "avg"},
		{schema: "library", entity: "reviews", column: "review_text", role: "text", typ: "text"},
		{schema: "library", entity: "reviews", column: "reviewed_at", role: "time", typ: "timestamp", synonyms: []string{"reviewed"}},
		{schema: "hr", entity: "departments", column: "department_name", role: "name", typ: "text", values: true, synonyms: []string{"department name", "name"}},
		// five departments in three places: a small table's repeated values
		{schema: "hr", entity: "departments", column: "location", role: "dimension", typ: "text", values: true},
		{schema: "hr", entity: "departments", column: "budget", role: "measure", typ: "numeric", aggregate: "sum"},
		{schema: "hr", entity: "employees", column: "first_name", role: "name", typ: "text", values: true, synonyms: []string{"first name", "given name"}},
		{schema: "hr", entity: "employees", column: "last_name", role: "name", typ: "text", values: true, synonyms: []string{"last name", "surname"}},
		{schema: "hr", entity: "employees", column: "job_title", role: "dimension", typ: "text", values: true, synonyms: []string{"job title", "title"}},
		{schema: "hr", entity: "employees", column: "department_id", role: "id", typ: "integer", references: "departments.department_id", notSynonyms: []string{"department"}},
		{schema: "hr", entity: "employees", column: "manager_id", role: "id", typ: "integer", references: "employees.employee_id"},
		{schema: "hr", entity: "employees", column: "hire_date", role: "time", typ: "date", synonyms: []string{"hire date", "hired", "date"}},
		{schema: "hr", entity: "employees", column: "birth_date", role: "time", typ: "date", synonyms: []string{"born", "birthday"}, notSynonyms: []string{"date"}},
		{schema: "hr", entity: "employees", column: "salary", role: "measure", typ: "numeric", aggregate: "avg"},
		{schema: "hr", entity: "employees", column: "is_manager", role: "flag", typ: "integer", label: "manager", synonyms: []string{"manager"}},
		{schema: "hr", entity: "salary_history", column: "employee_id", role: "id", typ: "integer", references: "employees.employee_id"},
		{schema: "hr", entity: "salary_history", column: "effective_date", role: "time", typ: "date"},
		// a one-letter code key is not matched as a value: "a" is in every question
		{schema: "hr", entity: "job_grades", column: "grade_code", role: "id", typ: "text"},
		{schema: "hr", entity: "job_grades", column: "min_salary", role: "measure", typ: "numeric", aggregate: "min", notSynonyms: []string{"salary"}},
		{schema: "hr", entity: "job_grades", column: "max_salary", role: "measure", typ: "numeric", aggregate: "max"},
	} {
		t.Run(tc.schema+"/"+tc.entity+"."+tc.column, func(t *testing.T) {
			e := models[tc.schema].Entity(tc.entity)
			if e == nil {
				t.Fatalf("no entity %s", tc.entity)
			}
			c := e.Column(tc.column)
			if c == nil {
				t.Fatalf("no column %s.%s", tc.entity, tc.column)
			}
			for _, f := range []struct{ field, got, want string }{
				{"role", c.Role, tc.role}, {"type", c.Type, tc.typ}, {"references", c.References, tc.references},
				{"aggregate", c.Aggregate, tc.aggregate}, {"label", c.Label, tc.label}, {"grain", c.Grain, tc.grain},
			} {
				if f.got != f.want {
					t.Errorf("%s = %q, want %q", f.field, f.got, f.want)
				}
			}
			if c.FromDatabase() != tc.values {
				t.Errorf("values from the database = %v, want %v", c.FromDatabase(), tc.values)
			}
			for _, s := range tc.synonyms {
				if !slices.Contains(c.Synonyms, s) {
					t.Errorf("synonyms %q lack %q", c.Synonyms, s)
				}
			}
			for _, s := range tc.notSynonyms {
				if slices.Contains(c.Synonyms, s) {
					t.Errorf("synonyms %q hold %q", c.Synonyms, s)
				}
			}
		})
	}
}

// TestDraftJoinPaths checks that references became join paths.
func TestDraftJoinPaths(t *testing.T) {
	t.Parallel()
	_, m := sqliteDraft(t, "library")
	for _, tc := range []struct {
		from, to string
		hops     int
	}{
		{"loans", "authors", 2},
		{"reviews", "members", 1},
		{"books", "authors", 1},
	} {
		path, ok := m.Path(m.Entity(tc.from), m.Entity(tc.to))
		if !ok || len(path) != tc.hops || !model.ToOnePath(path) {
			t.Errorf("path %s → %s: %d steps (ok %v, to-one %v), want %d many-to-one steps",
				tc.from, tc.to, len(path), ok, model.ToOnePath(path), tc.hops)
		}
	}
}
