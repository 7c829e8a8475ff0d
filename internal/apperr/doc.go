// Package apperr is the one kind of error Clarify's users and clients see:
// a stable code (UNANSWERABLE, SCOPE_REQUIRED…) and a message safe to show,
// beside the wrapped cause that only the logs record.
//
// The package that detects a failure returns an *Error with one of the
// codes below; every layer above it (engine, conversation, server, cli,
// the web page) reads the code and the message through CodeOf and
// MessageOf, which look through wrapping with errors.As. The server maps
// each code to an HTTP status and the cli to an exit code, each in one
// place; docs/api.md lists the codes for clients. It imports no package of
// this module, so every layer can use it.
package apperr
