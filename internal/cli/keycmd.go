package cli

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/auth"
	"github.com/clarify-sql/clarify/internal/config"
)

// keyNew runs `clarify key new`: it makes an API key, prints it once, and
// prints the lines to paste under server.api_keys. The key itself is
// never stored; only its id and salted hash go into the config.
func (e *env) keyNew(_ context.Context, args []string) error {
	fs := newFlagSet("key new", e)
	user := fs.String("user", "", "the user the key stands for (required)")
	expires := fs.String("expires", "", "when the key stops working: a number of days (90d), YYYY-MM-DD or RFC 3339 (default never)")
	admin := fs.Bool("admin", false, "let the key's user read every user's statistics")
	var groups []string
	fs.Func("group", "a group the key's user belongs to (repeatable)", func(v string) error {
		groups = append(groups, v)
		return nil
	})
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("key new: unexpected argument %q", pos[0])
	}
	if *user == "" {
		return usagef("key new: --user is required")
	}
	now := time.Now()
	exp, expText, err := keyExpiry(*expires, now)
	if err != nil {
		return usagef("key new: %v", err)
	}
	text, k, err := auth.NewKey(*user, exp, rand.Reader)
	if err != nil {
		return usagef("%v", err)
	}
	entry := []config.APIKey{{User: k.User, ID: k.ID, Hash: k.Hash, Expires: expText, Groups: groups, Admin: *admin}}
	out, err := yaml.Marshal(entry)
	if err != nil {
		return fmt.Errorf("key new: %w", err)
	}
	fmt.Fprintf(e.stdout, "API key for %s (shown once: store it now, it cannot be recovered):\n\n  %s\n\n", k.User, text)
	fmt.Fprintf(e.stdout, "Add these lines under server.api_keys in the config file, then restart clarify serve:\n\n")
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		fmt.Fprintf(e.stdout, "    %s\n", line)
	}
	return nil
}

// keyExpiry reads --expires: a duration from now ("90d", "36h") or a
// date or time as the config accepts it. text is what the config gets.
func keyExpiry(s string, now time.Time) (t time.Time, text string, err error) {
	if s == "" {
		return time.Time{}, "", nil
	}
	if d, err := config.ParseDuration(s); err == nil {
		if d <= 0 {
			return time.Time{}, "", fmt.Errorf("--expires %s is not in the future", s)
		}
		t = now.Add(d).UTC().Truncate(time.Second)
		return t, t.Format(time.RFC3339), nil
	}
	t, err = config.APIKey{Expires: s}.ExpiresAt()
	if err != nil {
		return time.Time{}, "", fmt.Errorf("--expires: want a number of days (90d), YYYY-MM-DD or RFC 3339, got %q", s)
	}
	if !t.After(now) {
		return time.Time{}, "", fmt.Errorf("--expires %s is not in the future", s)
	}
	return t, s, nil
}
