package server

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
)

// RateLimit bounds the turns each user starts: the requests that ask a
// question, answer a clarification or change an assumption. A zero field
// turns its limit off.
type RateLimit struct {
	// QuestionsPerMinute refills each user's bucket of questions; 0 (or a
	// Burst of 0) means no bucket.
	QuestionsPerMinute int
	// Burst is the bucket's size: questions asked at once before the
	// refill rate applies.
	Burst int
	// ConcurrentTurns bounds a user's turns running at once; 0 means no cap.
	ConcurrentTurns int
}

// DefaultRateLimit is the limit of a Config without one: generous enough
// that a person typing never meets it — 30 questions a minute, 10 at once,
// 4 turns running.
func DefaultRateLimit() RateLimit {
	return RateLimit{QuestionsPerMinute: 30, Burst: 10, ConcurrentTurns: 4}
}

// sweepEvery is how often, at most, idle users are dropped from the limiter.
const sweepEvery = time.Minute

// limiter holds each user's token bucket and count of running turns.
// Users whose bucket is full and who run no turn are dropped by a sweep
// made on access, so memory follows the users active in the last minutes.
type limiter struct {
	rate   float64 // tokens per second; 0: no bucket
	burst  float64
	turns  int // concurrent turns per user; 0: no cap
	now    func() time.Time
	mu     sync.Mutex
	users  map[string]*userLimit
	swept  time.Time
	active bool
}

type userLimit struct {
	tokens  float64
	updated time.Time
	running int
}

func newLimiter(rl RateLimit, now func() time.Time) *limiter {
	l := &limiter{turns: rl.ConcurrentTurns, now: now, users: map[string]*userLimit{}}
	if rl.QuestionsPerMinute > 0 && rl.Burst > 0 {
		l.rate = float64(rl.QuestionsPerMinute) / 60
		l.burst = float64(rl.Burst)
	}
	l.active = l.rate > 0 || l.turns > 0
	return l
}

// refill brings u's bucket up to t.
func (l *limiter) refill(u *userLimit, t time.Time) {
	if l.rate == 0 {
		return
	}
	if d := t.Sub(u.updated).Seconds(); d > 0 {
		u.tokens = math.Min(l.burst, u.tokens+d*l.rate)
	}
	u.updated = t
}

// start takes a token and a turn slot for user. When either is missing it
// returns why, for the user, and the seconds to wait before trying again.
func (l *limiter) start(user string) (refused string, retryAfter int) {
	if !l.active {
		return "", 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.now()
	l.sweep(t)
	u := l.users[user]
	if u == nil {
		u = &userLimit{tokens: l.burst, updated: t}
		l.users[user] = u
	}
	l.refill(u, t)
	if l.turns > 0 && u.running >= l.turns {
		// a turn ends in seconds
		return "too many questions running at once: wait for one to finish", 1
	}
	if l.rate > 0 && u.tokens < 1 {
		wait := int(math.Ceil((1 - u.tokens) / l.rate))
		return "too many questions in a short time: ask again in " + strconv.Itoa(wait) + "s", wait
	}
	if l.rate > 0 {
		u.tokens--
	}
	u.running++
	return "", 0
}

// done gives back the turn slot start took.
func (l *limiter) done(user string) {
	if !l.active {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if u := l.users[user]; u != nil && u.running > 0 {
		u.running--
	}
}

// sweep drops idle users (no running turn, a full bucket), at most once
// per sweepEvery; l.mu is held.
func (l *limiter) sweep(t time.Time) {
	if t.Sub(l.swept) < sweepEvery {
		return
	}
	l.swept = t
	for name, u := range l.users {
		l.refill(u, t)
		if u.running == 0 && u.tokens >= l.burst {
			delete(l.users, name)
		}
	}
}

// size reports how many users the limiter holds (for tests).
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.users)
}

// limitTurn refuses a turn-starting request with RATE_LIMITED when its
// user is over the question rate or the concurrent-turn cap; it runs
// after auth, which names the user.
func (s *Server) limitTurn(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		user := userOf(r)
		if msg, wait := s.limits.start(user); msg != "" {
			s.log(r).Info("rate limited", "user", user, "retry_after", wait)
			w.Header().Set("Retry-After", strconv.Itoa(wait))
			writeError(w, apperr.CodeRateLimited, msg)
			return
		}
		defer s.limits.done(user)
		next(w, r)
	}
}
