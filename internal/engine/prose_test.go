package engine_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/engine"
)

// TestProse: what of a streamed reply is shown as the model's words.
func TestProse(t *testing.T) {
	long := strings.Repeat("word ", 1000)
	for _, tc := range []struct {
		name   string
		deltas []string
		want   string
	}{
		{name: "words as they come", deltas: []string{"Let me ", "look at ", "the wounds."}, want: "Let me look at the wounds."},
		{name: "leading blanks dropped", deltas: []string{"\n  ", " Looking."}, want: "Looking."},
		{name: "a JSON reply is not words", deltas: []string{"  {", `"kind": "sql"}`}, want: ""},
		{name: "a JSON array is not words", deltas: []string{`["a"]`}, want: ""},
		{name: "nothing from a fence on", deltas: []string{"Here it is:\n```sql\nSELECT 1\n```\nDone."}, want: "Here it is:\n"},
		{name: "a fence split between deltas", deltas: []string{"Here:\n`", "`", "`sql\nSELECT 1"}, want: "Here:\n"},
		{name: "inline code stays", deltas: []string{"the `analyte` column"}, want: "the `analyte` column"},
		{name: "a backquote at the end stays", deltas: []string{"ends with `"}, want: "ends with `"},
		{name: "control characters dropped", deltas: []string{"a\x1b[2Jb\rc\u200bd\te\nf"}, want: "a[2Jbcd\te\nf"},
		{name: "a rune split between deltas", deltas: []string{"caf\xc3", "\xa9 ok"}, want: "café ok"},
		{name: "bounded", deltas: []string{long}, want: long[:4000-len("…")] + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks := engine.Prose(tc.deltas)
			for _, c := range chunks {
				if c == "" || !utf8.ValidString(c) {
					t.Errorf("chunk %q: empty or not UTF-8", c)
				}
			}
			if got := strings.Join(chunks, ""); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestProseChunks: a reply streamed a token at a time is shown in a few
// chunks at word boundaries, not an event per token.
func TestProseChunks(t *testing.T) {
	text := "I will look for the analytes that mean vitamin D, then count the results of this patient in the last year."
	chunks := engine.Prose(strings.SplitAfter(text, " "))
	if strings.Join(chunks, "") != text {
		t.Fatalf("chunks %q do not make the text", chunks)
	}
	if len(chunks) > len(text)/32+1 || len(chunks) < 2 {
		t.Errorf("%d chunks for %d bytes: %q", len(chunks), len(text), chunks)
	}
	for _, c := range chunks[:len(chunks)-1] {
		if !strings.HasSuffix(c, " ") {
			t.Errorf("chunk %q does not end at a word boundary", c)
		}
	}
}
