package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// The reads behind `clarify model review`: the query log and the answers
// of a source since a time; an empty $1 selects every source.
const (
	selectQueryLog = `SELECT conversation_id, user_id, source, question, sql, status, error_code,
    duration_ms, rows, turns, clarifications, assumptions, unknown, at
FROM query_log WHERE ($1 = '' OR source = $1) AND at >= $2
ORDER BY at, id`
	selectAnswers = `SELECT user_id, source, slot, value, remember, kind, best_guess, at
FROM answers WHERE ($1 = '' OR source = $1) AND at >= $2
ORDER BY at, id`
)

// QueryLog reads the query log records of source (every source when "")
// with At at or after since, oldest first; records logged at one instant
// keep the order they were logged in.
func (s *sqlStore) QueryLog(ctx context.Context, source string, since time.Time) ([]QueryRecord, error) {
	var out []QueryRecord
	err := s.readRows(ctx, selectQueryLog, []any{source, s.d.timeArg(utc(since))}, func(rows *sql.Rows) error {
		var (
			r       QueryRecord
			unknown string
		)
		if err := rows.Scan(&r.ConversationID, &r.UserID, &r.Source, &r.Question, &r.SQL, &r.Status,
			&r.ErrorCode, &r.DurationMS, &r.Rows, &r.Turns, &r.Clarifications, &r.Assumptions,
			&unknown, timeCol{&r.At}); err != nil {
			return err
		}
		words, err := decodeWords(unknown)
		if err != nil {
			return fmt.Errorf("unknown words of a record of conversation %q: %w", r.ConversationID, err)
		}
		r.Unknown = words
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: query log of %q: %w", source, err)
	}
	return out, nil
}

// Answers reads the replies about source (every source when "") with At at
// or after since, oldest first; replies recorded at one instant keep the
// order they were recorded in.
func (s *sqlStore) Answers(ctx context.Context, source string, since time.Time) ([]Answer, error) {
	var out []Answer
	err := s.readRows(ctx, selectAnswers, []any{source, s.d.timeArg(utc(since))}, func(rows *sql.Rows) error {
		var a Answer
		if err := rows.Scan(&a.UserID, &a.Source, &a.Slot, &a.Value, &a.Remember, &a.Kind,
			&a.BestGuess, timeCol{&a.At}); err != nil {
			return err
		}
		out = append(out, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: answers about %q: %w", source, err)
	}
	return out, nil
}

// encodeWords stores a list of words as a JSON array, and no words as ""
// (the column's default, which rows logged before it existed hold).
func encodeWords(words []string) (string, error) {
	if len(words) == 0 {
		return "", nil
	}
	b, err := json.Marshal(words)
	if err != nil {
		return "", fmt.Errorf("encode words: %w", err)
	}
	return string(b), nil
}

// decodeWords reads what encodeWords stored.
func decodeWords(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var words []string
	if err := json.Unmarshal([]byte(s), &words); err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, nil
	}
	return words, nil
}
