package store

import (
	"context"
	"database/sql"
	"fmt"
)

// A user's conversations, newest first, a page at a time: the first page,
// and the page after a cursor ($2, $3), which the row comparison reads from
// the index on (user_id, created_at, id) in both dialects.
const (
	listConversations = `SELECT id, source, question, status, statement, created_at, updated_at, expires_at
FROM conversations WHERE user_id = $1
ORDER BY created_at DESC, id DESC
LIMIT $2`
	listConversationsAfter = `SELECT id, source, question, status, statement, created_at, updated_at, expires_at
FROM conversations WHERE user_id = $1 AND (created_at, id) < ($2, $3)
ORDER BY created_at DESC, id DESC
LIMIT $4`
)

// Conversations lists a user's conversations, newest first: at most limit
// (a limit below 1 lists none), after the cursor when it is not zero.
// Ties in CreatedAt are ordered by ID, so pages never skip or repeat a
// conversation, whatever is created or updated between two reads.
func (s *sqlStore) Conversations(ctx context.Context, userID string, after Cursor, limit int) ([]Summary, error) {
	if limit < 1 {
		return nil, nil
	}
	q, args := listConversations, []any{userID, limit}
	if !after.IsZero() {
		q, args = listConversationsAfter, []any{userID, s.d.timeArg(utc(after.CreatedAt)), after.ID, limit}
	}
	var out []Summary
	err := s.readRows(ctx, q, args, func(rows *sql.Rows) error {
		var c Summary
		if err := rows.Scan(&c.ID, &c.Source, &c.Question, &c.Status, &c.Statement,
			timeCol{&c.CreatedAt}, timeCol{&c.UpdatedAt}, timeCol{&c.ExpiresAt}); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: conversations of %q: %w", userID, err)
	}
	return out, nil
}
