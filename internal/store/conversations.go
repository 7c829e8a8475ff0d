package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

const (
	insertConversation = `INSERT INTO conversations
    (id, user_id, source, question, status, interactive, state, messages,
     rounds, last_seq, created_at, updated_at, expires_at, statement, version)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1)
ON CONFLICT (id) DO NOTHING`

	selectConversation = `SELECT id, user_id, source, question, status, interactive, state,
    statement, messages, created_at, updated_at, expires_at, version
FROM conversations WHERE id = $1`

	// The WHERE on version is the optimistic check; in PostgreSQL the
	// UPDATE also row-locks the conversation until commit, so concurrent
	// writers of one conversation are serialized and the seqs reserved
	// through last_seq never collide. rounds counts entries into
	// awaiting_clarification: SET expressions see the old status.
	updateConversation = `UPDATE conversations SET
    source = $3, question = $4, status = $5, interactive = $6, state = $7,
    messages = $8, updated_at = $9, expires_at = $10, statement = $12,
    rounds = rounds + CASE WHEN $5 = 'awaiting_clarification' AND status <> 'awaiting_clarification' THEN 1 ELSE 0 END,
    last_seq = last_seq + $11,
    version = version + 1
WHERE id = $1 AND version = $2
RETURNING last_seq`

	conversationExists = `SELECT count(*) FROM conversations WHERE id = $1`

	insertEvent = `INSERT INTO events (conversation_id, seq, type, data, at) VALUES ($1, $2, $3, $4, $5)`

	deleteEvents       = `DELETE FROM events WHERE conversation_id = $1`
	deleteConversation = `DELETE FROM conversations WHERE id = $1`
	deleteLock         = `DELETE FROM locks WHERE conversation_id = $1`

	// One round trip answers both "does it exist" (no row) and "what is new"
	// (rows with a seq; one row with a NULL seq when nothing is).
	selectEvents = `SELECT e.seq, e.type, e.data, e.at
FROM conversations c LEFT JOIN events e ON e.conversation_id = c.id AND e.seq > $2
WHERE c.id = $1
ORDER BY e.seq`

	expireConversations = `UPDATE conversations
SET status = 'abandoned', updated_at = $2, version = version + 1
WHERE status = 'awaiting_clarification' AND expires_at < $1`
)

// insertEvents returns the INSERT for n events: $1 the conversation, then
// seq, type, data, at for each.
func insertEvents(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO events (conversation_id, seq, type, data, at) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := 2 + 4*i
		fmt.Fprintf(&b, "($1, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3)
	}
	return b.String()
}

func validStatus(s string) bool {
	switch s {
	case StatusActive, StatusAwaiting, StatusAnswered, StatusFailed, StatusAbandoned:
		return true
	}
	return false
}

// checkWrite rejects a conversation or events the store cannot keep.
func checkWrite(c *Conversation, events []Event) error {
	for i, e := range events {
		if e.Type == "" {
			return fmt.Errorf("event %d has no type", i)
		}
	}
	if c == nil {
		return errors.New("nil conversation")
	}
	if c.ID == "" {
		return errors.New("conversation without an id")
	}
	if !validStatus(c.Status) {
		return fmt.Errorf("conversation %s: unknown status %q", c.ID, c.Status)
	}
	return nil
}

// CreateConversation inserts c with its first events in one transaction.
// CreatedAt, when zero, becomes now, and UpdatedAt, when zero, CreatedAt;
// times are stored in UTC to the microsecond and written back to c so that
// c equals what Conversation returns. An existing id fails with ErrExists.
func (s *sqlStore) CreateConversation(ctx context.Context, c *Conversation, events ...Event) ([]Event, error) {
	return s.create(ctx, c, nil, events)
}

// CreateLocked is CreateConversation that also takes owner's lease on the
// new conversation for ttl, as Lock does, in the same transaction: nobody
// sees the conversation without its lease. A lease another owner holds on
// the id fails with ErrLocked, and nothing is written.
func (s *sqlStore) CreateLocked(ctx context.Context, c *Conversation, owner string, ttl time.Duration, events ...Event) ([]Event, error) {
	l := &leaseArgs{owner: owner, ttl: ttl}
	if c != nil {
		l.id = c.ID
	}
	return s.create(ctx, c, l, events)
}

// create inserts c with events and, when l is set, takes l's lease first.
func (s *sqlStore) create(ctx context.Context, c *Conversation, l *leaseArgs, events []Event) ([]Event, error) {
	if err := checkWrite(c, events); err != nil {
		return nil, fmt.Errorf("store: create conversation: %w", err)
	}
	if c.UserID == "" {
		return nil, fmt.Errorf("store: create conversation %s: no user", c.ID)
	}
	now := utc(s.now())
	created, updated := utc(c.CreatedAt), utc(c.UpdatedAt)
	if c.CreatedAt.IsZero() {
		created = now
	}
	if c.UpdatedAt.IsZero() {
		updated = created
	}
	expires := c.ExpiresAt
	if !expires.IsZero() {
		expires = utc(expires)
	}
	rounds := 0
	if c.Status == StatusAwaiting {
		rounds = 1
	}
	evs := numberEvents(c.ID, 0, now, events)
	var lockArgs []any
	if l != nil {
		var err error
		if lockArgs, err = s.leaseArgs("lock", *l); err != nil {
			return nil, err
		}
	}
	convArgs := []any{c.ID, c.UserID, c.Source, c.Question, c.Status, c.Interactive, notNil(c.State),
		c.Messages, rounds, len(evs), s.d.timeArg(created), s.d.timeArg(updated),
		s.d.optTime(expires), c.Statement}
	var err error
	if s.wr == nil {
		err = s.runPgTx(ctx, s.createPgTx(c.ID, lockArgs, convArgs, evs))
	} else {
		err = s.inTx(ctx, func(tx txn) error {
			if l != nil {
				if err := lockIn(tx, s.d.lockSQL, lockArgs); err != nil {
					return err
				}
			}
			res, err := tx.exec(insertConversation, convArgs...)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return ErrExists
			}
			return s.appendEvents(tx, c.ID, evs)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("store: create conversation %s: %w", c.ID, err)
	}
	s.notify(c.ID, len(evs))
	c.CreatedAt, c.UpdatedAt, c.ExpiresAt, c.Version = created, updated, expires, 1
	return evs, nil
}

// Conversation reads one conversation.
func (s *sqlStore) Conversation(ctx context.Context, id string) (*Conversation, error) {
	c := &Conversation{}
	err := s.readRow(ctx, selectConversation, []any{id},
		&c.ID, &c.UserID, &c.Source, &c.Question, &c.Status, &c.Interactive, &c.State,
		&c.Statement, &c.Messages, timeCol{&c.CreatedAt}, timeCol{&c.UpdatedAt}, timeCol{&c.ExpiresAt},
		&c.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: conversation %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: conversation %s: %w", id, err)
	}
	if len(c.State) == 0 {
		c.State = nil
	}
	return c, nil
}

// UpdateConversation writes every field of c but ID, UserID and CreatedAt if
// c.Version is current, and appends events, in one transaction; it is
// SaveConversation with nothing else to write.
func (s *sqlStore) UpdateConversation(ctx context.Context, c *Conversation, events ...Event) ([]Event, error) {
	return s.SaveConversation(ctx, Save{Conversation: c, Events: events})
}

// SaveConversation writes every field of w.Conversation but ID, UserID and
// CreatedAt if its Version is current, appends w.Events and writes what
// else w holds, in one transaction. UpdatedAt is written as given (callers
// set it with their clock), or as now when zero. It fails with ErrNotFound
// when the conversation is gone, and with ErrConflict when it changed since
// it was read (the conversation is then untouched, and nothing is written).
func (s *sqlStore) SaveConversation(ctx context.Context, w Save) ([]Event, error) {
	c, events := w.Conversation, w.Events
	if err := checkWrite(c, events); err != nil {
		return nil, fmt.Errorf("store: update conversation: %w", err)
	}
	var query []any
	if w.Query != nil {
		var err error
		if query, err = s.queryArgs(*w.Query); err != nil {
			return nil, fmt.Errorf("store: update conversation %s: %w", c.ID, err)
		}
	}
	var audit []any
	if w.Audit != nil {
		var err error
		if audit, err = s.auditArgs(*w.Audit); err != nil {
			return nil, fmt.Errorf("store: update conversation %s: %w", c.ID, err)
		}
	}
	var lockArgs []any
	if w.Lock != "" {
		var err error
		if lockArgs, err = s.leaseArgs("lock", leaseArgs{id: c.ID, owner: w.Lock, ttl: w.LockTTL}); err != nil {
			return nil, fmt.Errorf("store: update conversation %s: %w", c.ID, err)
		}
	}
	var answer *Answer
	if w.Answer != nil {
		a, err := s.checkAnswer(*w.Answer)
		if err != nil {
			return nil, fmt.Errorf("store: update conversation %s: %w", c.ID, err)
		}
		answer = &a
	}
	now := utc(s.now())
	updated := utc(c.UpdatedAt)
	if c.UpdatedAt.IsZero() {
		updated = now
	}
	expires := c.ExpiresAt
	if !expires.IsZero() {
		expires = utc(expires)
	}
	updArgs := []any{c.ID, c.Version, c.Source, c.Question, c.Status, c.Interactive, notNil(c.State),
		c.Messages, s.d.timeArg(updated), s.d.optTime(expires), len(events), c.Statement}
	var (
		evs []Event
		err error
	)
	if s.wr == nil {
		evs = numberEvents(c.ID, 0, now, events)
		err = s.runPgTx(ctx, s.savePgTx(w, saveArgs{lock: lockArgs, update: updArgs, answer: answer, query: query, audit: audit}, evs))
		if errors.Is(err, errNoRow) {
			err = s.goneOrChanged(ctx, c.ID)
		}
	} else {
		evs, err = s.saveSQLite(ctx, w, saveArgs{lock: lockArgs, update: updArgs, answer: answer, query: query, audit: audit}, now)
	}
	if err != nil {
		return nil, fmt.Errorf("store: update conversation %s: %w", c.ID, err)
	}
	s.notify(c.ID, len(evs))
	c.UpdatedAt, c.ExpiresAt = updated, expires
	c.Version++
	return evs, nil
}

// saveArgs are the checked arguments of a save's statements: lock,
// answer, query and audit are nil when the save has none.
type saveArgs struct {
	lock, update, query, audit []any
	answer                     *Answer
}

// saveSQLite runs SaveConversation's statements one after the other in a
// transaction of SQLite's writer and returns the events, numbered.
func (s *sqlStore) saveSQLite(ctx context.Context, w Save, a saveArgs, now time.Time) ([]Event, error) {
	c, events := w.Conversation, w.Events
	lockArgs, answer, query, audit := a.lock, a.answer, a.query, a.audit
	var evs []Event
	err := s.inTx(ctx, func(tx txn) error {
		// the lease first, as Lock would have taken it before the write
		if lockArgs != nil {
			if err := lockIn(tx, s.d.lockSQL, lockArgs); err != nil {
				return err
			}
		}
		var last int64
		err := tx.queryRow(updateConversation, a.update...).Scan(&last)
		if errors.Is(err, sql.ErrNoRows) {
			var n int
			if err := tx.queryRow(conversationExists, c.ID).Scan(&n); err != nil {
				return err
			}
			return goneOrChanged(n)
		}
		if err != nil {
			return err
		}
		evs = numberEvents(c.ID, last-int64(len(events)), now, events)
		if err := s.appendEvents(tx, c.ID, evs); err != nil {
			return err
		}
		if answer != nil {
			if err := s.recordAnswer(tx, *answer); err != nil {
				return fmt.Errorf("record answer: %w", err)
			}
		}
		if query != nil {
			if _, err := tx.exec(insertQuery, query...); err != nil {
				return fmt.Errorf("log query: %w", err)
			}
		}
		if audit != nil {
			if _, err := tx.exec(insertAudit, audit...); err != nil {
				return fmt.Errorf("append audit: %w", err)
			}
		}
		if w.Unlock != "" {
			if _, err := tx.exec(unlock, c.ID, w.Unlock); err != nil {
				return fmt.Errorf("unlock: %w", err)
			}
		}
		return nil
	})
	return evs, err
}

// notify announces that a conversation has new events (PostgreSQL:
// NOTIFY; SQLite announces nothing, its followers poll Heads). It runs
// after the commit, not in it: a NOTIFY inside the writing transaction
// makes PostgreSQL commit such transactions one at a time, which cut the
// store's throughput by a quarter (bench serve, 131 against 173–184
// conversations/s). The announcer sends the announcements of concurrent
// writes together; one lost is only late: followers also poll Heads.
func (s *sqlStore) notify(id string, events int) {
	if events == 0 || s.ann == nil {
		return
	}
	s.ann.announce(id)
}

// numberEvents numbers events after seq last and fills in what the store
// assigns, without touching the caller's slice.
func numberEvents(id string, last int64, now time.Time, events []Event) []Event {
	if len(events) == 0 {
		return nil
	}
	evs := make([]Event, len(events))
	for i, e := range events {
		e.ConversationID = id
		e.Seq = last + int64(i) + 1
		if e.At.IsZero() {
			e.At = now
		}
		e.At = utc(e.At)
		if len(e.Data) == 0 {
			e.Data = nil
		}
		evs[i] = e
	}
	return evs
}

// maxEventsPerInsert keeps one INSERT under SQLite's and PostgreSQL's limits
// on bound parameters.
const maxEventsPerInsert = 500

func (s *sqlStore) appendEvents(tx txn, id string, evs []Event) error {
	if s.ws[insertEvent] != nil {
		// SQLite: a prepared one-row INSERT per event beats parsing a
		// multi-row one, and costs no round trip.
		for _, e := range evs {
			if _, err := tx.exec(insertEvent, id, e.Seq, e.Type, notNil(e.Data), s.d.timeArg(e.At)); err != nil {
				return fmt.Errorf("append events: %w", err)
			}
		}
		return nil
	}
	for _, st := range s.eventStmts(id, evs) {
		if _, err := tx.exec(st.q, st.args...); err != nil {
			return fmt.Errorf("append events: %w", err)
		}
	}
	return nil
}

// eventStmts returns the multi-row INSERTs that append evs (numbered).
func (s *sqlStore) eventStmts(id string, evs []Event) []stmt {
	var sts []stmt
	for len(evs) > 0 {
		batch := evs[:min(len(evs), maxEventsPerInsert)]
		evs = evs[len(batch):]
		args := make([]any, 0, 1+4*len(batch))
		args = append(args, id)
		for _, e := range batch {
			args = append(args, e.Seq, e.Type, notNil(e.Data), s.d.timeArg(e.At))
		}
		sts = append(sts, stmt{insertEvents(len(batch)), args})
	}
	return sts
}

// goneOrChanged judges a conversation whose update matched no row, from
// how many rows have its id.
func goneOrChanged(n int) error {
	if n == 0 {
		return ErrNotFound
	}
	return ErrConflict
}

// DeleteConversation removes a conversation, its events and its lease; it
// fails with ErrNotFound (after removing any lease) when there is no such
// conversation.
func (s *sqlStore) DeleteConversation(ctx context.Context, id string) error {
	found := false
	err := s.inTx(ctx, func(tx txn) error {
		// The conversation first: like UpdateConversation, lock its row
		// before anything else (the events would go by ON DELETE CASCADE
		// too; deleting them explicitly does not rely on the pragma).
		res, err := tx.exec(deleteConversation, id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		found = n > 0
		if _, err := tx.exec(deleteEvents, id); err != nil {
			return err
		}
		_, err = tx.exec(deleteLock, id)
		return err
	})
	if err == nil && !found {
		err = ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: delete conversation %s: %w", id, err)
	}
	return nil
}

// Events returns the events with Seq > after, in order: none when nothing
// is new, ErrNotFound when there is no such conversation. A poll that finds
// nothing new costs one primary-key lookup.
func (s *sqlStore) Events(ctx context.Context, id string, after int64) ([]Event, error) {
	var evs []Event
	found := false
	err := s.readRows(ctx, selectEvents, []any{id, after}, func(rows *sql.Rows) error {
		found = true
		var (
			seq sql.NullInt64
			typ sql.NullString
			e   = Event{ConversationID: id}
		)
		if err := rows.Scan(&seq, &typ, &e.Data, timeCol{&e.At}); err != nil {
			return err
		}
		if !seq.Valid {
			return nil
		}
		e.Seq, e.Type = seq.Int64, typ.String
		if len(e.Data) == 0 {
			e.Data = nil
		}
		evs = append(evs, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: events of %s: %w", id, err)
	}
	if !found {
		return nil, fmt.Errorf("store: events of %s: %w", id, ErrNotFound)
	}
	return evs, nil
}

// ExpireConversations marks conversations awaiting a clarification whose
// ExpiresAt is before now as abandoned (UpdatedAt = now, Version + 1, so a
// stale copy can no longer be written) and returns how many. It appends no
// event. Conversations without ExpiresAt never expire.
func (s *sqlStore) ExpireConversations(ctx context.Context, now time.Time) (int, error) {
	now = utc(now)
	n, err := s.exec(ctx, expireConversations, s.d.timeArg(now), s.d.timeArg(now))
	if err != nil {
		return 0, fmt.Errorf("store: expire conversations: %w", err)
	}
	return int(n), nil
}

// notNil stores a missing JSON value as empty bytes (the columns are NOT NULL).
func notNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
