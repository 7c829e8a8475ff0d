package engine_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// scaled lists the demo tables a scaled trades database multiplies and
// their columns: every row is copied factor-1 times under new ids.
var scaled = map[string]string{
	"trades": "symbol, traded_at, price, quantity, side, venue",
	"quotes": "symbol, quoted_at, bid_price, ask_price, last_price, bid_size, ask_size",
}

// scaleFactor reads CLARIFY_SCALE (default 10: 2M trades, 1M quotes).
func scaleFactor(b *testing.B) int {
	f := 10
	if s := os.Getenv("CLARIFY_SCALE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("CLARIFY_SCALE=%q: want a factor of 1 or more", s)
		}
		f = n
	}
	return f
}

// multiply copies every row of the scaled tables factor-1 times, then
// runs finish.
func multiply(ctx context.Context, db *sql.DB, factor int, finish string) error {
	for table, cols := range scaled {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT MAX(id) FROM "+table).Scan(&n); err != nil {
			return fmt.Errorf("count %s: %w", table, err)
		}
		for k := 1; k < factor; k++ {
			q := fmt.Sprintf("INSERT INTO %s (id, %s) SELECT id + %d, %s FROM %s WHERE id <= %d", table, cols, int64(k)*n, cols, table, n)
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("multiply %s: %w", table, err)
			}
		}
	}
	// a served table is vacuumed and analysed (autovacuum does it on
	// PostgreSQL): plans and index-only scans as in production
	_, err := db.ExecContext(ctx, finish)
	return err
}

// scaledSQLite returns a trades SQLite file factor times the demo's size,
// kept in the user cache between runs (it takes a while to build).
func scaledSQLite(b *testing.B, factor int) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "clarify-scale")
	path := filepath.Join(dir, fmt.Sprintf("trades-%s-x%d.db", demotest.AsOf.Format("20060102"), factor))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	tmp := path + ".tmp"
	if err := demo.WriteSQLite(ctx, "trades", tmp, demo.Options{AsOf: demotest.AsOf}); err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("sqlite", tmp)
	if err != nil {
		b.Fatal(err)
	}
	if err := multiply(ctx, db, factor, "ANALYZE"); err != nil {
		db.Close()
		b.Fatal(err)
	}
	db.Close()
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkPreviewsAtScale asks the trades questions (golden list and
// evaluation suites) of a trades database CLARIFY_SCALE times the demo's
// size (default 10) with the default preview budget, and reports how many
// options of each clarification showed a preview, how many were marked not
// counted in time, and how long the clarifying turn took. It builds the
// data first (SQLite is cached in the user cache directory; PostgreSQL is
// loaded into a private schema), so run it with -benchtime=1x or 2x:
//
//	CLARIFY_SCALE=10 go test ./internal/engine/ -run '^$' -bench PreviewsAtScale -benchtime 2x
func BenchmarkPreviewsAtScale(b *testing.B) {
	factor := scaleFactor(b)
	questions := scaleQuestions(b)
	b.Run("sqlite", func(b *testing.B) {
		src, err := source.Open(context.Background(), "trades", "sqlite:"+scaledSQLite(b, factor), demotest.Model(b, "trades"), source.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer src.Close()
		runScale(b, src, questions)
	})
	b.Run("postgres", func(b *testing.B) {
		ctx, s := context.Background(), testdb.PostgresServer(b)
		ns := s.Namespace(b, "b_scale_trades")
		if err := demo.LoadPostgres(ctx, s.Admin, "trades", ns, demo.Options{AsOf: demotest.AsOf}); err != nil {
			b.Fatal(err)
		}
		if err := multiply(ctx, s.Open(b, ns), factor, "VACUUM ANALYZE"); err != nil {
			b.Fatal(err)
		}
		src, err := source.Open(ctx, "trades", s.DSN(b, ns), demotest.Model(b, "trades"), source.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer src.Close()
		runScale(b, src, questions)
	})
}

func scaleQuestions(b *testing.B) []string {
	seen := map[string]bool{}
	var qs []string
	add := func(q string) {
		if !seen[q] {
			seen[q] = true
			qs = append(qs, q)
		}
	}
	for _, q := range demotest.Questions(b, "trades") {
		add(q)
	}
	for _, f := range demotest.SuiteFiles(b) {
		s, err := eval.LoadSuite(f)
		if err != nil {
			b.Fatal(err)
		}
		if s.Source != "trades" {
			continue
		}
		for _, c := range s.Cases {
			add(c.Question)
		}
	}
	return qs
}

// runScale asks every question once per iteration and reports, over the
// clarifications with previewable options, the share of options shown.
func runScale(b *testing.B, src *source.Source, questions []string) {
	e := engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }})
	ctx := context.Background()
	var report []string
	var shown, late, offered, asked int
	var worst time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		report = report[:0]
		for _, q := range questions {
			start := time.Now()
			out, err := e.Turn(ctx, engine.Request{Question: q, Interactive: true})
			took := time.Since(start)
			if err != nil || out.Clarification == nil {
				continue
			}
			c := out.Clarification
			k, l := 0, 0
			for _, o := range c.Options {
				switch {
				case o.Preview == nil:
				case o.Preview.NotCounted:
					l++
				default:
					k++
				}
			}
			if k+l == 0 && !previewable(c.Kind) {
				continue
			}
			asked++
			shown += k
			late += l
			offered += len(c.Options)
			worst = max(worst, took)
			report = append(report, fmt.Sprintf("%-55q %-18s %d of %d previews, %d not counted in time, turn %v", q, c.Kind, k, len(c.Options), l, took.Round(time.Millisecond)))
		}
	}
	b.StopTimer()
	// go test cuts a benchmark's log to a few lines: the table goes to stderr
	fmt.Fprintf(os.Stderr, "%s, %d runs, last run:\n%s\n", src.Dialect(), b.N, strings.Join(report, "\n"))
	if offered > 0 {
		b.ReportMetric(float64(shown)/float64(offered), "shown/option")
		b.ReportMetric(float64(late)/float64(offered), "late/option")
		b.ReportMetric(float64(asked)/float64(b.N), "clarifications/op")
		b.ReportMetric(float64(worst.Milliseconds()), "worst-turn-ms")
	}
}

func previewable(kind string) bool {
	switch kind {
	case "vague_qualifier", "value_ambiguity", "time_window", "scope":
		return true
	}
	return false
}
