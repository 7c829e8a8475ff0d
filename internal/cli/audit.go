package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/store"
)

// audit prints the audit log from the store, newest first: for an operator
// on the machine, who reads the store directly (over the API only admins
// may, GET /v1/audit).
func (e *env) audit(ctx context.Context, args []string) error {
	fs := newFlagSet("audit", e)
	var c common
	c.register(fs)
	storeDSN := fs.String("store", "", "store: sqlite:PATH or postgres://… (env CLARIFY_STORE, default sqlite:DATA_DIR/clarify.db)")
	user := fs.String("user", "", "only this user's records")
	source := fs.String("source", "", "only this source's records")
	since := fs.String("since", "", "only records at or after: an RFC 3339 time, or a period back from now (72h, 30d)")
	until := fs.String("until", "", "only records before: an RFC 3339 time, or a period back from now")
	limit := fs.Int("limit", store.DefaultAuditLimit, fmt.Sprintf("records to print (at most %d)", store.MaxAuditLimit))
	before := fs.Int64("before", 0, "only records with an id below this one (the next page after a page ending at it)")
	asJSON := fs.Bool("json", false, "print one JSON record per line")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("audit takes no arguments, got %q", pos[0])
	}
	if *limit < 1 || *limit > store.MaxAuditLimit {
		return usagef("--limit must be from 1 to %d", store.MaxAuditLimit)
	}
	f := store.AuditFilter{User: *user, Source: *source, Limit: *limit, Before: *before}
	now := time.Now()
	if f.Since, err = auditTime(*since, now); err != nil {
		return usagef("--since: %v", err)
	}
	if f.Until, err = auditTime(*until, now); err != nil {
		return usagef("--until: %v", err)
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	dsn := first(*storeDSN, getenv("CLARIFY_STORE"), cfg.Server.Store, "sqlite:"+filepath.Join(dir, "clarify.db"))
	if strings.HasPrefix(dsn, "sqlite:") {
		// reading must not create an empty store where none is
		if _, err := os.Stat(strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")); err != nil {
			return fmt.Errorf("open store: %w", err)
		}
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	recs, err := st.Audit(ctx, f)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else if err := writeAudit(e, recs); err != nil {
		return err
	}
	if len(recs) == f.Limit {
		fmt.Fprintf(e.stderr, "older records: --before %d\n", recs[len(recs)-1].ID)
	}
	return nil
}

// writeAudit prints each record on a line, its statement and bound values
// indented on the next.
func writeAudit(e *env, recs []store.AuditRecord) error {
	for _, r := range recs {
		outcome := r.Outcome
		if r.ErrorCode != "" {
			outcome += " " + r.ErrorCode
		}
		_, err := fmt.Fprintf(e.stdout, "#%d %s user=%s source=%s scope=%s %s rows=%d conversation=%s request=%s\n",
			r.ID, r.At.Format(time.RFC3339), r.UserID, r.Source, dash(r.Scope), outcome, r.Rows,
			dash(r.ConversationID), dash(r.RequestID))
		if err == nil && r.Statement != "" {
			_, err = fmt.Fprintf(e.stdout, "    %s\n    params %s\n", flatten(r.Statement), r.Params)
		}
		if err != nil {
			return err
		}
	}
	if len(recs) == 0 {
		fmt.Fprintln(e.stderr, "no audit records")
	}
	return nil
}

// auditTime reads an RFC 3339 time or a period back from now ("" is zero).
func auditTime(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	d, err := parseSince(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor a period (72h, 30d)", s)
	}
	return now.Add(-d), nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// flatten puts a statement on one line, whole.
func flatten(s string) string { return strings.Join(strings.Fields(s), " ") }
