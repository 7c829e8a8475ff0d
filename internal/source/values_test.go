package source_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/models"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

const shopModel = `source: shop
entities:
  - name: items
    label: item
    plural: items
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - name: colour
        role: dimension
        type: text
        values: {source: database}
`

// shop is a one-table SQLite database the test can change under a source
// that reads it, with a clock the test moves.
type shop struct {
	db    *sql.DB // writable, the test's own
	src   *source.Source
	col   *model.Column
	clock *clock
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func newShop(t *testing.T, colours ...string) *shop {
	t.Helper()
	sh := newShopWith(t, shopModel, "CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT)")
	for _, c := range colours {
		sh.exec(t, "INSERT INTO items (colour) VALUES (?)", c)
	}
	return sh
}

// newShopWith opens a shop of the given model whose items table create
// makes, empty.
func newShopWith(t *testing.T, yaml, create string) *shop {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)") // the source reads beside the test's writes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sh := &shop{db: db, clock: &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	sh.exec(t, create)
	m, err := model.Parse("shop.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	sh.src, err = source.Open(context.Background(), "shop", "sqlite:"+path, m, source.Options{ValueTTL: time.Minute, Clock: sh.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.src.Close() })
	sh.col = m.Entities[0].Column("colour")
	if sh.col == nil {
		t.Fatal("the model has no items.colour")
	}
	return sh
}

func (sh *shop) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := sh.db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (sh *shop) values(t *testing.T) ([]string, error) {
	t.Helper()
	return sh.src.Catalog().Values(context.Background(), sh.col)
}

func (sh *shop) want(t *testing.T, want ...string) {
	t.Helper()
	got, err := sh.values(t)
	if err != nil {
		t.Fatalf("values: %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("values = %v, want %v", got, want)
	}
}

// refresh moves the clock by d, lets the cache start its refreshes and
// waits for them.
func (sh *shop) refresh(d time.Duration) uint64 {
	sh.clock.Add(d)
	v := sh.src.Catalog().Version(context.Background())
	source.WaitValues(sh.src)
	return v
}

// TestValuesTTL: values are read once, served from the cache within their
// TTL, served stale while a refresh runs after it, then replaced.
func TestValuesTTL(t *testing.T) {
	sh := newShop(t, "red", "blue")
	sh.want(t, "blue", "red")
	v0 := sh.src.Catalog().Version(context.Background())
	sh.exec(t, "INSERT INTO items (colour) VALUES ('green')")
	sh.want(t, "blue", "red") // within the TTL: the cached values
	if v := sh.refresh(30 * time.Second); v != v0 {
		t.Errorf("version moved within the TTL: %d → %d", v0, v)
	}
	sh.want(t, "blue", "red")
	// past the TTL, Version starts a refresh; the stale values are served
	// until it ends, the new ones after
	sh.clock.Add(time.Minute)
	sh.src.Catalog().Version(context.Background())
	if got, err := sh.values(t); err != nil || len(got) < 2 {
		t.Errorf("during a refresh: %v, %v; want the stale or new values, never none", got, err)
	}
	source.WaitValues(sh.src)
	sh.want(t, "blue", "green", "red")
	if v := sh.src.Catalog().Version(context.Background()); v == v0 {
		t.Error("the version did not change when the values did")
	}
}

// TestValuesUnreachable: a refresh that fails keeps serving the values it
// had; a first load that fails is an error, remembered for a while and
// retried after it.
func TestValuesUnreachable(t *testing.T) {
	sh := newShop(t, "red")
	sh.want(t, "red")
	sh.exec(t, "ALTER TABLE items RENAME TO gone")
	sh.refresh(2 * time.Minute)
	sh.want(t, "red") // stale, not lost

	other := newShop(t)
	other.exec(t, "ALTER TABLE items RENAME TO gone")
	if got, err := other.values(t); err == nil {
		t.Fatalf("values of a missing table = %v, want an error", got)
	}
	other.exec(t, "ALTER TABLE gone RENAME TO items")
	other.exec(t, "INSERT INTO items (colour) VALUES ('blue')")
	if _, err := other.values(t); err == nil {
		t.Error("a failed load was retried at once; it should be remembered for a while")
	}
	other.refresh(31 * time.Second)
	other.want(t, "blue")
}

// TestValuesCancelled: a caller that gives up gets its context's error,
// and its cancellation is not remembered as the column's: the next caller
// gets the values.
func TestValuesCancelled(t *testing.T) {
	sh := newShop(t, "red", "blue")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sh.src.Catalog().Values(ctx, sh.col); err == nil {
		t.Error("a cancelled caller got values; want its context's error")
	}
	sh.want(t, "blue", "red")
}

// TestValuesConcurrentFirstLoad: callers that arrive together all get the
// values of one load.
func TestValuesConcurrentFirstLoad(t *testing.T) {
	sh := newShop(t, "red", "blue")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := sh.src.Catalog().Values(context.Background(), sh.col)
			if err == nil && !slices.Equal(got, []string{"blue", "red"}) {
				t.Errorf("values = %v", got)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// scaledTrades writes the trades demo into a SQLite file under dir and
// grows its trades table to n rows by copying it with shifted ids (and
// venues unchanged), once per size: the file is kept for later runs.
func scaledTrades(b *testing.B, dir string, n int) (path string, asOf time.Time) {
	b.Helper()
	asOf = time.Date(2026, 1, 30, 0, 0, 0, 0, time.UTC)
	path = filepath.Join(dir, fmt.Sprintf("trades-%d.db", n))
	if _, err := os.Stat(path); err == nil {
		return path, asOf
	}
	ctx := context.Background()
	tmp := path + ".tmp"
	if err := demo.WriteSQLite(ctx, "trades", tmp, demo.Options{AsOf: asOf}); err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+tmp)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var base int
	if err := db.QueryRow("SELECT COUNT(*) FROM trades").Scan(&base); err != nil {
		b.Fatal(err)
	}
	for have := base; have < n; {
		add := min(have, n-have)
		q := fmt.Sprintf(`INSERT INTO trades SELECT id + %d, symbol, traded_at, price, quantity, side, venue FROM trades WHERE id <= %d`, have, add)
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
		have += add
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path, asOf
}

// BenchmarkFirstAnswer times the first answer of an engine on a new source
// (cold: no value loaded yet) against the next answer to the same question
// (warm), on the trades demo grown to CLARIFY_BENCH_ROWS trades (default
// 2,000,000; the file is kept in CLARIFY_BENCH_DIR, default a temporary
// directory).
//
//	CLARIFY_BENCH_ROWS=10000000 go test -run '^$' -bench FirstAnswer -benchtime 1x ./internal/source/
func BenchmarkFirstAnswer(b *testing.B) {
	n := 2_000_000
	if v := os.Getenv("CLARIFY_BENCH_ROWS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatalf("CLARIFY_BENCH_ROWS: %v", err)
		}
	}
	dir := os.Getenv("CLARIFY_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path, asOf := scaledTrades(b, dir, n)
	y, err := models.Get("trades")
	if err != nil {
		b.Fatal(err)
	}
	question := "how many trades on IEX in the last 30 days"
	var cold, warm time.Duration
	same := 0
	for range b.N {
		m, err := model.Parse("trades.yaml", y)
		if err != nil {
			b.Fatal(err)
		}
		// time enough for the loads of 10M rows, else never warm
		src, err := source.Open(context.Background(), "trades", "sqlite:"+path, m, source.Options{QueryTimeout: 5 * time.Minute, ValueLoadTimeout: 5 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		eng := engine.New(src, engine.Options{Now: func() time.Time { return asOf }})
		ask := func() (time.Duration, string) {
			var steps []string
			progress := func(step string, took time.Duration) {
				steps = append(steps, fmt.Sprintf("%s %s", step, took.Round(time.Millisecond)))
			}
			start := time.Now()
			out, err := eng.Turn(context.Background(), engine.Request{Question: question, Progress: progress})
			b.Logf("steps: %v", steps)
			took := time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			if out.Answer == nil {
				b.Fatalf("no answer: %+v", out)
			}
			return took, out.Answer.SQL
		}
		took, first := ask()
		cold += took
		source.WaitValues(src)
		eng.Analyzer().WaitIndex(context.Background())
		took, next := ask()
		warm += took
		if !strings.Contains(next, "venue") {
			b.Fatalf("the warm answer does not filter on the venue: %s", next)
		}
		if first == next {
			same++
		} else {
			b.Logf("cold answer differs:\ncold: %s\nwarm: %s", first, next)
		}
		eng.Analyzer().Close()
		src.Close()
	}
	b.ReportMetric(float64(same)/float64(b.N), "same-answer")
	b.ReportMetric(float64(cold.Milliseconds())/float64(b.N), "cold-ms")
	b.ReportMetric(float64(warm.Milliseconds())/float64(b.N), "warm-ms")
	b.ReportMetric(float64(cold)/float64(warm), "cold/warm")
}

// endlessColours is a view of items that never ends, cycling through
// three colours: a full load of its values runs until it is canceled,
// while a probe finds a colour within a few rows.
const endlessColours = `CREATE VIEW items AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
SELECT x AS id, CASE x % 3 WHEN 0 THEN 'Red' WHEN 1 THEN 'Blue' ELSE 'Crimson' END AS colour FROM n`

// TestValuesColdQuestion: on a source whose values are still loading (here
// never done), a question is understood at once, and a value it names is
// found by a probe and becomes its filter; a word that is no value stays
// unmatched rather than read as one.
func TestValuesColdQuestion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(endlessColours); err != nil {
		t.Fatal(err)
	}
	m, err := model.Parse("shop.yaml", []byte(shopModel))
	if err != nil {
		t.Fatal(err)
	}
	src, err := source.Open(context.Background(), "shop", "sqlite:"+path, m, source.Options{
		QueryTimeout: 10 * time.Minute, ValueLoadTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close() // cancels the endless load
	an := understand.New(m, src.Catalog())
	defer an.Close()
	col := m.Entities[0].Column("colour")

	cases := []struct {
		name, question string
		want           []string // filter labels
	}{
		{"value named", "how many crimson items", []string{"colour is Crimson"}},
		{"value in capitals", "how many items are BLUE", []string{"colour is Blue"}},
		{"no value named", "how many items are mauve", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := filterLabels(t, an, tc.question); !slices.Equal(got, tc.want) {
				t.Errorf("filters of %q = %q, want %q", tc.question, got, tc.want)
			}
		})
	}
	// the load is still under way: the question did not wait for it
	if _, _, complete, err := src.Catalog().Snapshot(context.Background(), col); complete || err != nil {
		t.Errorf("snapshot of an endless column: complete %v, err %v; want still loading", complete, err)
	}
}

// TestValuesSnapshot: a snapshot of a column never loaded answers at once
// with what probes found, and starts the load; once it ends, the snapshot
// is the loaded values, complete.
func TestValuesSnapshot(t *testing.T) {
	sh := newShop(t, "red", "blue", "red")
	cat := sh.src.Catalog()
	ctx := context.Background()
	vals, rows, err := cat.Probe(ctx, sh.col, []string{"RED", "mauve"})
	if err != nil || !slices.Equal(vals, []string{"red"}) || !slices.Equal(rows, []int64{2}) {
		t.Fatalf("probe = %v %v, %v; want [red] [2]", vals, rows, err)
	}
	if _, _, _, err := cat.Snapshot(ctx, sh.col); err != nil {
		t.Fatal(err)
	}
	source.WaitValues(sh.src)
	vals, rows, complete, err := cat.Snapshot(ctx, sh.col)
	if err != nil || !complete || !slices.Equal(vals, []string{"blue", "red"}) || !slices.Equal(rows, []int64{1, 2}) {
		t.Errorf("snapshot after the load = %v %v, complete %v, %v; want [blue red] [1 2], complete", vals, rows, complete, err)
	}
}

// TestValuesIncremental: a column whose table has an integer key, or a
// timestamp time column, is refreshed from the rows added since the last
// load: new values and counts arrive at each refresh, and values no row
// holds any more go at the full reload of every sixth refresh.
func TestValuesIncremental(t *testing.T) {
	cases := []struct {
		name, create, insert string
	}{
		{"integer key", "CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT)", "INSERT INTO items (colour) VALUES (?)"},
		{"time column", "CREATE TABLE items (id TEXT PRIMARY KEY, colour TEXT, added TEXT)",
			"INSERT INTO items (id, colour, added) VALUES (lower(hex(randomblob(8))), ?, strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || (SELECT COUNT(*) FROM items) || ' seconds'))"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			yaml := shopModel
			if tc.name == "time column" {
				yaml = strings.Replace(shopModel, "key: id\n", "key: id\n    time_column: added\n", 1)
				yaml = strings.Replace(yaml, "{name: id, role: id, type: integer}", "{name: id, role: id, type: text}\n      - {name: added, role: time, type: timestamp}", 1)
			}
			sh := newShopWith(t, yaml, tc.create)
			add := func(colours ...string) {
				for _, c := range colours {
					sh.exec(t, tc.insert, c)
				}
			}
			counts := func(want ...any) {
				t.Helper()
				vals, rows, err := sh.src.Catalog().CountedValues(context.Background(), sh.col)
				if err != nil {
					t.Fatal(err)
				}
				var got []any
				for i, v := range vals {
					got = append(got, v, rows[i])
				}
				if fmt.Sprint(got...) != fmt.Sprint(want...) {
					t.Fatalf("values and counts = %v, want %v", got, want)
				}
			}
			add("red", "blue")
			counts("blue", int64(1), "red", int64(1))
			add("green", "red")
			sh.refresh(2 * time.Minute) // refresh 1: the two new rows
			counts("blue", int64(1), "green", int64(1), "red", int64(2))
			sh.exec(t, "DELETE FROM items WHERE colour = 'blue'")
			for i := 2; i <= 5; i++ { // refreshes 2 to 5 read only new rows
				sh.refresh(2 * time.Minute)
				counts("blue", int64(1), "green", int64(1), "red", int64(2))
			}
			sh.refresh(2 * time.Minute) // refresh 6: a full reload
			counts("green", int64(1), "red", int64(2))
			add("yellow")
			sh.refresh(2 * time.Minute) // incremental again
			counts("green", int64(1), "red", int64(2), "yellow", int64(1))
		})
	}
}
