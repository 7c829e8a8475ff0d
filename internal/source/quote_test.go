package source_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// oddModel is a model whose table and column names hold q, the dialect's
// identifier quote character.
func oddModel(t *testing.T, q string) *model.Model {
	t.Helper()
	m, err := model.Parse("odd.yaml", []byte(fmt.Sprintf(`source: odd
entities:
  - name: items
    table: 'odd%[1]sitems'
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - name: 'col%[1]sour'
        role: dimension
        type: text
        values: {source: database}
`, q)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// oddCreate creates the table of oddModel, given its quoted names, with
// three rows.
func oddCreate(t *testing.T, admin *sql.DB, table, col string) {
	t.Helper()
	mustExec(t, admin, fmt.Sprintf("CREATE TABLE %s (id integer PRIMARY KEY, %s varchar(20))", table, col))
	mustExec(t, admin, fmt.Sprintf("INSERT INTO %s VALUES (1, 'red'), (2, 'red'), (3, 'blue')", table))
}

func oddOpen(t *testing.T, dsn string, m *model.Model) *source.Source {
	t.Helper()
	src, err := source.Open(context.Background(), "odd", dsn, m, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func oddSQLite(t *testing.T) *source.Source {
	t.Helper()
	path := filepath.Join(t.TempDir(), "odd.db")
	admin, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	oddCreate(t, admin, `"odd""items"`, `"col""our"`)
	return oddOpen(t, "sqlite:"+path, oddModel(t, `"`))
}

func oddPostgres(t *testing.T) *source.Source {
	t.Helper()
	admin, ns, dsn := testdb.PostgresSchema(t, "t_quote")
	oddCreate(t, admin, ns+`."odd""items"`, `"col""our"`)
	return oddOpen(t, dsn, oddModel(t, `"`))
}

func oddMySQL(t *testing.T) *source.Source {
	t.Helper()
	admin, ns, dsn := testdb.MySQLDatabase(t, "t_quote")
	oddCreate(t, admin, ns+".`odd``items`", "`col``our`")
	return oddOpen(t, dsn, oddModel(t, "`"))
}

// TestValuesQuoteIdentifiers: a table and a column whose names hold the
// dialect's quote character are read like any other, by every query the
// catalog makes (values, rows, rows with a value).
func TestValuesQuoteIdentifiers(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(*testing.T) *source.Source
	}{{"sqlite", oddSQLite}, {"postgres", oddPostgres}, {"mysql", oddMySQL}} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.open(t)
			ctx := context.Background()
			e := src.Model.Entities[0]
			c := e.Columns[1]
			cat := src.Catalog()
			// before any load: a probe of the table's first rows
			if vals, counts, err := cat.Probe(ctx, c, []string{"RED", "mauve"}); err != nil || !slices.Equal(vals, []string{"red"}) || !slices.Equal(counts, []int64{2}) {
				t.Errorf("probe = %v %v, %v; want [red] [2]", vals, counts, err)
			}
			vals, counts, err := cat.CountedValues(ctx, c)
			if err != nil {
				t.Fatalf("values: %v", err)
			}
			if !slices.Equal(vals, []string{"blue", "red"}) || !slices.Equal(counts, []int64{1, 2}) {
				t.Errorf("values %v counts %v, want [blue red] [1 2]", vals, counts)
			}
			rows, err := cat.Rows(ctx, e, []string{c.Name}, 10)
			if err != nil {
				t.Fatalf("rows: %v", err)
			}
			if got := fmt.Sprint(rows); got != "[[1 red] [2 red] [3 blue]]" {
				t.Errorf("rows %s, want [[1 red] [2 red] [3 blue]]", got)
			}
			rows, err = cat.RowsWith(ctx, c, "red", []string{c.Name}, 10)
			if err != nil {
				t.Fatalf("rows with red: %v", err)
			}
			if got := fmt.Sprint(rows); got != "[[1 red] [2 red]]" {
				t.Errorf("rows with red %s, want [[1 red] [2 red]]", got)
			}
		})
	}
}
