package cli_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/auth"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/google/go-cmp/cmp"
)

// TestKeyNew: the printed lines, pasted into a config, make the printed
// key identify its user.
func TestKeyNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		want   auth.Identity
		expiry func(time.Time) bool // nil: never expires
	}{
		{name: "plain", args: []string{"--user", "ana"}, want: auth.Identity{User: "ana", Method: "key"}},
		{name: "admin with groups", args: []string{"--user", "Bob Smith", "--admin", "--group", "ops", "--group", "nurses"},
			want: auth.Identity{User: "Bob Smith", Groups: []string{"ops", "nurses"}, Admin: true, Method: "key"}},
		{name: "90 days", args: []string{"--user", "ana", "--expires", "90d"}, want: auth.Identity{User: "ana", Method: "key"},
			expiry: func(e time.Time) bool {
				d := time.Until(e)
				return d > 89*24*time.Hour && d <= 90*24*time.Hour
			}},
		{name: "a date", args: []string{"--user", "ana", "--expires", "2999-01-31"}, want: auth.Identity{User: "ana", Method: "key"},
			expiry: func(e time.Time) bool { return e.Equal(time.Date(2999, 1, 31, 0, 0, 0, 0, time.UTC)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "", append([]string{"key", "new"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			key, entry := splitKeyOutput(t, out)
			path := filepath.Join(t.TempDir(), "clarify.yaml")
			if err := os.WriteFile(path, []byte("server:\n  api_keys:\n"+entry), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Load(path)
			if err != nil {
				t.Fatalf("the printed lines do not load: %v\n%s", err, entry)
			}
			// "clk_<id>_<secret>": the secret, base64url, may hold "_" itself
			// (taking what follows the last one made a short tail that a
			// hash in the entry held by chance)
			_, secret, _ := strings.Cut(strings.TrimPrefix(key, "clk_"), "_")
			if secret == "" || strings.Contains(entry, key) || strings.Contains(entry, secret) {
				t.Errorf("the config lines contain the key's secret:\n%s", entry)
			}
			ac, err := auth.FromConfig(cfg.Server)
			if err != nil {
				t.Fatal(err)
			}
			if len(ac.Keys) != 1 || (tc.expiry == nil) != ac.Keys[0].Expires.IsZero() || tc.expiry != nil && !tc.expiry(ac.Keys[0].Expires) {
				t.Errorf("keys %+v", ac.Keys)
			}
			a, err := auth.New(ac)
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.Header.Set("Authorization", "Bearer "+key)
			got, err := a.Identify(r)
			if err != nil {
				t.Fatalf("the printed key: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("identity (-want +got):\n%s", diff)
			}
			r.Header.Set("Authorization", "Bearer "+key+"x")
			if _, err := a.Identify(r); !errors.Is(err, auth.ErrInvalid) {
				t.Errorf("a changed key: %v, want ErrInvalid", err)
			}
		})
	}
}

// splitKeyOutput returns the key and the indented config lines.
func splitKeyOutput(t *testing.T, out string) (key, entry string) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "  clk_"):
			key = strings.TrimSpace(l)
		case strings.HasPrefix(l, "    "):
			lines = append(lines, l)
		}
	}
	if key == "" || len(lines) == 0 {
		t.Fatalf("no key or config lines in:\n%s", out)
	}
	return key, strings.Join(lines, "\n") + "\n"
}

func TestKeyNewUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"no subcommand", []string{"key"}, "clarify key new --user NAME"},
		{"no user", []string{"key", "new"}, "--user is required"},
		{"bad expiry", []string{"key", "new", "--user", "ana", "--expires", "soon"}, "want a number of days"},
		{"past date", []string{"key", "new", "--user", "ana", "--expires", "2001-01-01"}, "not in the future"},
		{"zero days", []string{"key", "new", "--user", "ana", "--expires", "0d"}, "not in the future"},
		{"bad user", []string{"key", "new", "--user", " ana"}, "leading or trailing space"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "", tc.args...)
			if code != 2 || !strings.Contains(errs, tc.msg) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errs, tc.msg)
			}
			if strings.Contains(out, "clk_") {
				t.Errorf("a key was printed: %s", out)
			}
		})
	}
}
