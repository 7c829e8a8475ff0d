package registry

import "github.com/clarify-sql/clarify/internal/llm"

// ModelStats returns, per opened source with a language model, its
// client's running totals (calls, tokens, errors, latency), for the
// server's metrics. Sources not opened yet have made no calls.
func (r *Registry) ModelStats() map[string]llm.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]llm.Snapshot{}
	for name, e := range r.engines {
		e.mu.Lock()
		if e.eng != nil {
			if s, ok := e.eng.ModelStats(); ok {
				out[name] = s
			}
		}
		e.mu.Unlock()
	}
	return out
}
