package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/store"
)

// requestIDKey carries the id of the API request that runs a turn.
type requestIDKey struct{}

// WithRequestID returns ctx carrying the id of the request a turn runs
// for, which the turn's audit record keeps.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// auditTurn appends the audit record of a turn that ends without an
// outcome to save (its rights were refused) and returns the error it ends
// with (see auditRecord). A turn its caller cancelled is not recorded.
func (s *Service) auditTurn(ctx context.Context, c *store.Conversation, st *state, out *engine.Outcome, err error, at time.Time) error {
	if err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return err
	}
	r, err := s.auditRecord(ctx, c, st, out, err, at)
	if r == nil {
		return err
	}
	// written even when the client has gone
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	aerr := s.st.AppendAudit(actx, *r)
	if aerr == nil {
		return err
	}
	s.opt.Log.Warn("append audit record", "conversation", c.ID, "outcome", r.Outcome, "err", aerr)
	if r.Outcome == store.AuditAnswered {
		return errUnaudited(aerr)
	}
	return err
}

// auditRecord returns the audit record of a turn's outcome (out, or err),
// which is saved with the outcome, before any of it is shown, and the
// error the turn ends with: err, or, when an answer's bound values cannot
// be encoded, an INTERNAL error in its place and no record, so that no
// rows are shown that the audit log does not record. A turn its caller
// cancelled has no outcome: it is recorded when it runs again.
//
// The statement recorded is the one the database was given: the guard's
// copy, with the scope value written into every scoped table, and its
// bound values.
func (s *Service) auditRecord(ctx context.Context, c *store.Conversation, st *state, out *engine.Outcome, err error, at time.Time) (*store.AuditRecord, error) {
	r := &store.AuditRecord{At: at, UserID: c.UserID, Source: c.Source, ConversationID: c.ID,
		RequestID: requestID(ctx), Question: c.Question}
	// the scope value the user chose, should the turn fail before its
	// statement is known (a refused scope is worth recording too)
	if res, ok := st.Resolved["scope"]; ok {
		r.Scope = res.OptionID
	}
	switch {
	case err != nil:
		code := apperr.CodeOf(err)
		if code == "" {
			code = apperr.CodeInternal
		}
		r.Outcome, r.ErrorCode = store.AuditFailed, string(code)
	case out.Status == engine.StatusNeedsQuestion:
		r.Outcome = store.AuditAsked
	default:
		r.Outcome = store.AuditAnswered
	}
	if out != nil && out.Interpretation != nil && out.Interpretation.Query != nil {
		if sc := out.Interpretation.Query.Scope; sc != nil {
			r.Scope = sc.Key
		}
	}
	if err == nil && out.Answer != nil {
		a := out.Answer
		stmt, args := a.SQL, a.Params
		if a.Ran.SQL != "" {
			stmt, args = a.Ran.SQL, a.Ran.Args // what the database was given
		}
		if args == nil {
			args = []any{} // a statement without parameters binds none, not null
		}
		params, merr := json.Marshal(args)
		if merr != nil {
			s.opt.Log.Warn("encode the bound values of an audit record", "conversation", c.ID, "err", merr)
			return nil, errUnaudited(merr)
		}
		r.Statement, r.Params, r.Rows = stmt, params, a.RowCount
	}
	return r, err
}

// sweepAudit deletes the audit records older than Options.AuditKeep: the
// audit log's own retention, apart from the conversations'.
func (s *Service) sweepAudit(ctx context.Context) {
	before := s.opt.Clock().Add(-s.opt.AuditKeep)
	n, err := s.st.DeleteAuditBefore(ctx, before)
	if n > 0 {
		s.opt.Log.Info("deleted old audit records", "count", n, "before", before.UTC())
	}
	if err != nil && ctx.Err() == nil {
		s.opt.Log.Warn("delete old audit records", "err", err)
	}
}

// errUnaudited is the failure of a turn whose answer the audit log could
// not record: an engine error, whose Message (and never err) the turn shows.
func errUnaudited(err error) error {
	return &apperr.Error{Code: apperr.CodeInternal, Message: "this answer could not be recorded in the audit log, so it is not shown; try again", Err: err}
}

// AuditQuery selects audit records for Audit.
type AuditQuery struct {
	// User and Source keep one user's or source's records ("" for all).
	User   string
	Source string
	// Since (inclusive) and Until (exclusive) bound the records' times;
	// zero means unbounded.
	Since time.Time
	Until time.Time
	// Limit bounds the records of a page (default 100, at most 1000).
	Limit int
	// Cursor is the Next of the previous page ("" for the newest records).
	Cursor string
}

// AuditPage is a page of the audit log, newest first.
type AuditPage struct {
	Records []store.AuditRecord `json:"records"`
	// Next continues the list after the last record ("" when there may be
	// no more: the page was not full).
	Next string `json:"next,omitempty"`
}

// Audit reads the audit log, newest first, a page at a time. Who may read
// it is the caller's to decide (the API allows admins only).
func (s *Service) Audit(ctx context.Context, q AuditQuery) (*AuditPage, error) {
	f := store.AuditFilter{User: q.User, Source: q.Source, Since: q.Since, Until: q.Until, Limit: q.Limit}
	if q.Limit < 0 || q.Limit > store.MaxAuditLimit {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "limit must be a whole number from 1 to %d", store.MaxAuditLimit)
	}
	if f.Limit == 0 {
		f.Limit = store.DefaultAuditLimit
	}
	if q.Cursor != "" {
		id, err := strconv.ParseInt(q.Cursor, 10, 64)
		if err != nil || id <= 0 {
			return nil, apperr.Errorf(apperr.CodeBadRequest, "cursor must be the next of a previous page")
		}
		f.Before = id
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && !q.Since.Before(q.Until) {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "since must be before until")
	}
	rs, err := s.st.Audit(ctx, f)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not read the audit log", Err: err}
	}
	p := &AuditPage{Records: rs}
	if p.Records == nil {
		p.Records = []store.AuditRecord{}
	}
	if len(rs) == f.Limit {
		p.Next = strconv.FormatInt(rs[len(rs)-1].ID, 10)
	}
	return p, nil
}
