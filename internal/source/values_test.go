package source_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
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
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sh := &shop{db: db, clock: &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	sh.exec(t, "CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT)")
	for _, c := range colours {
		sh.exec(t, "INSERT INTO items (colour) VALUES (?)", c)
	}
	m, err := model.Parse("shop.yaml", []byte(shopModel))
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
