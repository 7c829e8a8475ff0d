package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clarify-sql/clarify/internal/cli"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/server"
)

// TestRateLimitConfig: server.rate_limit as written in a config file
// becomes the server's limit: absent fields keep their defaults, 0 turns a
// limit off, and negative values are refused.
func TestRateLimitConfig(t *testing.T) {
	t.Parallel()
	def := server.DefaultRateLimit()
	tests := []struct {
		name    string
		yaml    string
		want    server.RateLimit
		wantErr bool
	}{
		{name: "absent", yaml: "server: {}\n", want: def},
		{name: "empty", yaml: "server: {rate_limit: {}}\n", want: def},
		{name: "some fields", yaml: "server: {rate_limit: {burst: 20}}\n",
			want: server.RateLimit{QuestionsPerMinute: def.QuestionsPerMinute, Burst: 20, ConcurrentTurns: def.ConcurrentTurns}},
		{name: "all fields", yaml: "server:\n  rate_limit: {questions_per_minute: 120, burst: 40, concurrent_turns: 8}\n",
			want: server.RateLimit{QuestionsPerMinute: 120, Burst: 40, ConcurrentTurns: 8}},
		{name: "zero turns limits off", yaml: "server: {rate_limit: {questions_per_minute: 0, concurrent_turns: 0}}\n",
			want: server.RateLimit{Burst: def.Burst}},
		{name: "negative", yaml: "server: {rate_limit: {burst: -1}}\n", wantErr: true},
		{name: "unknown key", yaml: "server: {rate_limit: {per_hour: 5}}\n", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "clarify.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := config.Load(path)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("loaded %q, want an error", tc.yaml)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := *cli.RateLimit(c.Server.RateLimit); got != tc.want {
				t.Errorf("rate limit %+v, want %+v", got, tc.want)
			}
		})
	}
}
