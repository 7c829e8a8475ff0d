package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
)

func TestServerLeaseTTL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		yaml    string
		want    time.Duration
		wantErr string
	}{
		{name: "absent: the default", yaml: "server: {message_limit: 5}\n", want: 0},
		{name: "seconds", yaml: "server: {lease_ttl: 5s}\n", want: 5 * time.Second},
		{name: "minutes", yaml: "server:\n  lease_ttl: 2m\n", want: 2 * time.Minute},
		{name: "one second", yaml: "server: {lease_ttl: 1s}\n", want: time.Second},
		{name: "too short", yaml: "server: {lease_ttl: 500ms}\n", wantErr: "at least 1s"},
		{name: "negative", yaml: "server: {lease_ttl: -10s}\n", wantErr: "at least 1s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "clarify.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := config.Load(path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Load = %v; want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Server.LeaseTTL != tc.want {
				t.Errorf("lease_ttl = %s, want %s", c.Server.LeaseTTL, tc.want)
			}
		})
	}
}
