package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// TestWriteIsolation runs many concurrent write transactions, half of which
// write and then fail: on SQLite they share groups, and each failing one
// must undo only its own writes, each caller must get its own outcome.
func TestWriteIsolation(t *testing.T) {
	t.Parallel()
	for _, tc := range backends {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s, err := store.Open(ctx, tc.newDSN(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			boom := errors.New("boom")
			const n = 200
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					errs[i] = store.WriteTx(ctx, s, func(exec func(string, ...any) error) error {
						err := exec(`INSERT INTO user_settings (user_id, never_ask, updated_at) VALUES ($1, $2, $3)`,
							fmt.Sprintf("u%03d", i), true, store.TimeArg(s, time.Now()))
						if err != nil {
							return err
						}
						if i%2 == 1 {
							return boom
						}
						return nil
					})
				})
			}
			wg.Wait()
			for i, err := range errs {
				wantErr := error(nil)
				if i%2 == 1 {
					wantErr = boom
				}
				if !errors.Is(err, wantErr) && err != wantErr {
					t.Errorf("write %d: error %v, want %v", i, err, wantErr)
				}
				never, err := s.NeverAsk(ctx, fmt.Sprintf("u%03d", i))
				if err != nil {
					t.Fatal(err)
				}
				if never != (i%2 == 0) {
					t.Errorf("write %d: stored = %v, want %v", i, never, i%2 == 0)
				}
			}
		})
	}
}

// TestSQLiteWriterSettings checks the settings of SQLite's write
// connection: those its durability rests on (WAL, synchronous=FULL), and
// those that keep a group of writes off the disk until its COMMIT (the
// savepoints' statement journal in memory, a page cache that holds a
// group).
func TestSQLiteWriterSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := store.Open(ctx, sqliteDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, tc := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"temp_store", "2"},  // MEMORY
		{"cache_size", fmt.Sprint(-store.WriterCacheKiB)},
		{"busy_timeout", "10000"},
	} {
		got, err := store.WriterPragma(ctx, s, tc.pragma)
		if err != nil {
			t.Fatalf("PRAGMA %s: %v", tc.pragma, err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %s, want %s", tc.pragma, got, tc.want)
		}
	}
}
