package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clarify-sql/clarify/internal/llm"
)

// metrics are the server's Prometheus metrics, in a registry of its own.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	turns    *prometheus.CounterVec
	streams  prometheus.Gauge
}

func newMetrics(modelStats func() map[string]llm.Snapshot) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "clarify_http_requests_total",
			Help: "HTTP requests by route and status."}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "clarify_http_request_duration_seconds",
			Help: "HTTP request duration by route (streams until they end).", Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 12)}, []string{"route"}),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "clarify_turns_total",
			Help: "Turns by outcome: answered, needs_clarification, failed."}, []string{"status"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Name: "clarify_sse_streams", Help: "Open event streams."}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.turns, m.streams,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if modelStats != nil {
		m.reg.MustRegister(newModelCollector(modelStats))
	}
	return m
}

func (m *metrics) handler() http.Handler { return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}) }

func (m *metrics) turn(status string) { m.turns.WithLabelValues(status).Inc() }

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush and deadlines.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// instrument counts and times a route and logs the request.
func (s *Server) instrument(route string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.code == 0 {
			rec.code = http.StatusOK
		}
		took := time.Since(start)
		s.metrics.requests.WithLabelValues(route, strconv.Itoa(rec.code)).Inc()
		s.metrics.duration.WithLabelValues(route).Observe(took.Seconds())
		s.log(r).Info("request", "method", r.Method, "route", route, "status", rec.code, "ms", float64(took.Microseconds())/1000, "user", userOf(r))
	})
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
