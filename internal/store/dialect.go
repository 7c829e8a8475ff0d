package store

import (
	"fmt"
	"time"
)

// dialect holds what differs between SQLite and PostgreSQL. Everything else
// — the queries, kept beside the methods that run them, and the
// transactions — is shared: both accept $1-style parameters, ON CONFLICT,
// RETURNING, FILTER and window functions.
type dialect struct {
	// migrations is the folder of embedded .sql files under migrations/.
	migrations string
	// timeArg encodes a time for a query parameter: INTEGER microseconds in
	// SQLite, timestamptz in PostgreSQL.
	timeArg func(time.Time) any
	// lock and unlock serialize migrations across processes (PostgreSQL
	// advisory lock, $1 = key); SQLite needs none (BEGIN IMMEDIATE does).
	lock, unlock string
	// lockSQL takes a lease: $1 id, $2 owner, $3 ttl in microseconds and,
	// unless serverClock, $4 now.
	lockSQL string
	// renewSQL extends a lease its owner still holds: $1 id, $2 owner, $3
	// ttl in microseconds and, unless serverClock, $4 now.
	renewSQL string
	// notifySQL announces on channel $1 that the conversations whose ids
	// are in the JSON array $2 have new events ("" when the dialect
	// cannot).
	notifySQL string
	// headsSQL reads the id, last_seq and status of the conversations
	// whose ids are in the JSON array $1.
	headsSQL string
	// serverClock: leases are timed by the database server's clock, so that
	// processes on different hosts agree on who holds one.
	serverClock bool
}

var sqliteDialect = dialect{
	migrations: "migrations/sqlite",
	timeArg:    func(t time.Time) any { return t.UnixMicro() },
	lockSQL: `INSERT INTO locks (conversation_id, owner, expires_at) VALUES ($1, $2, $4 + $3)
ON CONFLICT (conversation_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
WHERE locks.owner = excluded.owner OR locks.expires_at <= $4`,
	renewSQL: `UPDATE locks SET expires_at = $4 + $3 WHERE conversation_id = $1 AND owner = $2`,
	headsSQL: `SELECT id, last_seq, status FROM conversations WHERE id IN (SELECT value FROM json_each($1))`,
}

var postgresDialect = dialect{
	migrations:  "migrations/postgres",
	timeArg:     func(t time.Time) any { return t },
	lock:        `SELECT pg_advisory_lock($1)`,
	unlock:      `SELECT pg_advisory_unlock($1)`,
	serverClock: true,
	lockSQL: `INSERT INTO locks (conversation_id, owner, expires_at)
VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 microsecond')
ON CONFLICT (conversation_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
WHERE locks.owner = excluded.owner OR locks.expires_at <= clock_timestamp()`,
	renewSQL: `UPDATE locks SET expires_at = clock_timestamp() + $3::bigint * interval '1 microsecond'
WHERE conversation_id = $1 AND owner = $2`,
	notifySQL: `SELECT pg_notify($1, id) FROM jsonb_array_elements_text($2::jsonb) AS id`,
	headsSQL:  `SELECT id, last_seq, status FROM conversations WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))`,
}

// utc normalizes a time for storage: UTC, microsecond precision (what both
// databases keep), so a value read back equals the value written.
func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// timeCol scans a time stored by either dialect.
type timeCol struct{ t *time.Time }

func (c timeCol) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*c.t = time.Time{}
	case int64:
		*c.t = time.UnixMicro(v).UTC()
	case time.Time:
		*c.t = v.UTC()
	default:
		return fmt.Errorf("scan time: unexpected %T", v)
	}
	return nil
}

// optTime encodes a time that may be zero (meaning "none") as NULL.
func (d *dialect) optTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return d.timeArg(t)
}
