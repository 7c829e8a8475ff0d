package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of the model's words shown as they arrive.
const (
	// maxProse is how many bytes of one turn's words are shown; the rest
	// is cut with an ellipsis (the answer never depends on them).
	maxProse = 4000
	// proseChunk is the least a chunk holds before it is sent at a word
	// boundary, so a reply streamed a token at a time is not a thousand
	// events.
	proseChunk = 32
)

// proseStream passes on the model's words as they stream, for the chat to
// show while the turn runs. Only prose is passed: a reply that
// opens with JSON is a structured reply, not words for a person, and
// nothing from a code fence on is shown (the statement in it is data until
// the guard has checked it, and the answer shows the statement that ran).
// Control characters other than newlines and tabs are dropped, so the
// words cannot move a terminal's cursor or hide text. It is not safe for
// concurrent use; one stream feeds it.
type proseStream struct {
	emit func(string)
	// state: 0 undecided (only spaces so far), 1 prose, 2 silent
	state int
	buf   strings.Builder
	// pending holds a trailing run of backquotes that may open a fence,
	// and the bytes of a rune split between deltas
	pending string
	sent    int
}

// newProseStream returns a stream that calls emit with each chunk of
// prose; emit is never called with an empty string.
func newProseStream(emit func(string)) *proseStream {
	return &proseStream{emit: emit}
}

// Write takes the next piece of the reply's content.
func (p *proseStream) Write(delta string) {
	if p.state == 2 || delta == "" {
		return
	}
	s := p.pending + delta
	p.pending = ""
	// keep a rune split between deltas for the next one
	if n := incompleteSuffix(s); n > 0 {
		p.pending, s = s[len(s)-n:], s[:len(s)-n]
	}
	if p.state == 0 {
		t := strings.TrimLeftFunc(s, unicode.IsSpace)
		if t == "" {
			return
		}
		if t[0] == '{' || t[0] == '[' {
			p.state = 2
			return
		}
		p.state = 1
		s = t
	}
	if i := strings.Index(s, "```"); i >= 0 {
		p.add(s[:i])
		p.flush()
		p.state = 2
		return
	}
	// a trailing backquote or two may be the start of a fence
	if n := len(s) - len(strings.TrimRight(s, "`")); n > 0 {
		p.pending = s[len(s)-n:] + p.pending
		s = s[:len(s)-n]
	}
	p.add(s)
	if p.buf.Len() >= proseChunk {
		p.flushWords()
	}
}

// Close sends what is left; the stream takes nothing after it.
func (p *proseStream) Close() {
	if p.state == 1 {
		if strings.Trim(p.pending, "`") == "" && len(p.pending) < 3 {
			p.add(p.pending)
		}
		p.pending = ""
		p.flush()
	}
	p.state = 2
}

// add appends s without control characters, up to the bound.
func (p *proseStream) add(s string) {
	for _, r := range s {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') || unicode.Is(unicode.Cf, r) {
			continue
		}
		if p.sent+p.buf.Len()+utf8.RuneLen(r) > maxProse-len("…") {
			p.buf.WriteString("…")
			p.flush()
			p.state = 2
			return
		}
		p.buf.WriteRune(r)
	}
}

// flushWords sends the buffer up to its last space, keeping a word that
// may go on in the next delta.
func (p *proseStream) flushWords() {
	s := p.buf.String()
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	p.buf.Reset()
	p.buf.WriteString(s[i+size:])
	p.send(s[:i+size])
}

// flush sends the whole buffer.
func (p *proseStream) flush() {
	s := p.buf.String()
	p.buf.Reset()
	p.send(s)
}

func (p *proseStream) send(s string) {
	if s == "" || p.state == 2 {
		return
	}
	p.sent += len(s)
	p.emit(s)
}

// incompleteSuffix returns how many bytes at the end of s are the start of
// a rune that is not complete yet.
func incompleteSuffix(s string) int {
	for n := 1; n <= 3 && n <= len(s); n++ {
		b := s[len(s)-n]
		if b < 0x80 {
			return 0 // ASCII: complete
		}
		if b >= 0xC0 { // a leading byte: complete only if its rune is
			if utf8.FullRuneInString(s[len(s)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}
