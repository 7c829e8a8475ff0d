package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/store"
)

const question = "Show me the patients who have severe wounds"

// reply is what a rate-limit test looks at in a response.
type reply struct {
	status     int
	retryAfter string
	code       string
}

// try sends a request as the key's user and reads its status, Retry-After
// and error code; an event stream is read no further than its headers.
func (h *harness) try(method, path, key string, body any, stream bool) reply {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, h.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := reply{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	if stream {
		return out
	}
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	data, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(data, &e)
	out.code = e.Error.Code
	return out
}

var twoUsers = []server.Key{{User: "ana", SHA256: server.HashKey("ana-key")}, {User: "bo", SHA256: server.HashKey("bo-key")}}

// startLimited serves with rl and the harness's fake clock as the limiter's.
func startLimited(t *testing.T, rl *server.RateLimit, wrap func(store.Store) store.Store) *harness {
	t.Helper()
	var clk *fakeClock
	h := startConfig(t, wrap, func(c *server.Config) {
		c.RateLimit = rl
		// the harness's clock is made after tune runs: read it late
		c.Now = func() time.Time { return clk.Now() }
	}, twoUsers...)
	clk = h.clock
	return h
}

// TestRateLimitQuestions: with 6 questions a minute and a burst of 3, the
// fourth question at once is refused with RATE_LIMITED and a Retry-After
// of the bucket's refill; the bucket refills with time; every request that
// starts a turn counts, reading and following conversations do not, and
// one user's questions never limit another's.
func TestRateLimitQuestions(t *testing.T) {
	h := startLimited(t, &server.RateLimit{QuestionsPerMinute: 6, Burst: 3}, nil)
	var first struct {
		ID string `json:"conversation_id"`
	}
	if st := h.do("POST", "/v1/conversations", "ana-key", map[string]any{"question": question}, &first); st == 429 || first.ID == "" {
		t.Fatalf("first question: %d, conversation %q", st, first.ID)
	}
	conv := "/v1/conversations/" + first.ID
	ask := map[string]any{"question": question, "interactive": false}
	answer := map[string]any{"message": "the last month"}
	change := map[string]any{"option_id": "x"}
	limited := reply{429, "10", "RATE_LIMITED"} // 6 a minute: a token every 10s
	steps := []struct {
		name    string
		wait    time.Duration
		method  string
		path    string
		key     string
		body    any
		stream  bool
		limited *reply // nil: anything but 429
	}{
		{"second question", 0, "POST", "/v1/conversations", "ana-key", ask, false, nil},
		{"third question", 0, "POST", "/v1/conversations", "ana-key", ask, false, nil},
		{"fourth question at once", 0, "POST", "/v1/conversations", "ana-key", ask, false, &limited},
		{"a message counts", 0, "POST", conv + "/messages", "ana-key", answer, false, &limited},
		{"an assumption change counts", 0, "POST", conv + "/assumptions/period", "ana-key", change, false, &limited},
		{"a streamed question counts", 0, "POST", "/v1/conversations", "ana-key", ask, true, &reply{429, "10", ""}},
		{"another user is not limited", 0, "POST", "/v1/conversations", "bo-key", ask, false, nil},
		{"reading a conversation is not limited", 0, "GET", conv, "ana-key", nil, false, nil},
		{"listing is not limited", 0, "GET", "/v1/conversations", "ana-key", nil, false, nil},
		{"following a conversation is not limited", 0, "GET", conv + "/events", "ana-key", nil, true, nil},
		{"half a refill later", 5 * time.Second, "POST", "/v1/conversations", "ana-key", ask, false, &reply{429, "5", "RATE_LIMITED"}},
		{"a token refilled", 5 * time.Second, "POST", "/v1/conversations", "ana-key", ask, false, nil},
		{"and spent", 0, "POST", "/v1/conversations", "ana-key", ask, false, &limited},
		{"a minute refills the burst", time.Minute, "POST", "/v1/conversations", "ana-key", ask, false, nil},
		{"second of the burst", 0, "POST", "/v1/conversations", "ana-key", ask, false, nil},
		{"third of the burst", 0, "POST", "/v1/conversations", "ana-key", ask, false, nil},
		{"burst spent", 0, "POST", "/v1/conversations", "ana-key", ask, false, &limited},
	}
	for _, tc := range steps {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Add(tc.wait)
			got := h.try(tc.method, tc.path, tc.key, tc.body, tc.stream)
			if tc.limited == nil {
				if got.status == http.StatusTooManyRequests {
					t.Errorf("%s %s: %+v, want not limited", tc.method, tc.path, got)
				}
				return
			}
			if got != *tc.limited {
				t.Errorf("%s %s: %+v, want %+v", tc.method, tc.path, got, *tc.limited)
			}
		})
	}
}

// TestRateLimitOff: a zero limit is no limit, and the defaults let a
// person ask a handful of questions at once.
func TestRateLimitOff(t *testing.T) {
	tests := []struct {
		name string
		rl   *server.RateLimit
		n    int
	}{
		{"all off", &server.RateLimit{}, 20},
		{"rate off", &server.RateLimit{Burst: 1, ConcurrentTurns: 1}, 20},
		{"burst off", &server.RateLimit{QuestionsPerMinute: 1, ConcurrentTurns: 1}, 20},
		{"defaults", nil, server.DefaultRateLimit().Burst},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := startLimited(t, tc.rl, nil)
			for i := range tc.n {
				if got := h.try("POST", "/v1/conversations", "ana-key", map[string]any{"question": question, "interactive": false}, false); got.status == 429 {
					t.Fatalf("question %d: %+v, want not limited", i+1, got)
				}
			}
		})
	}
}

// gatedTurns is a store whose Learned, read as each of ana's turns
// starts, reports the turn and holds it until release is closed.
type gatedTurns struct {
	store.Store
	started chan<- struct{}
	release <-chan struct{}
}

func (s gatedTurns) Learned(ctx context.Context, user, source string) (store.Learned, error) {
	if user == "ana" {
		s.started <- struct{}{}
		select {
		case <-s.release:
		case <-ctx.Done():
		}
	}
	return s.Store.Learned(ctx, user, source)
}

// TestRateLimitConcurrentTurns: with two turns running, a user's third is
// refused (RATE_LIMITED, Retry-After) without spending a question; another
// user still asks; when the turns end the user asks again.
func TestRateLimitConcurrentTurns(t *testing.T) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	h := startLimited(t, &server.RateLimit{QuestionsPerMinute: 60, Burst: 3, ConcurrentTurns: 2}, func(st store.Store) store.Store {
		return gatedTurns{Store: st, started: started, release: release}
	})
	ask := map[string]any{"question": question, "interactive": false}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.try("POST", "/v1/conversations", "ana-key", ask, false)
		}()
	}
	for range 2 {
		<-started
	}
	if got, want := h.try("POST", "/v1/conversations", "ana-key", ask, false), (reply{429, "1", "RATE_LIMITED"}); got != want {
		t.Errorf("a third turn while two run: %+v, want %+v", got, want)
	}
	if got := h.try("POST", "/v1/conversations", "bo-key", ask, false); got.status == 429 {
		t.Errorf("another user while ana's two turns run: %+v, want not limited", got)
	}
	close(release)
	wg.Wait()
	// the refused turn spent no question: the burst's third is left
	if got := h.try("POST", "/v1/conversations", "ana-key", ask, false); got.status == 429 {
		t.Errorf("after the turns ended: %+v, want not limited", got)
	}
}

// TestRateLimitForgetsIdleUsers: a user whose bucket has refilled and who
// runs no turn is dropped, so the limiter's memory follows active users.
func TestRateLimitForgetsIdleUsers(t *testing.T) {
	h := startLimited(t, &server.RateLimit{QuestionsPerMinute: 60, Burst: 2, ConcurrentTurns: 2}, nil)
	ask := map[string]any{"question": question, "interactive": false}
	h.try("POST", "/v1/conversations", "ana-key", ask, false)
	h.try("POST", "/v1/conversations", "bo-key", ask, false)
	if n := server.LimitedUsers(h.srv); n != 2 {
		t.Fatalf("after two users asked: %d users held, want 2", n)
	}
	h.clock.Add(2 * time.Minute)
	h.try("POST", "/v1/conversations", "bo-key", ask, false)
	if n := server.LimitedUsers(h.srv); n != 1 {
		t.Errorf("after ana was idle for two minutes: %d users held, want 1 (bo)", n)
	}
}
