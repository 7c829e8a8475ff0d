package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

const (
	insertQuery = `INSERT INTO query_log (conversation_id, user_id, source, question, sql, status,
    error_code, duration_ms, rows, turns, clarifications, assumptions, unknown, at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`

	conversationStats = `SELECT count(*),
    count(*) FILTER (WHERE rounds > 0),
    count(*) FILTER (WHERE status = 'answered'),
    count(*) FILTER (WHERE status = 'abandoned'),
    count(*) FILTER (WHERE status = 'failed'),
    count(*) FILTER (WHERE status = 'answered' AND rounds = 0),
    coalesce(sum(rounds) FILTER (WHERE status = 'answered'), 0)
FROM conversations WHERE created_at >= $1 AND (CAST($2 AS TEXT) = '' OR user_id = $2)`

	// Nearest-rank percentiles: the value at 1-based rank ceil(p·n) of the
	// durations in ascending order, ceil(p·n) computed in integers as
	// (100p·n + 99) / 100. At most two rows (one when both ranks agree).
	latencyPercentiles = `SELECT n, rn, duration_ms FROM (
    SELECT duration_ms,
        row_number() OVER (ORDER BY duration_ms) AS rn,
        count(*) OVER () AS n
    FROM query_log WHERE at >= $1 AND (CAST($2 AS TEXT) = '' OR user_id = $2)
) ranked
WHERE rn = (50 * n + 99) / 100 OR rn = (99 * n + 99) / 100`
)

// LogQuery appends r to the query log (At, when zero, is now).
func (s *sqlStore) LogQuery(ctx context.Context, r QueryRecord) error {
	args, err := s.queryArgs(r)
	if err != nil {
		return fmt.Errorf("store: log query: %w", err)
	}
	if _, err = s.exec(ctx, insertQuery, args...); err != nil {
		return fmt.Errorf("store: log query: %w", err)
	}
	return nil
}

// queryArgs returns the arguments of insertQuery for r.
func (s *sqlStore) queryArgs(r QueryRecord) ([]any, error) {
	at := utc(r.At)
	if r.At.IsZero() {
		at = utc(s.now())
	}
	unknown, err := encodeWords(r.Unknown)
	if err != nil {
		return nil, err
	}
	return []any{r.ConversationID, r.UserID, r.Source, r.Question,
		r.SQL, r.Status, r.ErrorCode, r.DurationMS, r.Rows, r.Turns, r.Clarifications,
		r.Assumptions, unknown, s.d.timeArg(at)}, nil
}

// Stats computes the figures the Stats type defines: one aggregate over
// conversations (rounds counts each one's entries into
// awaiting_clarification, kept by UpdateConversation) and one ranked scan of
// the query log.
func (s *sqlStore) Stats(ctx context.Context, since time.Time, user string) (Stats, error) {
	var st Stats
	t := s.d.timeArg(utc(since))
	err := s.readRow(ctx, conversationStats, []any{t, user}, &st.Conversations, &st.Clarified,
		&st.Answered, &st.Abandoned, &st.Failed, &st.AutoResolved, &st.QuestionsAsked)
	if err != nil {
		return Stats{}, fmt.Errorf("store: stats: %w", err)
	}
	err = s.readRows(ctx, latencyPercentiles, []any{t, user}, func(rows *sql.Rows) error {
		var (
			n, rank int64
			ms      float64
		)
		if err := rows.Scan(&n, &rank, &ms); err != nil {
			return err
		}
		if rank == (50*n+99)/100 {
			st.P50MS = ms
		}
		if rank == (99*n+99)/100 {
			st.P99MS = ms
		}
		return nil
	})
	if err != nil {
		return Stats{}, fmt.Errorf("store: stats: %w", err)
	}
	return st, nil
}
