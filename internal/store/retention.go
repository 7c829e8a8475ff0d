package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// retentionBatch is how many conversations one transaction of
// DeleteOlderThan removes: small enough that no lock is held long (and the
// ids stay far under both databases' limits on bound parameters).
const retentionBatch = 200

// oldConversations deletes a batch of conversations updated before $1 that
// no turn holds: not active, and without an unexpired lease (leaseNow is
// the time leases are compared with). The outer WHERE repeats the
// condition so that PostgreSQL, which re-checks it on a row updated
// concurrently, leaves a conversation alone that was touched meanwhile.
const oldConversations = `DELETE FROM conversations
WHERE updated_at < $1 AND status <> 'active' AND id IN (
    SELECT c.id FROM conversations c
    WHERE c.updated_at < $1 AND c.status <> 'active'
      AND NOT EXISTS (SELECT 1 FROM locks l WHERE l.conversation_id = c.id AND l.expires_at > %s)
    ORDER BY c.updated_at
    LIMIT %d)
RETURNING id`

// deleteOld returns the dialect's oldConversations: PostgreSQL compares
// leases with its own clock (as Lock does), SQLite with $2.
func (d *dialect) deleteOld() string {
	now := "$2"
	if d.serverClock {
		now = "clock_timestamp()"
	}
	return fmt.Sprintf(oldConversations, now, retentionBatch)
}

// DeleteOlderThan removes the conversations last updated before before,
// with their events, leases and query log rows, and returns how many
// conversations it removed. A conversation that is active (a turn is
// running) or whose lease has not expired is kept, however old. It works in
// batches of retentionBatch conversations, each in its own transaction, so
// that a large backlog never holds the store's locks long; a batch removes
// a conversation and everything of it together. On error, the batches
// already committed stay deleted and their count is returned.
func (s *sqlStore) DeleteOlderThan(ctx context.Context, before time.Time) (int, error) {
	q := s.d.deleteOld()
	total := 0
	for {
		args := []any{s.d.timeArg(utc(before))}
		if !s.d.serverClock {
			args = append(args, s.d.timeArg(utc(s.now())))
		}
		n := 0
		err := s.inTx(ctx, func(tx txn) error {
			ids, err := tx.queryStrings(q, args...)
			if err != nil {
				return err
			}
			n = len(ids)
			if n == 0 {
				return nil
			}
			in, idArgs := inList(ids)
			for _, table := range []string{"events", "locks", "query_log"} {
				if _, err := tx.exec(`DELETE FROM `+table+` WHERE conversation_id IN (`+in+`)`, idArgs...); err != nil {
					return fmt.Errorf("%s: %w", table, err)
				}
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("store: delete conversations older than %s: %w", utc(before).Format(time.RFC3339), err)
		}
		total += n
		if n < retentionBatch {
			return total, nil
		}
	}
}

// inList returns "$1, $2, …" for the ids and the ids as arguments.
func inList(ids []string) (string, []any) {
	var b strings.Builder
	args := make([]any, len(ids))
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", i+1)
		args[i] = id
	}
	return b.String(), args
}

// queryStrings runs a query in the transaction and returns its one text column.
func (t txn) queryStrings(q string, args ...any) ([]string, error) {
	var (
		rows *sql.Rows
		err  error
	)
	if st := t.stmt(q); st != nil {
		rows, err = st.QueryContext(t.ctx, args...)
	} else {
		rows, err = t.tx.QueryContext(t.ctx, q, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
