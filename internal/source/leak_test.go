package source_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/leaktest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// endless turns the shop's items into a view that never ends: a load of
// its values runs until it is canceled.
const endless = `CREATE VIEW items AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
SELECT x AS id, 'red' AS colour FROM n`

// openEndless opens the shop database at path as a source whose queries
// and loads would run for minutes unless canceled.
func openEndless(t *testing.T, path string, clock func() time.Time) *source.Source {
	t.Helper()
	m, err := model.Parse("shop.yaml", []byte(shopModel))
	if err != nil {
		t.Fatal(err)
	}
	src, err := source.Open(context.Background(), "shop", "sqlite:"+path, m, source.Options{
		ValueTTL: time.Minute, Clock: clock, QueryTimeout: 10 * time.Minute, ValueLoadTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// closeWithin closes src and fails if Close has not returned after a
// generous while: it should cancel its background work, not wait it out.
func closeWithin(t *testing.T, src *source.Source) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- src.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("close: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Close waited out a value load it should have canceled")
	}
}

// sourceFrames names the source package's own functions in a stack (and
// not its tests', in package source_test).
const sourceFrames = "clarify/internal/source."

// TestCloseStopsBackgroundWork: a value refresh, a first load every caller
// gave up on, and work handed to the catalog by an analyzer are each
// canceled by Close, which returns with none of their goroutines left.
func TestCloseStopsBackgroundWork(t *testing.T) {
	cases := []struct {
		name string
		// start leaves background work running on src, whose database
		// the test has made endless
		start func(t *testing.T, src *source.Source, col *model.Column, clock *clock, endless func())
	}{
		{"refresh", func(t *testing.T, src *source.Source, col *model.Column, clock *clock, endless func()) {
			if _, err := src.Catalog().Values(context.Background(), col); err != nil {
				t.Fatal(err)
			}
			endless()
			clock.Add(2 * time.Minute)
			src.Catalog().Version(context.Background()) // starts the refresh
		}},
		{"abandoned first load", func(t *testing.T, src *source.Source, col *model.Column, clock *clock, endless func()) {
			endless()
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			if _, err := src.Catalog().Values(ctx, col); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("values of an endless table = %v, want the caller's deadline", err)
			}
		}},
		{"analyzer's work", func(t *testing.T, src *source.Source, col *model.Column, clock *clock, endless func()) {
			endless()
			// an analyzer hands its rebuilds to the catalog that owns work
			var owner understand.Owner = src.Catalog()
			started := owner.Go(context.Background(), func(ctx context.Context) {
				_, _, _ = src.Catalog().CountedValues(ctx, col)
			})
			if !started {
				t.Fatal("an open source refused background work")
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "shop.db")
			// the test's writes wait for the source's reads (its first
			// load may still be reading when the table is dropped)
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, q := range []string{"CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT)", "INSERT INTO items (colour) VALUES ('red')"} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			src := openEndless(t, path, clk.Now)
			col := src.Model.Entities[0].Column("colour")
			tc.start(t, src, col, clk, func() {
				for _, q := range []string{"DROP TABLE items", endless} {
					if _, err := db.Exec(q); err != nil {
						t.Fatal(err)
					}
				}
			})
			closeWithin(t, src)
			leaktest.Gone(t, sourceFrames, "the source's Close")
			if src.Catalog().Go(context.Background(), func(context.Context) { t.Error("work ran on a closed source") }) {
				t.Error("a closed source accepted background work")
			}
		})
	}
}
