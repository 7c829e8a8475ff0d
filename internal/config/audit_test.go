package config_test

import (
	"testing"
	"time"
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
			c := loadWant(t, tc.yaml, tc.wantErr)
			if c == nil {
				return
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
