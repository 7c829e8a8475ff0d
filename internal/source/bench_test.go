package source_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// BenchmarkQuery measures one small statement on the hardened read-only
// path of each dialect: what Clarify adds to every statement (transaction,
// settings, limits, admission) on top of the database's own work.
//
//	go test -run '^$' -bench Query -benchmem ./internal/source/
func BenchmarkQuery(b *testing.B) {
	m, err := model.Parse("bench.yaml", []byte(`source: bench
entities:
  - name: items
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: colour, role: dimension, type: text}
`))
	if err != nil {
		b.Fatal(err)
	}
	fill := func(b *testing.B, db *sql.DB, table string) {
		for _, q := range []string{"CREATE TABLE " + table + " (id integer PRIMARY KEY, colour varchar(20))",
			"INSERT INTO " + table + " VALUES (1, 'red'), (2, 'blue'), (3, 'red')"} {
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
	}
	for name, dsn := range map[string]func(b *testing.B) string{
		"sqlite": func(b *testing.B) string {
			path := filepath.Join(b.TempDir(), "bench.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			fill(b, db, "items")
			return "sqlite:" + path
		},
		"postgres": func(b *testing.B) string {
			admin, ns, dsn := testdb.PostgresSchema(b, "b_query")
			fill(b, admin, ns+".items")
			return dsn
		},
		"mysql": func(b *testing.B) string {
			admin, ns, dsn := testdb.MySQLDatabase(b, "b_query")
			fill(b, admin, ns+".items")
			return dsn
		},
	} {
		b.Run(name, func(b *testing.B) {
			src, err := source.Open(context.Background(), "bench", dsn(b), m, source.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			ctx := context.Background()
			q := "SELECT count(*) FROM items WHERE colour = 'red'"
			if _, err := src.Query(ctx, q, nil, 0); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := src.Query(ctx, q, nil, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
