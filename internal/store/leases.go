package store

import (
	"context"
	"errors"
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
	if id == "" || owner == "" {
		return false, errors.New("store: lock: empty conversation id or owner")
	}
	if ttl < time.Microsecond {
		return false, fmt.Errorf("store: lock %s: ttl %s is not positive", id, ttl)
	}
	args := []any{id, owner, ttl.Microseconds()}
	if !s.d.serverClock {
		args = append(args, s.d.timeArg(utc(s.now())))
	}
	n, err := s.exec(ctx, s.d.lockSQL, args...)
	if err != nil {
		return false, fmt.Errorf("store: lock %s: %w", id, err)
	}
	return n == 1, nil
}

// Unlock releases owner's lease on id; another owner's lease is left alone.
func (s *sqlStore) Unlock(ctx context.Context, id, owner string) error {
	if _, err := s.exec(ctx, unlock, id, owner); err != nil {
		return fmt.Errorf("store: unlock %s: %w", id, err)
	}
	return nil
}
