package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
)

// TestAuditKeep: audit.keep reads like conversations.keep, on its own.
func TestAuditKeep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, yaml string
		want, conv time.Duration
		wantErr    string
	}{
		{name: "days", yaml: "audit: {keep: 365d}\n", want: 365 * 24 * time.Hour},
		{name: "beside conversations", yaml: "conversations: {keep: 30d}\naudit: {keep: 400d}\n", want: 400 * 24 * time.Hour, conv: 30 * 24 * time.Hour},
		{name: "absent", yaml: "conversations: {keep: 30d}\n", conv: 30 * 24 * time.Hour},
		{name: "negative", yaml: "audit: {keep: -3h}\n", wantErr: "audit: keep must not be negative"},
		{name: "unknown key", yaml: "audit: {keep: 1d, forever: true}\n", wantErr: "forever"},
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
			if got := time.Duration(c.Audit.Keep); got != tc.want {
				t.Errorf("audit keep = %s, want %s", got, tc.want)
			}
			if got := time.Duration(c.Conversations.Keep); got != tc.conv {
				t.Errorf("conversations keep = %s, want %s", got, tc.conv)
			}
		})
	}
}
