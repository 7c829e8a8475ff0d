package server

import (
	"encoding/json"
	"net/http"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
)

// statuses maps every error code to its HTTP status — the one place this
// mapping lives (docs/api.md, "Errors", lists the same pairs; a test keeps
// the three in step).
var statuses = map[apperr.Code]int{
	apperr.CodeBadRequest:           http.StatusBadRequest,
	apperr.CodeUnknownSource:        http.StatusBadRequest,
	apperr.CodeUnauthorized:         http.StatusUnauthorized,
	apperr.CodeForbidden:            http.StatusForbidden,
	apperr.CodeSourceForbidden:      http.StatusForbidden,
	apperr.CodeScopeForbidden:       http.StatusForbidden,
	apperr.CodeNotFound:             http.StatusNotFound,
	apperr.CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
	apperr.CodeHostNotAllowed:       http.StatusMisdirectedRequest,
	apperr.CodeSessionBusy:          http.StatusConflict,
	apperr.CodeStaleClarification:   http.StatusConflict,
	apperr.CodeClarificationExpired: http.StatusGone,
	apperr.CodeBodyTooLarge:         http.StatusRequestEntityTooLarge,
	apperr.CodeScopeRequired:        http.StatusUnprocessableEntity,
	apperr.CodeUnanswerable:         http.StatusUnprocessableEntity,
	apperr.CodeValidationFailed:     http.StatusUnprocessableEntity,
	apperr.CodeScopeViolation:       http.StatusUnprocessableEntity,
	apperr.CodeMessageLimit:         http.StatusTooManyRequests,
	apperr.CodeRateLimited:          http.StatusTooManyRequests,
	apperr.CodeInternal:             http.StatusInternalServerError,
	apperr.CodeDB:                   http.StatusBadGateway,
	apperr.CodeLLM:                  http.StatusBadGateway,
	apperr.CodeSourceUnavailable:    http.StatusServiceUnavailable,
	apperr.CodeTimeout:              http.StatusGatewayTimeout,
}

// statusOf returns the HTTP status of an error code: 500 for a code the
// table lacks (a bug the tests catch).
func statusOf(code apperr.Code) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errorJSON is the body of every error response.
type errorJSON struct {
	Error          conversation.ErrorBody `json:"error"`
	ConversationID string                 `json:"conversation_id,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, code apperr.Code, msg string) {
	if code == apperr.CodeSourceUnavailable {
		w.Header().Set("Retry-After", "30") // seconds: a database restarting
	}
	writeJSON(w, statusOf(code), errorJSON{Error: conversation.ErrorBody{Code: code, Message: msg}})
}

// internalMessage is all a client sees of an INTERNAL failure; the log
// has the rest, under the request id.
const internalMessage = "internal error"

// public returns what a client may see of err — the code and the safe
// message of the *apperr.Error in its chain — and whether err is a failure
// to log instead: one without a code, or INTERNAL, shows internalMessage
// only. The cause is never shown.
func public(err error) (code apperr.Code, msg string, internal bool) {
	code = apperr.CodeOf(err)
	if code == "" || code == apperr.CodeInternal {
		return apperr.CodeInternal, internalMessage, true
	}
	return code, apperr.MessageOf(err), false
}

// fail writes a service or engine error; unexpected errors are logged and
// shown without internals.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code, msg, internal := public(err)
	if internal {
		s.log(r).Error("request failed", "err", err)
	}
	writeError(w, code, msg)
}
