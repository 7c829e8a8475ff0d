package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

const (
	insertAnswer = `INSERT INTO answers (user_id, source, slot, value, remember, kind, best_guess, at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
	rememberValue = `INSERT INTO remembered (user_id, source, slot, value, at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (user_id, source, slot) DO UPDATE SET value = excluded.value, at = excluded.at`

	// $2 = '' selects every source.
	answerCounts = `SELECT source, slot, value, count(*), max(at), max(id)
FROM answers WHERE user_id = $1 AND ($2 = '' OR source = $2)
GROUP BY source, slot, value`
	rememberedValues = `SELECT source, slot, value, at
FROM remembered WHERE user_id = $1 AND ($2 = '' OR source = $2)`

	forgetAnswers    = `DELETE FROM answers WHERE user_id = $1 AND ($2 = '' OR source = $2) AND slot = $3`
	forgetRemembered = `DELETE FROM remembered WHERE user_id = $1 AND ($2 = '' OR source = $2) AND slot = $3`

	setNeverAsk = `INSERT INTO user_settings (user_id, never_ask, updated_at) VALUES ($1, $2, $3)
ON CONFLICT (user_id) DO UPDATE SET never_ask = excluded.never_ask, updated_at = excluded.updated_at`
	selectNeverAsk = `SELECT never_ask FROM user_settings WHERE user_id = $1`
)

// RecordAnswer appends a reply to the user's answers (At, when zero, is
// now); with Remember it also becomes the slot's remembered value, replacing
// any earlier one, in the same transaction.
func (s *sqlStore) RecordAnswer(ctx context.Context, a Answer) error {
	a, err := s.checkAnswer(a)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx txn) error { return s.recordAnswer(tx, a) })
	if err != nil {
		return fmt.Errorf("store: record answer %s/%s: %w", a.Source, a.Slot, err)
	}
	return nil
}

// checkAnswer rejects an answer the store cannot keep and sets its At
// (now when zero, else UTC to the microsecond).
func (s *sqlStore) checkAnswer(a Answer) (Answer, error) {
	if a.UserID == "" || a.Slot == "" || a.Value == "" {
		return a, errors.New("store: record answer: user, slot and value are required")
	}
	if a.At.IsZero() {
		a.At = s.now()
	}
	a.At = utc(a.At)
	return a, nil
}

// recordAnswer writes a checked answer in tx.
func (s *sqlStore) recordAnswer(tx txn, a Answer) error {
	if _, err := tx.exec(insertAnswer, a.UserID, a.Source, a.Slot, a.Value, a.Remember,
		a.Kind, a.BestGuess, s.d.timeArg(a.At)); err != nil {
		return err
	}
	if !a.Remember {
		return nil
	}
	_, err := tx.exec(rememberValue, a.UserID, a.Source, a.Slot, a.Value, s.d.timeArg(a.At))
	return err
}

// valueCount is how often a value was given for a slot.
type valueCount struct {
	value  string
	count  int
	last   time.Time
	lastID int64
}

// better reports whether v should be preferred to w: more often given, or
// as often and given more recently.
func (v valueCount) better(w valueCount) bool {
	if v.count != w.count {
		return v.count > w.count
	}
	if !v.last.Equal(w.last) {
		return v.last.After(w.last)
	}
	return v.lastID > w.lastID
}

type slotKey struct{ source, slot string }

// Preferences returns one Preference per (source, slot) the user answered or
// remembered, sorted by source then slot. A remembered value wins (Remember
// set, Count how often it was given, UpdatedAt when it was remembered);
// otherwise the most frequent value with its Count and UpdatedAt the last
// time it was given, ties going to the value given most recently.
func (s *sqlStore) Preferences(ctx context.Context, userID, source string) ([]Preference, error) {
	counts, err := s.answerCounts(ctx, userID, source)
	if err != nil {
		return nil, fmt.Errorf("store: preferences of %s: %w", userID, err)
	}
	prefs := map[slotKey]*Preference{}
	for k, vs := range counts {
		best := vs[0]
		for _, v := range vs[1:] {
			if v.better(best) {
				best = v
			}
		}
		prefs[k] = &Preference{UserID: userID, Source: k.source, Slot: k.slot,
			Value: best.value, Count: best.count, UpdatedAt: best.last}
	}
	err = s.readRows(ctx, rememberedValues, []any{userID, source}, func(rows *sql.Rows) error {
		p := Preference{UserID: userID, Remember: true}
		if err := rows.Scan(&p.Source, &p.Slot, &p.Value, timeCol{&p.UpdatedAt}); err != nil {
			return err
		}
		for _, v := range counts[slotKey{p.Source, p.Slot}] {
			if v.value == p.Value {
				p.Count = v.count
			}
		}
		prefs[slotKey{p.Source, p.Slot}] = &p
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: preferences of %s: %w", userID, err)
	}
	out := make([]Preference, 0, len(prefs))
	for _, p := range prefs {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b Preference) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Slot, b.Slot))
	})
	return out, nil
}

func (s *sqlStore) answerCounts(ctx context.Context, userID, source string) (map[slotKey][]valueCount, error) {
	counts := map[slotKey][]valueCount{}
	err := s.readRows(ctx, answerCounts, []any{userID, source}, func(rows *sql.Rows) error {
		var (
			k slotKey
			v valueCount
		)
		if err := rows.Scan(&k.source, &k.slot, &v.value, &v.count, timeCol{&v.last}, &v.lastID); err != nil {
			return err
		}
		counts[k] = append(counts[k], v)
		return nil
	})
	return counts, err
}

// ForgetPreference deletes the user's answers and remembered value for slot
// in source (in every source when source is ""), so the slot is asked again.
func (s *sqlStore) ForgetPreference(ctx context.Context, userID, source, slot string) error {
	err := s.inTx(ctx, func(tx txn) error {
		if _, err := tx.exec(forgetAnswers, userID, source, slot); err != nil {
			return err
		}
		_, err := tx.exec(forgetRemembered, userID, source, slot)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: forget %s/%s: %w", source, slot, err)
	}
	return nil
}

// SetNeverAsk sets the user's "never ask me" switch.
func (s *sqlStore) SetNeverAsk(ctx context.Context, userID string, never bool) error {
	if userID == "" {
		return errors.New("store: set never ask: no user")
	}
	if _, err := s.exec(ctx, setNeverAsk, userID, never, s.d.timeArg(utc(s.now()))); err != nil {
		return fmt.Errorf("store: set never ask: %w", err)
	}
	return nil
}

// NeverAsk reports the user's "never ask me" switch (false until set).
func (s *sqlStore) NeverAsk(ctx context.Context, userID string) (bool, error) {
	var never bool
	err := s.readRow(ctx, selectNeverAsk, []any{userID}, &never)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: never ask: %w", err)
	}
	return never, nil
}
