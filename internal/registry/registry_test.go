package registry_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/registry"
)

// clinic returns a registry of one source, the clinic demo database at path.
func clinic(t *testing.T, path string) *registry.Registry {
	t.Helper()
	cfg := &config.Config{Sources: []config.Source{{Name: "clinic", DSN: "sqlite:" + path, Model: "builtin:clinic"}}}
	r := registry.New(cfg, t.TempDir(), registry.Options{})
	t.Cleanup(func() { r.Close() })
	return r
}

// copyClinic copies the clinic demo database to path.
func copyClinic(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(demotest.Path(t, "clinic"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A request cancelled while its source opens (a page reloaded at start-up)
// must not leave the source failing for the next request.
func TestEngineCancelledFirstOpen(t *testing.T) {
	t.Parallel()
	r := clinic(t, demotest.Path(t, "clinic"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, _ = r.Engine(ctx, "clinic") // may fail or succeed, but is not kept as a failure
	eng, info, err := r.Engine(context.Background(), "clinic")
	if err != nil {
		t.Fatalf("open after a cancelled open: %v", err)
	}
	if eng == nil || info.Name != "clinic" {
		t.Fatalf("got engine %v, info %+v", eng, info)
	}
}

// A source whose database is missing at first opens once it is there.
func TestEngineRetriesFailedOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "clinic.db")
	r := clinic(t, path)
	if _, _, err := r.Engine(context.Background(), "clinic"); err == nil {
		t.Fatal("opened a database that does not exist")
	}
	copyClinic(t, path)
	if _, _, err := r.Engine(context.Background(), "clinic"); err != nil {
		t.Fatalf("open after the database appeared: %v", err)
	}
}

// Callers at the same time share one open, hence one engine.
func TestEngineConcurrentShareOneOpen(t *testing.T) {
	t.Parallel()
	r := clinic(t, demotest.Path(t, "clinic"))
	const n = 16
	engines := make([]*engine.Engine, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			engines[i], _, errs[i] = r.Engine(context.Background(), "clinic")
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if engines[i] != engines[0] {
			t.Fatalf("caller %d got another engine than caller 0", i)
		}
	}
}

func TestEngineUnknownSource(t *testing.T) {
	t.Parallel()
	r := clinic(t, demotest.Path(t, "clinic"))
	_, _, err := r.Engine(context.Background(), "nope")
	var u *registry.UnknownSourceError
	if !errors.As(err, &u) || u.Name != "nope" {
		t.Fatalf("got %v, want an UnknownSourceError for nope", err)
	}
}
