package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// TestAudit: clarify audit prints the store's audit log, newest first,
// filtered, as text or JSON lines; a missing store is an error, not a new
// empty one.
func TestAudit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "clarify.db")
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	for i, r := range []store.AuditRecord{
		{UserID: "ana", Source: "labs", Scope: "L3", Statement: "SELECT value\n  FROM results WHERE patient_id = ?",
			Params: json.RawMessage(`["L3"]`), Rows: 4, Outcome: store.AuditAnswered, ConversationID: "c1", RequestID: "req-1"},
		{UserID: "bo", Source: "clinic", Outcome: store.AuditFailed, ErrorCode: "SCOPE_REQUIRED", ConversationID: "c2"},
		{UserID: "ana", Source: "labs", Outcome: store.AuditAsked, ConversationID: "c3"},
	} {
		r.At = at.Add(time.Duration(i) * time.Hour)
		if err := st.AppendAudit(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	dsn := "sqlite:" + path

	code, out, errs := run(t, "", "audit", "--data-dir", dir, "--store", dsn, "--user", "ana", "--until", "2026-05-01T12:00:00Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "#1 2026-05-01T10:00:00Z user=ana source=labs scope=L3 answered rows=4 conversation=c1 request=req-1\n" +
		"    SELECT value FROM results WHERE patient_id = ?\n    params [\"L3\"]\n"
	if out != want {
		t.Errorf("clarify audit --user ana printed\n%s\nwant\n%s", out, want)
	}

	code, out, errs = run(t, "", "audit", "--data-dir", dir, "--store", dsn, "--json", "--limit", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ids []int64
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r store.AuditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		ids = append(ids, r.ID)
	}
	if len(ids) != 2 || ids[0] != 3 || ids[1] != 2 || !strings.Contains(errs, "--before 2") {
		t.Errorf("--json --limit 2: ids %v, stderr %q; want 3, 2 and the next page's flag", ids, errs)
	}

	missing := filepath.Join(dir, "none.db")
	if code, _, _ := run(t, "", "audit", "--data-dir", dir, "--store", "sqlite:"+missing); code == 0 {
		t.Error("clarify audit of a missing store succeeded")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("clarify audit created a store")
	}
	if code, _, _ := run(t, "", "audit", "--data-dir", dir, "--store", dsn, "--since", "yesterday"); code != 2 {
		t.Errorf("--since yesterday: exit %d, want 2", code)
	}
}
