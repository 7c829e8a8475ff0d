package demo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo"
)

func TestNames(t *testing.T) {
	want := []string{"clinic", "labs", "trades", "retail"}
	if diff := cmp.Diff(want, demo.Names()); diff != "" {
		t.Errorf("Names() (-want +got):\n%s", diff)
	}
	demo.Names()[0] = "changed"
	if demo.Names()[0] != "clinic" {
		t.Error("Names() returns shared state")
	}
}

func TestOptionsErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	tests := []struct {
		name   string
		source string
		opt    demo.Options
		is     error
	}{
		{"unknown source", "nope", demo.Options{AsOf: friday}, demo.ErrUnknownSource},
		{"no as_of", "labs", demo.Options{}, nil},
		{"as_of out of range", "labs", demo.Options{AsOf: time.Date(20000, 1, 1, 0, 0, 0, 0, time.UTC)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".db")
			err := demo.WriteSQLite(ctx, tc.source, path, tc.opt)
			if err == nil {
				t.Fatal("WriteSQLite succeeded, want an error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a file was left at %s", path)
			}
		})
	}
	if _, err := demo.EnsureSQLite(ctx, dir, demo.Options{}); err == nil {
		t.Error("EnsureSQLite without AsOf succeeded")
	}
}

// TestWriteSQLiteReplaces checks that an existing file is replaced whole and
// that no temporary file is left behind.
func TestWriteSQLiteReplaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "labs.db")
	if err := os.WriteFile(path, []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	asOf := time.Date(2026, 3, 1, 15, 4, 5, 0, time.FixedZone("UTC+10", 10*3600))
	if err := demo.WriteSQLite(ctx, "labs", path, demo.Options{AsOf: asOf}); err != nil {
		t.Fatal(err)
	}
	got, err := demo.AsOf(ctx, openSQLite(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if want := date("2026-03-01"); !got.Equal(want) {
		t.Errorf("AsOf = %v, want %v (the date part of Options.AsOf)", got, want)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only labs.db", names)
	}
}

func TestWriteSQLiteCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	err := demo.WriteSQLite(ctx, "trades", filepath.Join(dir, "trades.db"), demo.Options{AsOf: friday})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("canceled write left %d files", len(entries))
	}
}

// TestEnsureSQLite checks that existing files are kept and missing ones
// generated (two of them, concurrently).
func TestEnsureSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	kept := []byte("kept as is")
	for _, name := range []string{"trades", "retail"} {
		if err := os.WriteFile(filepath.Join(dir, name+".db"), kept, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := demo.EnsureSQLite(ctx, dir, demo.Options{AsOf: sunday})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, name := range demo.Names() {
		want[name] = filepath.Join(dir, name+".db")
	}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	for _, name := range []string{"trades", "retail"} {
		b, err := os.ReadFile(paths[name])
		if err != nil || string(b) != string(kept) {
			t.Errorf("%s was not kept: %q, %v", name, b, err)
		}
	}
	for _, name := range []string{"clinic", "labs"} {
		got, err := demo.AsOf(ctx, openSQLite(t, paths[name]))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(sunday) {
			t.Errorf("%s as_of = %v, want %v", name, got, sunday)
		}
	}
}
