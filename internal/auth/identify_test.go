package auth_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/auth"
)

// checkIdentify checks what Identify returned against a table case of
// the key, token and proxy tests: the identity want when wantErr is nil,
// else an error that is wantErr and says msg.
func checkIdentify(t *testing.T, got auth.Identity, err error, want auth.Identity, wantErr error, msg string) {
	t.Helper()
	if wantErr == nil {
		if err != nil {
			t.Fatalf("Identify: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("identity (-want +got):\n%s", diff)
		}
		return
	}
	if !errors.Is(err, wantErr) {
		t.Fatalf("Identify = %+v, %v; want %v", got, err, wantErr)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q does not say %q", err, msg)
	}
}
