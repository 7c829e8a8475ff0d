package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/understand"
)

// decode reads a JSON body strictly: unknown fields, trailing data and
// oversize bodies are errors with a code.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data after the JSON object")
	}
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			err = errors.New("trailing data after the JSON object")
		}
	}
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooBig):
		writeError(w, apperr.CodeBodyTooLarge, "the request body is too large")
	case errors.Is(err, io.EOF):
		writeError(w, apperr.CodeBadRequest, "the request body is empty")
	default:
		writeError(w, apperr.CodeBadRequest, "malformed JSON: "+cleanJSONError(err))
	}
	return false
}

func cleanJSONError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "json: "); i >= 0 {
		msg = msg[i+len("json: "):]
	}
	return msg
}

func wantsStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// respond writes a turn's result: 200 answered, 202 clarification, or the
// error status of a failed turn (with the conversation id).
func (s *Server) respond(w http.ResponseWriter, r *http.Request, res *conversation.Result, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.turn(res.Status)
	switch res.Status {
	case "answered":
		writeJSON(w, http.StatusOK, res)
	case "needs_clarification":
		writeJSON(w, http.StatusAccepted, res)
	default:
		body := errorJSON{ConversationID: res.ConversationID}
		if res.Error != nil {
			body.Error = *res.Error
		}
		writeJSON(w, statusOf(body.Error.Code), body)
	}
}

func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	var a conversation.Ask
	if !decode(w, r, &a) {
		return
	}
	if a.Source == "" {
		a.Source = s.defaultSource(r) // the first the user may use
	}
	if wantsStream(r) {
		s.stream(w, r, func(ctx context.Context, emit conversation.Emit) (*conversation.Result, error) {
			return s.svc.Ask(ctx, userOf(r), a, emit)
		})
		return
	}
	res, err := s.svc.Ask(r.Context(), userOf(r), a, nil)
	s.respond(w, r, res, err)
}

func (s *Server) send(w http.ResponseWriter, r *http.Request) {
	var m conversation.Message
	if !decode(w, r, &m) {
		return
	}
	id := r.PathValue("id")
	if wantsStream(r) {
		s.stream(w, r, func(ctx context.Context, emit conversation.Emit) (*conversation.Result, error) {
			return s.svc.Send(ctx, userOf(r), id, m, emit)
		})
		return
	}
	res, err := s.svc.Send(r.Context(), userOf(r), id, m, nil)
	s.respond(w, r, res, err)
}

func (s *Server) change(w http.ResponseWriter, r *http.Request) {
	var body struct {
		OptionID string `json:"option_id"`
	}
	if !decode(w, r, &body) {
		return
	}
	id, slot := r.PathValue("id"), r.PathValue("slot")
	if wantsStream(r) {
		s.stream(w, r, func(ctx context.Context, emit conversation.Emit) (*conversation.Result, error) {
			return s.svc.ChangeAssumption(ctx, userOf(r), id, slot, body.OptionID, emit)
		})
		return
	}
	res, err := s.svc.ChangeAssumption(r.Context(), userOf(r), id, slot, body.OptionID, nil)
	s.respond(w, r, res, err)
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.Get(r.Context(), userOf(r), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Delete(r.Context(), userOf(r), r.PathValue("id")); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// events streams a conversation's event log from Last-Event-ID (or the
// after query parameter), then follows it until the client leaves.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	after := int64(0)
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("after")} {
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeError(w, apperr.CodeBadRequest, "Last-Event-ID must be a non-negative event id")
			return
		}
		after = n
		break
	}
	id := r.PathValue("id")
	// checked before the stream opens, so that an unknown conversation is
	// a 404; the check reads the conversation's row without decoding its
	// state
	watch, err := s.svc.Watch(r.Context(), userOf(r), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	sw, ok := s.openStream(w, r)
	if !ok {
		return
	}
	defer sw.close()
	err = watch.Run(sw.ctx, after, sw.send)
	if err != nil && !errors.Is(err, errShutdown) && sw.ctx.Err() == nil {
		s.log(r).Warn("event stream ended", "err", err)
	}
}

func (s *Server) listSources(w http.ResponseWriter, r *http.Request) {
	type src struct {
		Name        string `json:"name"`
		Dialect     string `json:"dialect,omitempty"`
		Description string `json:"description,omitempty"`
		Default     bool   `json:"default"`
		Error       string `json:"error,omitempty"`
		// Engine answers when a request names none; Engines may be
		// chosen per request (rules always, llm and hybrid with a model)
		Engine  string   `json:"engine,omitempty"`
		Engines []string `json:"engines,omitempty"`
	}
	out := []src{}
	def := s.defaultSource(r)
	for _, n := range s.cfg.Access.Sources(whoOf(r), s.sources.Names()) {
		x := src{Name: n, Default: n == def}
		if info, err := s.sources.Info(r.Context(), n); err != nil {
			x.Error = "unavailable"
			s.log(r).Warn("source unavailable", "source", n, "err", err)
		} else {
			x.Dialect, x.Description = info.Dialect, info.Description
			x.Engine, x.Engines = info.Engine, info.Engines
			if x.Engine == "" {
				x.Engine = engine.EngineRules
			}
			if len(x.Engines) == 0 {
				x.Engines = []string{engine.EngineRules}
			}
		}
		out = append(out, x)
	}
	// limits tell a client what the server accepts, so that a page can
	// stop at the same length instead of guessing
	limits := map[string]int{"question_chars": understand.MaxQuestionLen}
	writeJSON(w, http.StatusOK, map[string]any{"sources": out, "limits": limits})
}

func (s *Server) preferences(w http.ResponseWriter, r *http.Request) {
	ps, err := s.svc.Preferences(r.Context(), userOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	never, err := s.svc.NeverAsk(r.Context(), userOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"preferences": ps, "never_ask": never})
}

func (s *Server) forget(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Forget(r.Context(), userOf(r), r.PathValue("key")); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) neverAsk(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Value *bool `json:"value"`
	}
	if !decode(w, r, &body) {
		return
	}
	if body.Value == nil {
		writeError(w, apperr.CodeBadRequest, "value (true or false) is required")
		return
	}
	if err := s.svc.SetNeverAsk(r.Context(), userOf(r), *body.Value); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"never_ask": *body.Value})
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	since := time.Now().Add(-24 * time.Hour)
	if v := r.URL.Query().Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			writeError(w, apperr.CodeBadRequest, "since must be an RFC 3339 time")
			return
		}
		since = t
	}
	// with keys, a user sees their own figures and an admin everyone's;
	// without keys there is one (local) user
	user, scope := userOf(r), "user"
	if s.isAdmin(r) {
		user, scope = "", "all"
	}
	st, err := s.svc.StatsSince(r.Context(), since, user)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"since": since.UTC(), "scope": scope, "stats": st})
}

// appendFrame appends an event's server-sent frame to b (its data is
// already JSON from the store).
func appendFrame(b []byte, ev store.Event) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, ev.Seq, 10)
	b = append(b, "\nevent: "...)
	b = append(b, ev.Type...)
	b = append(b, "\ndata: "...)
	// event data is JSON, which never contains a raw newline: no value can
	// forge an event
	b = append(b, ev.Data...)
	return append(b, "\n\n"...)
}

// frameSize is the length of an event's frame.
func frameSize(ev store.Event) int {
	return len("id: \nevent: \ndata: \n\n") + 20 + len(ev.Type) + len(ev.Data)
}

// defaultSource is the configured default when the user may use it, else
// the first source they may use ("" when none).
func (s *Server) defaultSource(r *http.Request) string {
	who := whoOf(r)
	if d := s.sources.Default(); s.cfg.Access.MaySee(who, d) {
		return d
	}
	if names := s.cfg.Access.Sources(who, s.sources.Names()); len(names) > 0 {
		return names[0]
	}
	return s.sources.Default() // refused with SOURCE_FORBIDDEN when asked
}
