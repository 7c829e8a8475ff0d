package introspect_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/introspect"
	"github.com/clarify-sql/clarify/internal/model"
)

// TestInspect checks what Inspect reads from the test schemas in SQLite
// (TestDraftSameOnEveryDialect checks PostgreSQL and MariaDB read the same).
func TestInspect(t *testing.T) {
	t.Parallel()
	lib := inspect(t, openSQLite(t, sqliteFile(t, "library")), model.SQLite)
	hr := inspect(t, openSQLite(t, sqliteFile(t, "hr")), model.SQLite)
	var names []string
	for _, tb := range lib.Tables {
		names = append(names, tb.Name)
	}
	if want := []string{"authors", "books", "loans", "members", "reviews"}; !cmp.Equal(names, want) {
		t.Errorf("tables = %q, want %q", names, want)
	}
	books := lib.Table("books")
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"books rows", books.Rows, int64(30)},
		{"books sampled", books.Sampled, int64(30)},
		{"books primary key", books.PrimaryKey, []string{"book_id"}},
		{"books unique", books.Unique, []string{"isbn"}},
		{"books foreign keys", books.ForeignKeys, []introspect.ForeignKey{{Columns: []string{"author_id"}, RefTable: "authors", RefColumns: []string{"author_id"}}}},
		{"genre kind", books.Column("genre").Kind, introspect.KindText},
		{"genre distinct", books.Column("genre").Distinct, int64(6)},
		{"genre samples", books.Column("genre").Samples, []string{"Fantasy", "History", "Horror", "Literary Fiction", "Mystery"}},
		{"title nullable", books.Column("title").Nullable, false},
		{"price kind", books.Column("price").Kind, introspect.KindNumeric},
		{"price not measured", books.Column("price").Distinct, int64(-1)},
		{"loan_date kind", lib.Table("loans").Column("loan_date").Kind, introspect.KindDate},
		{"return_date nullable", lib.Table("loans").Column("return_date").Nullable, true},
		{"loans foreign keys", len(lib.Table("loans").ForeignKeys), 2},
		{"active samples", lib.Table("members").Column("active").Samples, []string{"0", "1"}},
		{"active distinct", lib.Table("members").Column("active").Distinct, int64(2)},
		{"review_text longest", lib.Table("reviews").Column("review_text").MaxLen, int64(114)},
		{"reviews declare no foreign keys", len(lib.Table("reviews").ForeignKeys), 0},
		{"salary_history primary key", hr.Table("salary_history").PrimaryKey, []string{"employee_id", "effective_date"}},
		{"job_grades primary key", len(hr.Table("job_grades").PrimaryKey), 0},
		{"job_grades unique", hr.Table("job_grades").Unique, []string{"grade_code"}},
		{"employees unique", hr.Table("employees").Unique, []string{"email"}},
		{"self reference", hr.Table("employees").ForeignKeys[1], introspect.ForeignKey{Columns: []string{"manager_id"}, RefTable: "employees", RefColumns: []string{"employee_id"}}},
		{"audit_log rows", hr.Table("audit_log").Rows, int64(6)},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestInspectBounds checks that columns are measured over at most
// SampleRows rows while rows are counted up to CountLimit.
func TestInspectBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a table of 100,050 rows")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, s := range []string{
		"CREATE TABLE events (event_id INTEGER PRIMARY KEY, kind TEXT NOT NULL)",
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100050)
		 INSERT INTO events SELECT i, 'kind ' || (i % 7) FROM n`,
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	s := inspect(t, db, model.SQLite)
	ev := s.Table("events")
	if ev.Rows != 100050 || ev.RowsEstimated || ev.Sampled != introspect.SampleRows {
		t.Errorf("rows %d (estimated %v), sampled %d; want 100050 counted, %d sampled", ev.Rows, ev.RowsEstimated, ev.Sampled, introspect.SampleRows)
	}
	if d := ev.Column("event_id").Distinct; d != introspect.SampleRows {
		t.Errorf("event_id distinct = %d, want the bound %d", d, introspect.SampleRows)
	}
	if d := ev.Column("kind").Distinct; d != 7 {
		t.Errorf("kind distinct = %d, want 7", d)
	}
	if got := len(ev.Column("kind").Samples); got != introspect.SampleValues {
		t.Errorf("%d samples, want %d", got, introspect.SampleValues)
	}
}

func TestInspectUnknownDialect(t *testing.T) {
	t.Parallel()
	if _, err := introspect.Inspect(context.Background(), nil, model.Dialect("oracle")); err == nil {
		t.Error("no error for an unknown dialect")
	}
}
