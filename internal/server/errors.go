package server

import (
	"encoding/json"
	"net/http"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/engine"
)

// Codes only the server produces.
const (
	codeUnauthorized = "UNAUTHORIZED"
	codeTooLarge     = "BODY_TOO_LARGE"
	codeNotFound     = conversation.CodeNotFound
	codeMethod       = "METHOD_NOT_ALLOWED"
	codeForbidden    = "FORBIDDEN"
	// codeHostNotAllowed: the request's Host is not an allowed name.
	codeHostNotAllowed = "HOST_NOT_ALLOWED"
	// codeRateLimited: the user is over the question rate or the
	// concurrent-turn cap (Config.RateLimit).
	codeRateLimited = "RATE_LIMITED"
)

// statusOf maps an error code to its HTTP status — the one place this
// mapping lives.
func statusOf(code string) int {
	switch code {
	case conversation.CodeBadRequest, conversation.CodeUnknownSource:
		return http.StatusBadRequest
	case codeUnauthorized:
		return http.StatusUnauthorized
	case codeForbidden, engine.CodeScopeForbidden, conversation.CodeSourceForbidden:
		return http.StatusForbidden
	case conversation.CodeNotFound:
		return http.StatusNotFound
	case codeMethod:
		return http.StatusMethodNotAllowed
	case codeHostNotAllowed:
		return http.StatusMisdirectedRequest
	case conversation.CodeBusy, conversation.CodeStale:
		return http.StatusConflict
	case conversation.CodeExpired:
		return http.StatusGone
	case codeTooLarge:
		return http.StatusRequestEntityTooLarge
	case engine.CodeScopeRequired, engine.CodeUnanswerable, engine.CodeValidation, engine.CodeScopeViolation:
		return http.StatusUnprocessableEntity
	case conversation.CodeLimit, codeRateLimited:
		return http.StatusTooManyRequests
	case engine.CodeDB, "LLM_ERROR":
		return http.StatusBadGateway
	case engine.CodeTimeout:
		return http.StatusGatewayTimeout
	case conversation.CodeSourceUnavailable:
		return http.StatusServiceUnavailable
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

func writeError(w http.ResponseWriter, code, msg string) {
	if code == conversation.CodeSourceUnavailable {
		w.Header().Set("Retry-After", "30") // seconds: a database restarting
	}
	writeJSON(w, statusOf(code), errorJSON{Error: conversation.ErrorBody{Code: code, Message: msg}})
}

// fail writes a service or engine error; unexpected errors are logged and
// shown without internals.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := conversation.Code(err)
	msg := "internal error"
	switch e := err.(type) {
	case *conversation.Error:
		msg = e.Message
	case *engine.Error:
		msg = e.Message
	}
	if code == "" || code == conversation.CodeInternal {
		code = conversation.CodeInternal
		msg = "internal error"
		s.log(r).Error("request failed", "err", err)
	}
	writeError(w, code, msg)
}
