package llm

import (
	"maps"
	"sync"
	"time"
)

// Call is what one call cost, passed to Config.OnCall for metrics.
type Call struct {
	Model            string
	Stream           bool
	Usage            Usage
	Latency          time.Duration
	TimeToFirstToken time.Duration
	Attempts         int
	// Err is the call's error, nil on success; KindName(Err) is its label.
	Err error
}

// Snapshot is a client's counters at one moment, for a metrics collector.
type Snapshot struct {
	Calls            int64
	Streams          int64
	Retries          int64
	PromptTokens     int64
	CompletionTokens int64
	// Errors counts failed calls by KindName.
	Errors map[string]int64
	// Latency is the sum of the calls' latencies.
	Latency time.Duration
}

// Stats accumulates a client's counters.
type Stats struct {
	mu sync.Mutex
	s  Snapshot
}

func newStats() *Stats { return &Stats{s: Snapshot{Errors: map[string]int64{}}} }

func (st *Stats) snapshot() Snapshot {
	st.mu.Lock()
	defer st.mu.Unlock()
	s := st.s
	s.Errors = maps.Clone(st.s.Errors)
	return s
}

func (st *Stats) retry() {
	st.mu.Lock()
	st.s.Retries++
	st.mu.Unlock()
}

func (c *Client) record(call Call) {
	st := c.stats
	st.mu.Lock()
	st.s.Calls++
	if call.Stream {
		st.s.Streams++
	}
	st.s.PromptTokens += int64(call.Usage.PromptTokens)
	st.s.CompletionTokens += int64(call.Usage.CompletionTokens)
	st.s.Latency += call.Latency
	if call.Err != nil {
		st.s.Errors[KindName(call.Err)]++
	}
	st.mu.Unlock()
	if c.cfg.OnCall != nil {
		c.cfg.OnCall(call)
	}
}
