package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/clarify-sql/clarify/internal/conversation"
)

// FuzzDecodeBody: the decoder every handler reads its JSON body with
// takes any bytes without a panic. It accepts exactly one JSON value of
// the handler's type within the size limit, which reads back the same
// once encoded again; anything else is answered 400 BAD_REQUEST or 413
// BODY_TOO_LARGE with an error body, and nothing is written on success.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{
		`{"question":"how many patients","source":"clinic","interactive":false,"engine":"hybrid"}`,
		`{"answer":{"clarification_id":"c1","option_id":"o2","remember":true}}`,
		`{"text":"and last month?"}`,
		`{"option_id":"o1"}`,
		`{"value":true}`,
		``, `null`, `{}`, `[]`, `{} {}`, `{}}`, `{"question":1}`, `{"nope":1}`,
		`{"question":"\ud800"}`, "\xef\xbb\xbf{}", `{"question":"` + string(bytes.Repeat([]byte("a"), 300)) + `"}`,
	} {
		for kind := range uint8(4) {
			f.Add(kind, []byte(s))
		}
	}
	const limit = 256
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		var v, again any
		switch kind % 4 {
		case 0:
			v, again = new(conversation.Ask), new(conversation.Ask)
		case 1:
			v, again = new(conversation.Message), new(conversation.Message)
		case 2:
			v, again = new(struct {
				OptionID string `json:"option_id"`
			}), new(struct {
				OptionID string `json:"option_id"`
			})
		default:
			v, again = new(struct {
				Value *bool `json:"value"`
			}), new(struct {
				Value *bool `json:"value"`
			})
		}
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/v1/ask", bytes.NewReader(body))
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		if decode(w, r, v) {
			if w.Body.Len() != 0 {
				t.Fatalf("decode accepted the body and wrote %q", w.Body)
			}
			if len(body) > limit {
				t.Fatalf("accepted %d bytes over a limit of %d", len(body), limit)
			}
			if !json.Valid(body) {
				t.Fatalf("accepted a body that is not JSON: %q", body)
			}
			enc, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			w2 := httptest.NewRecorder()
			if !decode(w2, httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(enc)), again) {
				t.Fatalf("its own encoding %s is refused: %s", enc, w2.Body)
			}
			if !reflect.DeepEqual(v, again) {
				t.Fatalf("decoded %+v, again %+v", v, again)
			}
			return
		}
		var e errorJSON
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
			t.Fatalf("error body %q is not JSON: %v", w.Body, err)
		}
		// the codes as clients read them (docs/api.md, "Errors")
		switch code := string(e.Error.Code); {
		case w.Code == http.StatusBadRequest && code == "BAD_REQUEST":
		case w.Code == http.StatusRequestEntityTooLarge && code == "BODY_TOO_LARGE":
			if len(body) <= limit {
				t.Fatalf("%d bytes under a limit of %d called too large", len(body), limit)
			}
		default:
			t.Fatalf("refused with %d %s, want 400 BAD_REQUEST or 413 BODY_TOO_LARGE", w.Code, e.Error.Code)
		}
		if e.Error.Message == "" {
			t.Fatal("an error without a message")
		}
	})
}
