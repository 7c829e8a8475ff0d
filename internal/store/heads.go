package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// notifyChannel is the PostgreSQL channel on which the writes of events
// to the tables of a schema are announced, with the conversation's id as
// payload.
func notifyChannel(schema string) string {
	// a channel name is at most 63 bytes; a longer schema shares the
	// channel of its prefix (a follower wakes for an id it does not follow
	// only to ignore it)
	return ("clarify_events:" + schema)[:min(63, len("clarify_events:")+len(schema))]
}

// closeTimeout bounds the closing of Listen's connection.
const closeTimeout = 5 * time.Second

// maxHeadsPerRead bounds the ids of one Heads read.
const maxHeadsPerRead = 1000

// Heads reads the newest event seq and the status of the conversations
// of ids that exist, in one read per maxHeadsPerRead ids.
func (s *sqlStore) Heads(ctx context.Context, ids []string) (map[string]Head, error) {
	heads := make(map[string]Head, len(ids))
	for len(ids) > 0 {
		batch := ids[:min(len(ids), maxHeadsPerRead)]
		ids = ids[len(batch):]
		arg, err := json.Marshal(batch)
		if err != nil {
			return nil, fmt.Errorf("store: heads: %w", err)
		}
		err = s.readRows(ctx, s.d.headsSQL, []any{string(arg)}, func(rows *sql.Rows) error {
			var (
				id string
				h  Head
			)
			if err := rows.Scan(&id, &h.LastSeq, &h.Status); err != nil {
				return err
			}
			heads[id] = h
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("store: heads: %w", err)
		}
	}
	return heads, nil
}

// pgNotifier is a PostgreSQL store, which announces new events.
type pgNotifier struct {
	*sqlStore
	// listen is the configuration of the connection Listen opens: its
	// own, outside the pool, held for as long as it listens.
	listen *pgx.ConnConfig
}

var _ Notifier = (*pgNotifier)(nil)

// Listen listens on notifyChannel on a connection of its own and calls
// changed with each id announced, until ctx ends (it then returns nil) or
// the connection fails.
func (s *pgNotifier) Listen(ctx context.Context, ready func(), changed func(id string)) error {
	conn, err := pgx.ConnectConfig(ctx, s.listen)
	if err != nil {
		return fmt.Errorf("store: listen on %s: %w", s.name, err)
	}
	defer func() {
		// closing is bounded even when the server no longer answers
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.channel}.Sanitize()); err != nil {
		return listenErr(ctx, s.name, err)
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return listenErr(ctx, s.name, err)
		}
		changed(n.Payload)
	}
}

// listenErr is nil when ctx ended (the caller stopped listening), else
// err with context.
func listenErr(ctx context.Context, name string, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("store: listen on %s: %w", name, err)
}
