package conversation

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/store"
)

// Limits of a page of ListConversations.
const (
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// Summary is one of a user's conversations as GET /v1/conversations lists it.
type Summary struct {
	ConversationID string `json:"conversation_id"`
	Source         string `json:"source"`
	Question       string `json:"question"`
	Status         string `json:"status"`
	// Statement is the last answer's statement; empty while the
	// conversation has no answer.
	Statement string    `json:"statement,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// List is a page of a user's conversations, newest first.
type List struct {
	Conversations []Summary `json:"conversations"`
	// Next continues the list (as ListConversations' before); empty on
	// the last page.
	Next string `json:"next,omitempty"`
}

// ListConversations lists a user's conversations, newest first: limit of
// them (DefaultListLimit when 0, at most MaxListLimit), starting after the
// cursor before — the Next of the previous page, "" for the first. Another
// user's conversations are never listed.
func (s *Service) ListConversations(ctx context.Context, user, before string, limit int) (*List, error) {
	switch {
	case limit == 0:
		limit = DefaultListLimit
	case limit < 0 || limit > MaxListLimit:
		return nil, apperr.Errorf(apperr.CodeBadRequest, "limit must be between 1 and %d", MaxListLimit)
	}
	after, ok := decodeCursor(before)
	if !ok {
		return nil, apperr.Errorf(apperr.CodeBadRequest, "before must be the next of a previous page")
	}
	// one more than the page shows whether another page follows
	rows, err := s.st.Conversations(ctx, user, after, limit+1)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeInternal, Message: "could not list the conversations", Err: err}
	}
	out := &List{Conversations: make([]Summary, 0, min(len(rows), limit))}
	now := s.opt.Clock()
	for i, c := range rows {
		if i == limit {
			out.Next = encodeCursor(store.CursorOf(rows[i-1]))
			break
		}
		status := c.Status
		if status == store.StatusAwaiting && now.After(c.ExpiresAt) {
			status = store.StatusAbandoned // as Get says, before the janitor marks it
		}
		out.Conversations = append(out.Conversations, Summary{ConversationID: c.ID, Source: c.Source,
			Question: c.Question, Status: status, Statement: c.Statement, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
	}
	return out, nil
}

// cursorEncoding keeps a cursor safe in a URL's query without escaping.
var cursorEncoding = base64.RawURLEncoding

// encodeCursor writes a place in a list as an opaque token: the creation
// time in microseconds and the id. Clients pass it back; they never build one.
func encodeCursor(c store.Cursor) string {
	return cursorEncoding.EncodeToString([]byte(strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + ":" + c.ID))
}

// decodeCursor reads what encodeCursor wrote; "" is the start of the list.
func decodeCursor(token string) (store.Cursor, bool) {
	if token == "" {
		return store.Cursor{}, true
	}
	if len(token) > 256 {
		return store.Cursor{}, false
	}
	b, err := cursorEncoding.DecodeString(token)
	if err != nil {
		return store.Cursor{}, false
	}
	micros, id, ok := strings.Cut(string(b), ":")
	n, err := strconv.ParseInt(micros, 10, 64)
	if !ok || err != nil || id == "" {
		return store.Cursor{}, false
	}
	return store.Cursor{CreatedAt: time.UnixMicro(n).UTC(), ID: id}, true
}
