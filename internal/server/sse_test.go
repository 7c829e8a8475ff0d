package server_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/store"
)

// flushCounter is a ResponseWriter that counts writes and flushes.
type flushCounter struct {
	*httptest.ResponseRecorder
	writes, flushes int
}

func (f *flushCounter) Write(b []byte) (int, error) {
	f.writes++
	return f.ResponseRecorder.Write(b)
}

func (f *flushCounter) Flush() { f.flushes++ }

// TestEventsSentTogether: the events a turn emits together (its outcome)
// go out in one write and one flush — one packet, not one per event —
// framed as each would be alone.
func TestEventsSentTogether(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		evs  []store.Event
		want string
	}{
		{"one", []store.Event{{Seq: 7, Type: "done", Data: []byte(`{"status":"answered"}`)}},
			"id: 7\nevent: done\ndata: {\"status\":\"answered\"}\n\n"},
		{"outcome", []store.Event{
			{Seq: 12, Type: "result", Data: []byte(`{"rows":[[1,"a"]]}`)},
			{Seq: 13, Type: "done", Data: []byte(`{"status":"answered"}`)},
		}, "id: 12\nevent: result\ndata: {\"rows\":[[1,\"a\"]]}\n\nid: 13\nevent: done\ndata: {\"status\":\"answered\"}\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
			var _ http.Flusher = w
			if err := server.SendEvents(w, tc.evs...); err != nil {
				t.Fatal(err)
			}
			if w.writes != 1 || w.flushes != 1 {
				t.Errorf("%d writes, %d flushes; want one of each", w.writes, w.flushes)
			}
			if got := w.Body.String(); got != tc.want {
				t.Errorf("sent %q, want %q", got, tc.want)
			}
		})
	}
}
