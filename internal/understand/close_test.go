package understand_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/leaktest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

// analyzerFrames names the analyzer's methods and the goroutines they start.
const analyzerFrames = "clarify/internal/understand.(*Analyzer)"

// changing is a catalog whose values change on every look and whose reads,
// once stall is set, wait until their context is canceled: a rebuild of
// the value index that only cancellation ends.
type changing struct {
	version  atomic.Uint64
	delay    time.Duration // how long each read takes, when set before use
	stall    atomic.Bool
	stalled  chan struct{} // receives when a read starts waiting
	canceled atomic.Int32  // reads that ended by cancellation
}

func newChanging() *changing { return &changing{stalled: make(chan struct{}, 64)} }

func (c *changing) Version(context.Context) uint64 { return c.version.Add(1) }
func (c *changing) CountedValues(ctx context.Context, _ *model.Column) ([]string, []int64, error) {
	time.Sleep(c.delay)
	if !c.stall.Load() {
		return []string{"red", "blue"}, []int64{1, 1}, nil
	}
	c.stalled <- struct{}{}
	<-ctx.Done()
	c.canceled.Add(1)
	return nil, nil, ctx.Err()
}
func (c *changing) Rows(context.Context, *model.Entity, []string, int) ([][]string, error) {
	return nil, nil
}
func (c *changing) RowsWith(context.Context, *model.Column, string, []string, int) ([][]string, error) {
	return nil, nil
}
func (c *changing) RowsByKey(context.Context, *model.Entity, []string, []string, int) ([][]string, error) {
	return nil, nil
}

// owning is a changing catalog that owns background work, as a source's
// value cache does: close cancels it and waits.
type owning struct {
	*changing
	mu      sync.Mutex
	closed  bool
	cancels []context.CancelFunc
	wg      sync.WaitGroup
	ran     atomic.Int32
}

func (o *owning) Go(ctx context.Context, f func(context.Context)) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	o.cancels = append(o.cancels, cancel)
	o.ran.Add(1)
	o.wg.Go(func() { f(ctx) })
	return true
}

func (o *owning) close() {
	o.mu.Lock()
	o.closed = true
	for _, cancel := range o.cancels {
		cancel()
	}
	o.mu.Unlock()
	o.wg.Wait()
}

const colourModel = `source: shop
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

// TestCloseStopsRebuild: a rebuild of the value index that runs when the
// catalog's values change is canceled and waited for by its owner — the
// analyzer's Close, or the catalog's own close when it is an Owner — and
// no rebuild starts after. Until then the analyzer serves the index it had.
func TestCloseStopsRebuild(t *testing.T) {
	plain := func(c *changing) (understand.Catalog, func(*understand.Analyzer)) {
		return c, func(an *understand.Analyzer) { an.Close() }
	}
	owned := func(c *changing) (understand.Catalog, func(*understand.Analyzer)) {
		o := &owning{changing: c}
		return o, func(*understand.Analyzer) {
			o.close()
			if o.ran.Load() == 0 {
				t.Error("the catalog owns background work, but the analyzer did not hand it its rebuild")
			}
		}
	}
	cases := []struct {
		name  string
		setup func(*changing) (understand.Catalog, func(*understand.Analyzer))
	}{
		{"the analyzer's Close", plain},
		{"the catalog's close", owned},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch := newChanging()
			cat, closeOwner := tc.setup(ch)
			an := understand.New(testModel(t, "shop.yaml", colourModel), cat)
			ask := func() {
				t.Helper()
				in, err := an.Analyze(context.Background(), "red items", understand.Settings{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
				if err != nil {
					t.Fatal(err)
				}
				if in.Query == nil || len(in.Query.Filters) == 0 {
					t.Errorf("red items read without the stored value red: %+v", in.Query)
				}
			}
			ask() // builds the index
			ch.stall.Store(true)
			ask() // the values changed: a rebuild starts, and stalls
			select {
			case <-ch.stalled:
			case <-time.After(time.Minute):
				t.Fatal("no rebuild started when the catalog's values changed")
			}
			closeOwner(an)
			if ch.canceled.Load() == 0 {
				t.Error("the owner returned without canceling the rebuild")
			}
			leaktest.Gone(t, analyzerFrames, "its owner's close")
			an.Close()
			ask() // the values changed again, with the stale index kept
			leaktest.Gone(t, analyzerFrames, "the analyzer's Close")
			select {
			case <-ch.stalled:
				t.Error("a rebuild started after its owner closed")
			default:
			}
		})
	}
}
