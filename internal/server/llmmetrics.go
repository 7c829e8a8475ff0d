package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/clarify-sql/clarify/internal/llm"
)

// modelCollector exports the language model clients' running totals, per
// source, read at each scrape (the clients count; nothing is copied in
// between).
type modelCollector struct {
	stats                                       func() map[string]llm.Snapshot
	calls, streams, retries, tokens, errs, secs *prometheus.Desc
}

func newModelCollector(stats func() map[string]llm.Snapshot) *modelCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, append([]string{"source"}, labels...), nil)
	}
	return &modelCollector{stats: stats,
		calls:   d("clarify_llm_calls_total", "Calls to the language model, by source."),
		streams: d("clarify_llm_streamed_calls_total", "Streamed calls to the language model, by source."),
		retries: d("clarify_llm_retries_total", "Retried attempts (429, 5xx, resets), by source."),
		tokens:  d("clarify_llm_tokens_total", "Tokens the endpoint reported, by source and kind (prompt, completion).", "kind"),
		errs:    d("clarify_llm_errors_total", "Failed calls, by source and kind of failure.", "kind"),
		secs:    d("clarify_llm_latency_seconds_total", "Time spent in calls to the language model, by source."),
	}
}

func (c *modelCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.calls, c.streams, c.retries, c.tokens, c.errs, c.secs} {
		ch <- d
	}
}

func (c *modelCollector) Collect(ch chan<- prometheus.Metric) {
	for src, s := range c.stats() {
		counter := func(d *prometheus.Desc, v float64, labels ...string) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, append([]string{src}, labels...)...)
		}
		counter(c.calls, float64(s.Calls))
		counter(c.streams, float64(s.Streams))
		counter(c.retries, float64(s.Retries))
		counter(c.tokens, float64(s.PromptTokens), "prompt")
		counter(c.tokens, float64(s.CompletionTokens), "completion")
		counter(c.secs, s.Latency.Seconds())
		for kind, n := range s.Errors {
			counter(c.errs, float64(n), kind)
		}
	}
}
