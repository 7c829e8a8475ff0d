package apperr

import (
	"errors"
	"fmt"
)

// Code is a stable error code: clients, the CLI's --json output, the query
// log and evaluation suites rely on its value, so a value never changes.
type Code string

// The codes, in the order docs/api.md lists them (by HTTP status).
const (
	// CodeBadRequest: the request is malformed — bad JSON, an unknown
	// field, a missing or invalid value, an empty question, an unknown
	// engine.
	CodeBadRequest Code = "BAD_REQUEST"
	// CodeUnknownSource: no source has that name.
	CodeUnknownSource Code = "UNKNOWN_SOURCE"
	// CodeUnauthorized: the server needs a key, or the key is wrong.
	CodeUnauthorized Code = "UNAUTHORIZED"
	// CodeForbidden: a cross-origin request that would change state.
	CodeForbidden Code = "FORBIDDEN"
	// CodeSourceForbidden: the user's rights do not include the source.
	CodeSourceForbidden Code = "SOURCE_FORBIDDEN"
	// CodeScopeForbidden: the user may not see that scope value (that
	// patient's or account's data), or any.
	CodeScopeForbidden Code = "SCOPE_FORBIDDEN"
	// CodeNotFound: no such conversation, assumption or preference for
	// this user.
	CodeNotFound Code = "NOT_FOUND"
	// CodeMethodNotAllowed: the path does not take that HTTP method.
	CodeMethodNotAllowed Code = "METHOD_NOT_ALLOWED"
	// CodeHostNotAllowed: the request's Host is not a name the server
	// answers under.
	CodeHostNotAllowed Code = "HOST_NOT_ALLOWED"
	// CodeSessionBusy: another request (or instance) is working on the
	// conversation; a retry may succeed.
	CodeSessionBusy Code = "SESSION_BUSY"
	// CodeStaleClarification: the answer is to a question that is no
	// longer pending.
	CodeStaleClarification Code = "STALE_CLARIFICATION"
	// CodeClarificationExpired: the question waited longer than its TTL.
	CodeClarificationExpired Code = "CLARIFICATION_EXPIRED"
	// CodeBodyTooLarge: the request body is over the server's limit.
	CodeBodyTooLarge Code = "BODY_TOO_LARGE"
	// CodeScopeRequired: the question must name which patient (or
	// account) it is about, and nobody can be asked; scope is never
	// guessed.
	CodeScopeRequired Code = "SCOPE_REQUIRED"
	// CodeUnanswerable: the question names nothing the model knows, or
	// cannot be put in SQL, or the language model's reply could not be
	// used.
	CodeUnanswerable Code = "UNANSWERABLE"
	// CodeValidationFailed: the guard refused the statement (not one
	// read-only SELECT over the model, or something it does not allow).
	CodeValidationFailed Code = "VALIDATION_FAILED"
	// CodeScopeViolation: the statement would read a scoped table outside
	// the conversation's scope.
	CodeScopeViolation Code = "SCOPE_VIOLATION"
	// CodeMessageLimit: the conversation reached its message limit.
	CodeMessageLimit Code = "MESSAGE_LIMIT"
	// CodeRateLimited: the user asks faster than the server allows, or has
	// too many turns running at once.
	CodeRateLimited Code = "RATE_LIMITED"
	// CodeInternal: a bug or a store failure. Its cause is logged, never
	// shown; the message, when there is one, says only what to do.
	CodeInternal Code = "INTERNAL"
	// CodeDB: the source database failed to run the statement.
	CodeDB Code = "DB_ERROR"
	// CodeLLM: the language model endpoint failed (unreachable, refused,
	// timed out, malformed replies).
	CodeLLM Code = "LLM_ERROR"
	// CodeSourceUnavailable: the source is configured but cannot be
	// opened now (its database is down or unreachable); a retry may
	// succeed.
	CodeSourceUnavailable Code = "SOURCE_UNAVAILABLE"
	// CodeTimeout: the statement ran past the source's timeout and was
	// stopped.
	CodeTimeout Code = "TIMEOUT"
)

// Codes returns every code, in the order of the constants, so tests can
// check that each one is documented and mapped.
func Codes() []Code {
	return []Code{
		CodeBadRequest, CodeUnknownSource, CodeUnauthorized, CodeForbidden,
		CodeSourceForbidden, CodeScopeForbidden, CodeNotFound, CodeMethodNotAllowed,
		CodeHostNotAllowed, CodeSessionBusy, CodeStaleClarification, CodeClarificationExpired,
		CodeBodyTooLarge, CodeScopeRequired, CodeUnanswerable, CodeValidationFailed,
		CodeScopeViolation, CodeMessageLimit, CodeRateLimited, CodeInternal,
		CodeDB, CodeLLM, CodeSourceUnavailable, CodeTimeout,
	}
}

// Error is a failure a user or client sees: Code says what kind, Message
// says it in words safe to show (no SQL internals, connection strings or
// stack traces), and Err is the cause, for the logs only.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// Error is the log line: the code, the message and the cause. It is not
// for users; show MessageOf instead.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return string(e.Code) + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with code and a formatted message and no cause.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the first *Error in err's chain, or "" when
// there is none (a failure nobody classified: treat it as CodeInternal).
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// MessageOf returns the safe message of the first *Error in err's chain,
// or "" when there is none: an unclassified error has nothing safe to show.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return ""
}
