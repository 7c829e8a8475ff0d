package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
)

// audit answers GET /v1/audit: the audit log, newest first, a page at a
// time (?user=&source=&since=&until=&limit=&cursor=), for admins only.
// As for /v1/stats, an admin is a user whose key says admin: true, or,
// without keys, the one local user (the server then answers loopback only).
func (s *Server) audit(w http.ResponseWriter, r *http.Request) {
	if !s.isAdmin(r) {
		s.log(r).Warn("audit log refused", "user", userOf(r))
		writeError(w, apperr.CodeForbidden, "the audit log is for administrators (a key with admin: true)")
		return
	}
	v := r.URL.Query()
	q := conversation.AuditQuery{User: v.Get("user"), Source: v.Get("source"), Cursor: v.Get("cursor")}
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if s := v.Get(p.name); s != "" {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				writeError(w, apperr.CodeBadRequest, p.name+" must be an RFC 3339 time")
				return
			}
			*p.t = t
		}
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			writeError(w, apperr.CodeBadRequest, "limit must be a whole number from 1 to 1000")
			return
		}
		q.Limit = n
	}
	page, err := s.svc.Audit(r.Context(), q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// withAuditRequestID hands the request's id to the turn it may run, for the
// turn's audit record.
func withAuditRequestID(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := r.Context().Value(requestIDKey).(string)
		next(w, r.WithContext(conversation.WithRequestID(r.Context(), id)))
	}
}
