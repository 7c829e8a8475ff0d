package config_test

import (
	"testing"
	"time"
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
			c := loadWant(t, tc.yaml, tc.wantErr)
			if c == nil {
				return
			}
			if c.Server.LeaseTTL != tc.want {
				t.Errorf("lease_ttl = %s, want %s", c.Server.LeaseTTL, tc.want)
			}
		})
	}
}
