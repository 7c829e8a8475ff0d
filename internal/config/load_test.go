package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/config"
)

// load writes yaml to a clarify.yaml of the test's own and loads it.
func load(t *testing.T, yaml string) (*config.Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "clarify.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return config.Load(path)
}

// loadWant is load for a table case: with wantErr set, it fails the test
// unless loading fails with an error containing wantErr, and returns nil;
// without, it fails the test on any error.
func loadWant(t *testing.T, yaml, wantErr string) *config.Config {
	t.Helper()
	c, err := load(t, yaml)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("Load = %v; want an error containing %q", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}
