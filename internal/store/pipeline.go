package store

import (
	"cmp"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// pgTx is a PostgreSQL write transaction sent in one round trip: BEGIN,
// its statements and COMMIT go together (pgx's pipeline, one Sync), where
// a statement at a time costs a round trip for each, and for BEGIN and
// COMMIT, each a wake-up of both the client and the server. So no
// statement can wait for an earlier one's result: what depends on it is
// written into one statement (see updateWithEvents), and a check — the
// lease taken, the version current, the id new — is made by the server,
// by a statement that fails when its write changed no row (mustChange).
// A failed statement makes PostgreSQL skip the rest of the pipeline,
// COMMIT included, and the transaction is rolled back: nothing is written.
// (A step's error that only the client sees, which would be a bug — a
// result it cannot read — does not stop the COMMIT already sent.)
type pgTx struct {
	b pgx.Batch
	// steps read the results of b's statements, in order.
	steps []func(pgx.BatchResults) error
}

// exec queues a statement; what names it in its errors.
func (p *pgTx) exec(what, q string, args []any) {
	p.b.Queue(q, args...)
	p.steps = append(p.steps, func(br pgx.BatchResults) error {
		if _, err := br.Exec(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
}

// mustChange queues mustChangeSQL(q): a write that fails with failed (wrapped in
// what, when set) when it changes no row.
func (p *pgTx) mustChange(what, q string, args []any, failed error) {
	p.queryRow(mustChangeSQL(q), args, func(r pgx.Row) error {
		var one int
		err := changedErr(r.Scan(&one), failed)
		if err != nil && what != "" {
			return fmt.Errorf("%s: %w", what, err)
		}
		return err
	})
}

// queryRow queues a statement returning one row, read by scan.
func (p *pgTx) queryRow(q string, args []any, scan func(pgx.Row) error) {
	p.b.Queue(q, args...)
	p.steps = append(p.steps, func(br pgx.BatchResults) error { return scan(br.QueryRow()) })
}

// mustChangeSQL turns a write statement into one that returns 1 when it changed a
// row and fails when it changed none, dividing by zero (PostgreSQL has no
// function that raises an error, and this needs no schema of ours).
func mustChangeSQL(q string) string {
	return "WITH w AS (" + q + " RETURNING 1) SELECT 1 / count(*)::int FROM w"
}

// divisionByZero is PostgreSQL's SQLSTATE for a division by zero.
const divisionByZero = "22012"

// changedErr is failed when err is mustChangeSQL's division by zero, else err.
func changedErr(err, failed error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == divisionByZero {
		return failed
	}
	return err
}

// runPgTx runs p's statements in one transaction on a connection of the pool;
// it returns nil only once the transaction is committed.
func (s *sqlStore) runPgTx(ctx context.Context, p *pgTx) error {
	release, err := s.slot(ctx)
	if err != nil {
		return err
	}
	defer release()
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var ferr error
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		ferr = p.run(ctx, sc.Conn())
		if sc.Conn().IsClosed() {
			return driver.ErrBadConn // database/sql drops it
		}
		return nil
	})
	return cmp.Or(ferr, err)
}

func (p *pgTx) run(ctx context.Context, c *pgx.Conn) error {
	qs := make([]*pgx.QueuedQuery, 0, len(p.b.QueuedQueries)+2)
	qs = append(qs, &pgx.QueuedQuery{SQL: "BEGIN"})
	qs = append(qs, p.b.QueuedQueries...)
	qs = append(qs, &pgx.QueuedQuery{SQL: "COMMIT"})
	br := c.SendBatch(ctx, &pgx.Batch{QueuedQueries: qs})
	_, err := br.Exec()
	if err != nil {
		err = fmt.Errorf("begin: %w", err)
	}
	for _, step := range p.steps {
		if err != nil {
			break
		}
		err = step(br)
	}
	if err == nil {
		var ct pgconn.CommandTag
		if ct, err = br.Exec(); err != nil {
			err = fmt.Errorf("commit: %w", err)
		} else if ct.String() != "COMMIT" {
			// PostgreSQL answers COMMIT in a failed transaction with ROLLBACK.
			err = errors.New("commit: the transaction was rolled back")
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil && c.PgConn().TxStatus() != 'I' {
		// A connection left in a transaction is dropped by the pool
		// (stdlib's ResetSession) when this fails.
		_, _ = c.Exec(ctx, "ROLLBACK")
	}
	return err
}

// updateWithEvents is updateConversation that also appends the events, on
// PostgreSQL: numbered after the last_seq the update reserved, in the same
// statement, so that they can be sent before that number is known. $13,
// $14 and $15 hold the events' types, data and times, in order. It returns
// last_seq, and fails, dividing by zero, when the update matched no row.
const updateWithEvents = `WITH u AS (` + updateConversation + `),
e AS (INSERT INTO events (conversation_id, seq, type, data, at)
    SELECT $1, u.last_seq - $11 + e.n, e.type, e.data, e.at
    FROM u, unnest($13::text[], $14::bytea[], $15::timestamptz[]) WITH ORDINALITY AS e (type, data, at, n))
SELECT max(last_seq), 1 / count(*)::int FROM u`

// checkedUpdate is updateConversation checked as updateWithEvents is: it
// fails, dividing by zero, when the update matched no row.
const checkedUpdate = `WITH u AS (` + updateConversation + `)
SELECT max(last_seq), 1 / count(*)::int FROM u`

// errNoRow: a save's update matched no row (the conversation is gone or
// changed).
var errNoRow = errors.New("no conversation row matched")

// createPgTx queues CreateLocked's (CreateConversation's, when lockArgs is
// nil) statements.
func (s *sqlStore) createPgTx(id string, lockArgs, convArgs []any, evs []Event) *pgTx {
	p := &pgTx{}
	if lockArgs != nil {
		p.mustChange("lock", s.d.lockSQL, lockArgs, ErrLocked)
	}
	p.mustChange("", insertConversation, convArgs, ErrExists)
	for _, st := range s.eventStmts(id, evs) {
		p.exec("append events", st.q, st.args)
	}
	return p
}

// savePgTx queues SaveConversation's statements: evs are w's events,
// numbered from 1, renumbered once the update returns the conversation's
// last seq.
func (s *sqlStore) savePgTx(w Save, a saveArgs, evs []Event) *pgTx {
	lockArgs, updArgs, answer, query, audit := a.lock, a.update, a.answer, a.query, a.audit
	p := &pgTx{}
	if lockArgs != nil {
		// the lease first, as Lock would have taken it before the write
		p.mustChange("lock", s.d.lockSQL, lockArgs, ErrLocked)
	}
	q := checkedUpdate
	if len(evs) > 0 {
		q = updateWithEvents
		types, data, at := make([]string, len(evs)), make([][]byte, len(evs)), make([]time.Time, len(evs))
		for i, e := range evs {
			types[i], data[i], at[i] = e.Type, notNil(e.Data), e.At
		}
		updArgs = append(updArgs[:len(updArgs):len(updArgs)], types, data, at)
	}
	p.queryRow(q, updArgs, func(r pgx.Row) error {
		var last, one int64
		if err := changedErr(r.Scan(&last, &one), errNoRow); err != nil {
			return err
		}
		for i := range evs {
			evs[i].Seq = last - int64(len(evs)) + int64(i) + 1
		}
		return nil
	})
	if answer != nil {
		for _, st := range s.answerStmts(*answer) {
			p.exec("record answer", st.q, st.args)
		}
	}
	if query != nil {
		p.exec("log query", insertQuery, query)
	}
	if audit != nil {
		p.exec("append audit", insertAudit, audit)
	}
	if w.Unlock != "" {
		p.exec("unlock", unlock, []any{w.Conversation.ID, w.Unlock})
	}
	return p
}

// goneOrChanged reads whether the conversation id exists, after a save's
// update matched no row: ErrNotFound if it does not, else ErrConflict.
func (s *sqlStore) goneOrChanged(ctx context.Context, id string) error {
	var n int
	if err := s.readRow(ctx, conversationExists, []any{id}, &n); err != nil {
		return err
	}
	return goneOrChanged(n)
}
