package server_test

import (
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/understand"
)

// TestSourcesLimits: GET /v1/sources says how long a question may be, and
// the server takes a question of exactly that length and refuses one
// character more — so a page that stops at the advertised limit never
// sends what the server would refuse.
func TestSourcesLimits(t *testing.T) {
	h := start(t)
	var body struct {
		Limits struct {
			QuestionChars int `json:"question_chars"`
		} `json:"limits"`
	}
	if st := h.do("GET", "/v1/sources", "", nil, &body); st != 200 {
		t.Fatalf("GET /v1/sources: %d", st)
	}
	n := body.Limits.QuestionChars
	if n != understand.MaxQuestionLen {
		t.Fatalf("limits.question_chars = %d, want %d", n, understand.MaxQuestionLen)
	}
	// "é" is two bytes and one character: the limit counts characters
	long := "wounds " + strings.Repeat("é", n-len("wounds "))
	tests := []struct {
		name     string
		question string
		refused  bool
	}{
		{"at the limit", long, false},
		{"one character over", long + "é", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out struct {
				Error struct {
					Code string `json:"code"`
				} `json:"error"`
			}
			st := h.do("POST", "/v1/conversations", "", map[string]any{"question": tc.question, "interactive": false}, &out)
			if refused := out.Error.Code == "BAD_REQUEST"; refused != tc.refused {
				t.Errorf("%d characters: status %d, code %q; want refused=%v", len([]rune(tc.question)), st, out.Error.Code, tc.refused)
			}
		})
	}
}
