package store

import (
	"context"
	"fmt"
	"time"
)

const unlock = `DELETE FROM locks WHERE conversation_id = $1 AND owner = $2`

// Lock takes or extends owner's lease on conversation id until now+ttl, in
// one atomic upsert: it succeeds when the lease is free, expired (its
// expiry at or before now) or already owner's, and reports false when
// another owner's lease is unexpired. The conversation need not exist.
// PostgreSQL times leases by the server's clock, so processes on different
// hosts agree; SQLite by Config.Now.
func (s *sqlStore) Lock(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	return s.lease(ctx, "lock", s.d.lockSQL, id, owner, ttl)
}

// Renew extends owner's lease on id until now+ttl, in one UPDATE of the
// row owner holds: it reports false when the lease was released (the row
// is gone) or taken by another owner (the row names them). Unlike Lock it
// never takes a free lease, so an instance whose turn was taken over
// learns so instead of taking the lease back.
func (s *sqlStore) Renew(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	return s.lease(ctx, "renew", s.d.renewSQL, id, owner, ttl)
}

// leaseArgs names a lease and how long to take it for.
type leaseArgs struct {
	id, owner string
	ttl       time.Duration
}

// leaseArgs checks l and returns the arguments of a lease statement.
func (s *sqlStore) leaseArgs(op string, l leaseArgs) ([]any, error) {
	if l.id == "" || l.owner == "" {
		return nil, fmt.Errorf("store: %s: empty conversation id or owner", op)
	}
	if l.ttl < time.Microsecond {
		return nil, fmt.Errorf("store: %s %s: ttl %s is not positive", op, l.id, l.ttl)
	}
	args := []any{l.id, l.owner, l.ttl.Microseconds()}
	if !s.d.serverClock {
		args = append(args, s.d.timeArg(utc(s.now())))
	}
	return args, nil
}

// lease runs a lease statement (lockSQL or renewSQL) and reports whether
// it changed the row.
func (s *sqlStore) lease(ctx context.Context, op, q, id, owner string, ttl time.Duration) (bool, error) {
	args, err := s.leaseArgs(op, leaseArgs{id: id, owner: owner, ttl: ttl})
	if err != nil {
		return false, err
	}
	n, err := s.exec(ctx, q, args...)
	if err != nil {
		return false, fmt.Errorf("store: %s %s: %w", op, id, err)
	}
	return n == 1, nil
}

// lockIn takes a lease in a transaction, or fails with ErrLocked.
func lockIn(tx txn, q string, args []any) error {
	res, err := tx.exec(q, args...)
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	if n != 1 {
		return ErrLocked
	}
	return nil
}

// Unlock releases owner's lease on id; another owner's lease is left alone.
func (s *sqlStore) Unlock(ctx context.Context, id, owner string) error {
	if _, err := s.exec(ctx, unlock, id, owner); err != nil {
		return fmt.Errorf("store: unlock %s: %w", id, err)
	}
	return nil
}
