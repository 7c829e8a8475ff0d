package server

import (
	"net/http"
	"strconv"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
)

// list answers GET /v1/conversations: the caller's conversations, newest
// first, a page at a time (?limit=N&before=NEXT).
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeError(w, apperr.CodeBadRequest, "limit must be a whole number from 1 to "+strconv.Itoa(conversation.MaxListLimit))
			return
		}
		limit = n
	}
	l, err := s.svc.ListConversations(r.Context(), userOf(r), q.Get("before"), limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, l)
}

// methodNotAllowed answers a method a route does not take.
func methodNotAllowed(allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, apperr.CodeMethodNotAllowed, r.Method+" is not allowed here; use "+allow)
	})
}
