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

	// learnedOfUser reads, in one query ($2 = '' selects every source), the user's answers counted per
	// value ('a'), remembered values ('r') and "never ask me" switch
	// ('n', its value in count): what a turn reads of its user.
	learnedOfUser = `SELECT 'a', source, slot, value, count(*), max(at), max(id)
FROM answers WHERE user_id = $1 AND ($2 = '' OR source = $2)
GROUP BY source, slot, value
UNION ALL
SELECT 'r', source, slot, value, 0, at, 0
FROM remembered WHERE user_id = $1 AND ($2 = '' OR source = $2)
UNION ALL
SELECT 'n', '', '', '', CASE WHEN never_ask THEN 1 ELSE 0 END, updated_at, 0
FROM user_settings WHERE user_id = $1`

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
	for _, st := range s.answerStmts(a) {
		if _, err := tx.exec(st.q, st.args...); err != nil {
			return err
		}
	}
	return nil
}

// stmt is a statement with its arguments.
type stmt struct {
	q    string
	args []any
}

// answerStmts returns the statements that write a checked answer.
func (s *sqlStore) answerStmts(a Answer) []stmt {
	sts := []stmt{{insertAnswer, []any{a.UserID, a.Source, a.Slot, a.Value, a.Remember,
		a.Kind, a.BestGuess, s.d.timeArg(a.At)}}}
	if a.Remember {
		sts = append(sts, stmt{rememberValue, []any{a.UserID, a.Source, a.Slot, a.Value, s.d.timeArg(a.At)}})
	}
	return sts
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
	l, err := s.Learned(ctx, userID, source)
	if err != nil {
		return nil, fmt.Errorf("store: preferences of %s: %w", userID, err)
	}
	return l.Preferences, nil
}

// Learned reads the user's "never ask me" switch and preferences (as
// Preferences returns them) in one query.
func (s *sqlStore) Learned(ctx context.Context, userID, source string) (Learned, error) {
	var (
		l          Learned
		counts     = map[slotKey][]valueCount{}
		remembered []Preference
	)
	err := s.readRows(ctx, learnedOfUser, []any{userID, source}, func(rows *sql.Rows) error {
		var (
			kind string
			k    slotKey
			v    valueCount
		)
		if err := rows.Scan(&kind, &k.source, &k.slot, &v.value, &v.count, timeCol{&v.last}, &v.lastID); err != nil {
			return err
		}
		switch kind {
		case "a":
			counts[k] = append(counts[k], v)
		case "r":
			remembered = append(remembered, Preference{UserID: userID, Source: k.source, Slot: k.slot,
				Value: v.value, Remember: true, UpdatedAt: v.last})
		case "n":
			l.NeverAsk = v.count != 0
		}
		return nil
	})
	if err != nil {
		return Learned{}, fmt.Errorf("store: learned of %s: %w", userID, err)
	}
	l.Preferences = preferences(userID, counts, remembered)
	return l, nil
}

// preferences picks each slot's preference: its remembered value, with how
// often it was given, else its best counted value.
func preferences(userID string, counts map[slotKey][]valueCount, remembered []Preference) []Preference {
	prefs := map[slotKey]Preference{}
	for k, vs := range counts {
		best := vs[0]
		for _, v := range vs[1:] {
			if v.better(best) {
				best = v
			}
		}
		prefs[k] = Preference{UserID: userID, Source: k.source, Slot: k.slot,
			Value: best.value, Count: best.count, UpdatedAt: best.last}
	}
	for _, p := range remembered {
		for _, v := range counts[slotKey{p.Source, p.Slot}] {
			if v.value == p.Value {
				p.Count = v.count
			}
		}
		prefs[slotKey{p.Source, p.Slot}] = p
	}
	out := make([]Preference, 0, len(prefs))
	for _, p := range prefs {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Preference) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Slot, b.Slot))
	})
	return out
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
