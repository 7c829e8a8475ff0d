package source

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestPgStartupRefused: a start refused for a startup parameter by a
// pooler (PgBouncer's 08P01) turns a pool pooled; PostgreSQL's own
// refusals of a setting, and other failures, do not.
func TestPgStartupRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "08P01", Message: "unsupported startup parameter: jit"}, true},
		{fmt.Errorf("failed to connect: %w", &pgconn.PgError{Code: "08P01", Message: "unsupported startup parameter: work_mem"}), true},
		{&pgconn.PgError{Code: "08P01", Message: "invalid message format"}, false},
		{&pgconn.PgError{Code: "42704", Message: `unrecognized configuration parameter "jit"`}, false},
		{&pgconn.PgError{Code: "42501", Message: `permission denied to set parameter "temp_file_limit"`}, false},
		{errors.New("unsupported startup parameter: jit"), false},
	} {
		if got := pgStartupRefused(tc.err); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestPgLocalLimits: one statement sets every limit for its transaction,
// names and values bound, the text holding only placeholders.
func TestPgLocalLimits(t *testing.T) {
	text, args := pgLocalLimits(postgresLimits(1500 * time.Millisecond)[:2])
	if want := "SELECT pg_catalog.set_config($1, $2, true), pg_catalog.set_config($3, $4, true)"; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
	var got []string
	for _, a := range args {
		got = append(got, string(a))
	}
	if want := []string{"statement_timeout", "1500", "work_mem", "16MB"}; !slices.Equal(got, want) {
		t.Errorf("arguments %q, want %q", got, want)
	}
}
