package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/store"
)

// SetStreamOpened sets a function run when an event stream has been
// registered, before it is used.
func SetStreamOpened(s *Server, f func()) { s.streamOpened = f }

// LimitedUsers reports how many users the rate limiter holds.
func LimitedUsers(s *Server) int { return s.limits.size() }

// StatusOf returns the HTTP status the server's table gives code, and
// whether the table has it.
func StatusOf(code apperr.Code) (int, bool) {
	s, ok := statuses[code]
	return s, ok
}

// Fail answers a request that failed with err, as every handler does,
// logging to log.
func Fail(log *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	(&Server{cfg: Config{Log: log}}).fail(w, r, err)
}

// SendEvents writes events to w as an event stream sends the events a
// turn emits together.
func SendEvents(w http.ResponseWriter, evs ...store.Event) error {
	sw := &streamWriter{s: &Server{cfg: Config{WriteTimeout: time.Second}}, w: w, rc: http.NewResponseController(w),
		ctx: context.Background(), cancel: func() {}}
	return sw.sendAll(evs...)
}
