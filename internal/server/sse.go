package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// streamWriter writes server-sent events: each write synchronously under a
// mutex with its own deadline, heartbeats from a timer, and a final event
// when the server shuts down. It owns no goroutine, so an open stream
// costs little more than its connection.
type streamWriter struct {
	s      *Server
	w      http.ResponseWriter
	rc     *http.ResponseController
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	beat   *time.Timer
}

// openStream starts an event stream.
func (s *Server) openStream(w http.ResponseWriter, r *http.Request) (*streamWriter, bool) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return nil, false
	}
	ctx, cancel := context.WithCancel(r.Context())
	sw := &streamWriter{s: s, w: w, rc: rc, ctx: ctx, cancel: cancel}
	sw.beat = time.AfterFunc(s.cfg.Heartbeat, sw.heartbeat)
	s.streamsMu.Lock()
	if s.shuttingDown {
		s.streamsMu.Unlock()
		sw.shutdown()
		return sw, true
	}
	// added under the lock that Shutdown sets shuttingDown under: a
	// stream Shutdown sees registered is one it waits for
	s.open[sw] = struct{}{}
	s.streamsMu.Unlock()
	s.metrics.streams.Inc()
	if s.streamOpened != nil {
		s.streamOpened()
	}
	return sw, true
}

// write sends bytes under the lock; a failed write ends the stream.
func (sw *streamWriter) write(b []byte) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.closed {
		return errShutdown
	}
	_ = sw.rc.SetWriteDeadline(time.Now().Add(sw.s.cfg.WriteTimeout))
	_, err := sw.w.Write(b)
	if err == nil {
		err = sw.rc.Flush()
	}
	if err != nil {
		sw.closed = true
		sw.cancel()
	}
	return err
}

func (sw *streamWriter) heartbeat() {
	if sw.write([]byte(": ping\n\n")) == nil {
		sw.mu.Lock()
		if !sw.closed {
			sw.beat.Reset(sw.s.cfg.Heartbeat)
		}
		sw.mu.Unlock()
	}
}

// send writes one event.
func (sw *streamWriter) send(ev store.Event) error {
	return sw.sendAll(ev)
}

// sendAll writes events in one write and one flush: the events a turn
// publishes together reach the client in one packet, not one each.
func (sw *streamWriter) sendAll(evs ...store.Event) error {
	if err := sw.ctx.Err(); err != nil {
		return err
	}
	if len(evs) == 0 {
		return nil
	}
	n := 0
	for _, ev := range evs {
		n += frameSize(ev)
	}
	b := make([]byte, 0, n)
	for _, ev := range evs {
		b = appendFrame(b, ev)
	}
	return sw.write(b)
}

// shutdown ends the stream with a final event.
func (sw *streamWriter) shutdown() {
	_ = sw.write([]byte("event: shutdown\ndata: {\"reason\":\"server shutting down\"}\n\n"))
	sw.mu.Lock()
	sw.closed = true
	sw.mu.Unlock()
	sw.cancel()
}

func (sw *streamWriter) close() {
	sw.beat.Stop()
	sw.mu.Lock()
	sw.closed = true
	sw.mu.Unlock()
	sw.cancel()
	sw.s.streamsMu.Lock()
	_, registered := sw.s.open[sw]
	delete(sw.s.open, sw)
	if registered && sw.s.shuttingDown {
		sw.s.drainedIfEmpty()
	}
	sw.s.streamsMu.Unlock()
	if registered {
		sw.s.metrics.streams.Dec()
	}
}

// stream runs a turn and streams its events; the last two are the
// outcome (clarification, result or error) and done. A client that
// disconnects cancels the turn and its database query; what the user sent
// is already saved, and the turn is run again when a client follows the
// conversation (GET …/events with Last-Event-ID), so nothing is lost.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, run func(context.Context, conversation.Emit) (*conversation.Result, error)) {
	sw, ok := s.openStream(w, r)
	if !ok {
		return
	}
	defer sw.close()
	// the request's context, not the stream's: a shutdown ends the stream
	// with a final event but lets the turn finish and be stored
	res, err := run(r.Context(), func(evs ...store.Event) { _ = sw.sendAll(evs...) })
	if err != nil {
		// a request-level error (busy, limit, not found…): one error event, then done
		code, msg, internal := public(err)
		if internal {
			s.log(r).Error("stream failed", "err", err)
		}
		_ = sw.sendAll(store.Event{Type: "error", Data: mustJSON(conversation.ErrorBody{Code: code, Message: msg})},
			store.Event{Type: "done", Data: mustJSON(map[string]string{"status": "failed"})})
		return
	}
	s.metrics.turn(res.Status)
}
