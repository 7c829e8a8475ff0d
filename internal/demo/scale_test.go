package demo_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// scaledFacts are what scaling must change and keep, read from one trades
// database.
type scaledFacts struct {
	Counts     map[string]int64 // rows per table
	DistinctID map[string]int64 // distinct keys of the tick tables
	AvgPrice   float64          // average trade price, rounded to cents
	Days       int64            // distinct trade dates
	Indexes    []string         // secondary indexes of the tick tables
	Factor     int
}

func readScaled(t *testing.T, db *sql.DB, d model.Dialect, ns string) scaledFacts {
	t.Helper()
	ctx := context.Background()
	q := func(table string) string {
		if ns == "" {
			return table
		}
		return ns + "." + table
	}
	f := scaledFacts{Counts: map[string]int64{}, DistinctID: map[string]int64{}}
	for _, tb := range []string{"symbols", "trades", "quotes", "daily_bars"} {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+q(tb)).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", tb, err)
		}
		f.Counts[tb] = n
	}
	for _, tb := range []string{"trades", "quotes"} {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT COUNT(DISTINCT id) FROM "+q(tb)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		f.DistinctID[tb] = n
	}
	if err := db.QueryRowContext(ctx, "SELECT ROUND(CAST(AVG(price) AS numeric), 2) FROM "+q("trades")).Scan(&f.AvgPrice); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, "SELECT COUNT(DISTINCT SUBSTR(traded_at, 1, 10)) FROM "+q("trades")).Scan(&f.Days); err != nil {
		t.Fatal(err)
	}
	idx := "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('trades', 'quotes') AND sql IS NOT NULL ORDER BY name"
	var args []any
	if d == model.Postgres {
		idx = "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('trades', 'quotes') AND indexname NOT LIKE '%pkey' ORDER BY indexname"
		args = []any{ns}
	}
	rows, err := db.QueryContext(ctx, idx, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		f.Indexes = append(f.Indexes, s)
	}
	if f.Factor, err = demo.ScaleFactor(ctx, db, d, ns); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestScale: a trades database scaled 3-fold has three times the trades
// and quotes, each with a key of its own, over the same trading days, at
// the same average price, with the same indexes as the demo and its factor
// recorded; symbols and daily bars are the demo's. On SQLite and
// PostgreSQL alike.
func TestScale(t *testing.T) {
	t.Parallel()
	skipSlowUnderRace(t, "trades")
	ctx := context.Background()
	const factor = 3
	type loaded struct {
		db *sql.DB
		ns string
	}
	dialects := []struct {
		name    string
		dialect model.Dialect
		// load writes the demo at 1× and at factor, and returns both
		load func(t *testing.T) (one, scaled loaded)
	}{
		{"sqlite", model.SQLite, func(t *testing.T) (loaded, loaded) {
			dir := t.TempDir()
			one, scaled := filepath.Join(dir, "one.db"), filepath.Join(dir, "scaled.db")
			if err := demo.WriteSQLite(ctx, "trades", one, defaultOpt); err != nil {
				t.Fatal(err)
			}
			if err := demo.WriteScaledSQLite(ctx, scaled, defaultOpt, factor); err != nil {
				t.Fatal(err)
			}
			return loaded{db: openSQLite(t, one)}, loaded{db: openSQLite(t, scaled)}
		}},
		{"postgres", model.Postgres, func(t *testing.T) (loaded, loaded) {
			s := testdb.PostgresServer(t)
			one, scaled := s.Namespace(t, "t_scale_one"), s.Namespace(t, "t_scale")
			if err := demo.LoadPostgres(ctx, s.Admin, "trades", one, defaultOpt); err != nil {
				t.Fatal(err)
			}
			if err := demo.LoadScaledPostgres(ctx, s.Admin, scaled, defaultOpt, factor); err != nil {
				t.Fatal(err)
			}
			return loaded{s.Admin, one}, loaded{s.Admin, scaled}
		}},
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			one, scaled := d.load(t)
			want := readScaled(t, one.db, d.dialect, one.ns)
			if want.Factor != 1 {
				t.Errorf("the demo reads back as scaled %d-fold", want.Factor)
			}
			if len(want.Indexes) != 2 {
				t.Errorf("the demo's tick tables have indexes %v, want one each", want.Indexes)
			}
			if want.Counts["trades"] < 100_000 {
				t.Fatalf("the demo has %d trades: too few to test scaling", want.Counts["trades"])
			}
			for _, tb := range []string{"trades", "quotes"} {
				want.Counts[tb] *= factor
				want.DistinctID[tb] *= factor
			}
			want.Factor = factor
			got := readScaled(t, scaled.db, d.dialect, scaled.ns)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("scaled %d-fold (-want +got):\n%s", factor, diff)
			}
		})
	}
}

// TestScaleRejectsFactorBelowOne: a factor of 0 is a mistake, not an
// empty database.
func TestScaleRejectsFactorBelowOne(t *testing.T) {
	t.Parallel()
	if err := demo.WriteScaledSQLite(context.Background(), filepath.Join(t.TempDir(), "x.db"), defaultOpt, 0); err == nil {
		t.Error("factor 0 was accepted")
	}
}
