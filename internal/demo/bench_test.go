package demo_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo"
)

// BenchmarkEnsureSQLite generates all four sources into an empty directory,
// as `clarify demo` does on first start. The spec's budget is 5 s on 2 cores:
//
//	go test -run '^$' -bench EnsureSQLite -benchtime 5x ./internal/demo/
func BenchmarkEnsureSQLite(b *testing.B) {
	b.ReportAllocs()
	ctx := context.Background()
	base := b.TempDir()
	i := 0
	for b.Loop() {
		dir := filepath.Join(base, strconv.Itoa(i))
		if _, err := demo.EnsureSQLite(ctx, dir, demo.Options{AsOf: friday}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		i++
	}
}
