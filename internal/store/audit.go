package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Audit outcomes: what a turn came to.
const (
	AuditAnswered = "answered"
	AuditAsked    = "needs_clarification"
	AuditFailed   = "failed"
)

// AuditRecord is one entry of the audit log: one turn that ran or was
// refused. Unlike the query log, the audit log is kept when a conversation
// is deleted, by its user or by retention; only DeleteAuditBefore removes
// records.
type AuditRecord struct {
	// ID is assigned by the store, increasing in the order records are
	// appended; it is 0 in a record to append.
	ID int64 `json:"id"`
	// At is when the turn ended (now when zero).
	At             time.Time `json:"at"`
	UserID         string    `json:"user"`
	Source         string    `json:"source"`
	ConversationID string    `json:"conversation_id"`
	// RequestID is the API request that ran the turn ("" when unknown, as
	// for the CLI).
	RequestID string `json:"request_id"`
	Question  string `json:"question"`
	// Scope is the scope value (a patient's or customer's key) the
	// statement was limited to; "" when it was not limited to one.
	Scope string `json:"scope"`
	// Statement and Params are the statement the turn executed and its
	// bound values, a JSON array ("" and [] when no statement ran).
	Statement string          `json:"statement"`
	Params    json.RawMessage `json:"params"`
	Rows      int             `json:"rows"`
	// Outcome is AuditAnswered, AuditAsked or AuditFailed, the latter with
	// the failure's ErrorCode.
	Outcome   string `json:"outcome"`
	ErrorCode string `json:"error_code,omitempty"`
}

// AuditFilter selects audit records. Its zero value selects the newest
// records of every user and source, up to DefaultAuditLimit.
type AuditFilter struct {
	// User and Source, when set, keep only that user's or source's records.
	User   string
	Source string
	// Since (inclusive) and Until (exclusive) bound At; zero means unbounded.
	Since time.Time
	Until time.Time
	// Before, when not 0, keeps only the records with ID < Before: the next
	// page after a page whose last (oldest) record has ID Before.
	Before int64
	// Limit bounds the records returned (default DefaultAuditLimit, at most
	// MaxAuditLimit).
	Limit int
}

// Limits of one read of the audit log.
const (
	DefaultAuditLimit = 100
	MaxAuditLimit     = 1000
)

// ErrAuditRecord is returned when AppendAudit is given a record it cannot store.
var ErrAuditRecord = errors.New("invalid audit record")

// auditSweepBatch is how many records one transaction of DeleteAuditBefore
// removes, so that no lock is held long.
const auditSweepBatch = 1000

const (
	insertAudit = `INSERT INTO audit_log (at, user_id, source, conversation_id, request_id, question,
    scope, statement, params, rows, outcome, error_code)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`

	selectAudit = `SELECT id, at, user_id, source, conversation_id, request_id, question,
    scope, statement, params, rows, outcome, error_code
FROM audit_log
WHERE (CAST($1 AS TEXT) = '' OR user_id = $1)
  AND (CAST($2 AS TEXT) = '' OR source = $2)
  AND at >= $3 AND at < $4
  AND (CAST($5 AS BIGINT) = 0 OR id < $5)
ORDER BY id DESC
LIMIT $6`

	deleteAuditBatch = `DELETE FROM audit_log WHERE id IN (
    SELECT id FROM audit_log WHERE at < $1 ORDER BY id LIMIT %d)`

	// SQLite has no session settings: the sweep's flag is a row that
	// exists only inside its transaction (see migration 0005).
	sqliteSweepOn  = `INSERT INTO audit_sweep (id) VALUES (1)`
	sqliteSweepOff = `DELETE FROM audit_sweep`
	// PostgreSQL: a setting local to the sweep's transaction.
	postgresSweepOn = `SELECT set_config('clarify.audit_sweep', 'on', true)`
)

// The times that stand for "unbounded" in a read of the audit log.
var (
	auditMinTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	auditMaxTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

// AppendAudit appends r to the audit log (At, when zero, is now; Params,
// when empty, is []). Params must be a JSON array.
func (s *sqlStore) AppendAudit(ctx context.Context, r AuditRecord) error {
	args, err := s.auditArgs(r)
	if err != nil {
		return fmt.Errorf("store: append audit: %w", err)
	}
	if _, err := s.exec(ctx, insertAudit, args...); err != nil {
		return fmt.Errorf("store: append audit: %w", err)
	}
	return nil
}

// auditArgs checks r and returns the arguments of insertAudit.
func (s *sqlStore) auditArgs(r AuditRecord) ([]any, error) {
	at := utc(r.At)
	if r.At.IsZero() {
		at = utc(s.now())
	}
	params := string(r.Params)
	if len(r.Params) == 0 {
		params = "[]"
	}
	var vals []any
	if err := json.Unmarshal([]byte(params), &vals); err != nil || vals == nil {
		return nil, fmt.Errorf("%w: params %.40q are not a JSON array", ErrAuditRecord, params)
	}
	if r.UserID == "" || r.Outcome == "" {
		return nil, fmt.Errorf("%w: a record needs a user and an outcome", ErrAuditRecord)
	}
	return []any{s.d.timeArg(at), r.UserID, r.Source, r.ConversationID, r.RequestID,
		r.Question, r.Scope, r.Statement, params, r.Rows, r.Outcome, r.ErrorCode}, nil
}

// Audit returns the audit records f selects, newest (highest ID) first.
func (s *sqlStore) Audit(ctx context.Context, f AuditFilter) ([]AuditRecord, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultAuditLimit
	}
	limit = min(limit, MaxAuditLimit)
	since, until := auditMinTime, auditMaxTime
	if !f.Since.IsZero() {
		since = f.Since
	}
	if !f.Until.IsZero() {
		until = f.Until
	}
	args := []any{f.User, f.Source, s.d.timeArg(utc(since)), s.d.timeArg(utc(until)), f.Before, limit}
	var out []AuditRecord
	err := s.readRows(ctx, selectAudit, args, func(rows *sql.Rows) error {
		var (
			r      AuditRecord
			params string
		)
		if err := rows.Scan(&r.ID, timeCol{&r.At}, &r.UserID, &r.Source, &r.ConversationID, &r.RequestID,
			&r.Question, &r.Scope, &r.Statement, &params, &r.Rows, &r.Outcome, &r.ErrorCode); err != nil {
			return err
		}
		r.Params = json.RawMessage(params)
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	return out, nil
}

// DeleteAuditBefore removes the audit records with At before before and
// returns how many: the audit log's retention sweep, and the only way a
// record leaves it. It works in batches of auditSweepBatch records, each in
// its own transaction, the only transactions in which the database lets
// records of audit_log be deleted (see migration 0005). On error, the
// batches already committed stay deleted and their count is returned.
func (s *sqlStore) DeleteAuditBefore(ctx context.Context, before time.Time) (int, error) {
	del := fmt.Sprintf(deleteAuditBatch, auditSweepBatch)
	total := 0
	for {
		n := 0
		err := s.inTx(ctx, func(tx txn) error {
			on := postgresSweepOn
			if s.d == &sqliteDialect {
				on = sqliteSweepOn
			}
			if _, err := tx.exec(on); err != nil {
				return fmt.Errorf("allow the sweep: %w", err)
			}
			res, err := tx.exec(del, s.d.timeArg(utc(before)))
			if err != nil {
				return err
			}
			m, err := res.RowsAffected()
			if err != nil {
				return err
			}
			n = int(m)
			if s.d == &sqliteDialect {
				if _, err := tx.exec(sqliteSweepOff); err != nil {
					return fmt.Errorf("end the sweep: %w", err)
				}
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("store: delete audit records before %s: %w", utc(before).Format(time.RFC3339), err)
		}
		total += n
		if n < auditSweepBatch {
			return total, nil
		}
	}
}
