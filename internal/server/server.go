package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/auth"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/registry"
)

// Key maps an API key (stored as its SHA-256, never in clear) to a user.
type Key struct {
	User   string `yaml:"user" json:"user"`
	SHA256 string `yaml:"sha256" json:"sha256"`
	// Admin users see every user's statistics; others see their own.
	Admin bool `yaml:"admin,omitempty" json:"admin,omitempty"`
}

// HashKey returns the hex SHA-256 of an API key, as configured.
func HashKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

// Config tunes the server; the zero value means defaults.
type Config struct {
	// Auth says who sends each request (API keys, OIDC tokens, a trusted
	// proxy; package auth). Nil: Keys, as unsalted SHA-256 keys.
	Auth *auth.Authenticator
	// Keys are legacy API keys, used when Auth is nil; with neither the
	// server answers loopback clients only, as the single local user.
	Keys []Key
	// MaxBody bounds request bodies (default 64 KiB).
	MaxBody int64
	// Heartbeat is the interval of SSE keep-alive comments (default 15s).
	Heartbeat time.Duration
	// WriteTimeout bounds each SSE write and each JSON response (default 15s).
	WriteTimeout time.Duration
	// AllowedOrigins enables CORS for these origins (default none).
	AllowedOrigins []string
	// AllowedHosts are the names, besides loopback names and IP
	// addresses, that requests may carry in Host (default none). Other
	// names are refused with HOST_NOT_ALLOWED, against DNS rebinding.
	AllowedHosts []string
	// RateLimit bounds each user's questions per minute and turns at once
	// (default DefaultRateLimit: 30 a minute, 10 in a burst, 4 running);
	// over either the server answers 429 RATE_LIMITED with Retry-After.
	RateLimit *RateLimit
	// Access filters the sources each user is shown (the conversation
	// service enforces the same policy on every turn); nil: all.
	Access *access.Policy
	// ModelStats, when set, gives the language model clients' totals per
	// source for /metrics (registry.ModelStats).
	ModelStats func() map[string]llm.Snapshot
	// Now is the limiter's clock (default time.Now).
	Now func() time.Time
	// Web serves the chat UI at / when set.
	Web http.Handler
	// Log receives JSON logs (default slog.Default()).
	Log *slog.Logger
}

// LocalUser is the user of a server with no API keys.
const LocalUser = "local"

// Sources lists the configured sources (package registry).
type Sources interface {
	Names() []string
	Default() string
	Info(ctx context.Context, name string) (registry.Info, error)
}

// Server serves the API.
type Server struct {
	svc     *conversation.Service
	sources Sources
	cfg     Config
	authn   *auth.Authenticator // nil: no keys, loopback only, one local user
	metrics *metrics
	limits  *limiter
	ready   func(context.Context) error

	// closing is closed on shutdown: streams end with a final event
	closing   chan struct{}
	closeOnce sync.Once
	streamsMu sync.Mutex
	// open holds the streams running; drained is closed, under
	// streamsMu, once shuttingDown is set and open is empty
	open         map[*streamWriter]struct{}
	shuttingDown bool
	drained      chan struct{}
	// streamOpened, set only by tests (export_test.go), runs when a
	// stream has been registered, before it is used
	streamOpened func()
}

// New builds a server; ready reports whether the store is reachable.
func New(svc *conversation.Service, sources Sources, ready func(context.Context) error, cfg Config) *Server {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 64 << 10
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 15 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	rl := DefaultRateLimit()
	if cfg.RateLimit != nil {
		rl = *cfg.RateLimit
	}
	s := &Server{svc: svc, sources: sources, cfg: cfg, metrics: newMetrics(cfg.ModelStats), ready: ready,
		limits: newLimiter(rl, cfg.Now), closing: make(chan struct{}), open: map[*streamWriter]struct{}{}, drained: make(chan struct{})}
	s.authn = cfg.Auth
	if s.authn == nil && len(cfg.Keys) > 0 {
		ac := auth.Config{Now: cfg.Now}
		for _, k := range cfg.Keys {
			ac.Keys = append(ac.Keys, auth.Key{User: k.User, SHA256: strings.ToLower(k.SHA256), Admin: k.Admin})
		}
		a, err := auth.New(ac)
		if err != nil {
			cfg.Log.Error("API keys unusable: every request is refused", "err", err)
			a = refuseAll
		}
		s.authn = a
	}
	return s
}

// refuseAll is an authenticator with no method that lets no one in: what
// unusable keys become, rather than none.
var refuseAll = func() *auth.Authenticator {
	a, _ := auth.New(auth.Config{Keys: []auth.Key{{User: "nobody", SHA256: strings.Repeat("0", 64)}}})
	return a
}()

// authOn reports whether requests must say who they are.
func (s *Server) authOn() bool { return s.authn != nil && s.authn.Enabled() }

// isAdmin reports whether r's user may read every user's records: an
// admin identity, or the one local user of a server without keys.
func (s *Server) isAdmin(r *http.Request) bool {
	if !s.authOn() {
		return true
	}
	a, _ := r.Context().Value(adminKey).(bool)
	return a
}

// Shutdown ends open event streams with a final event and waits for them,
// or for ctx to end. It starts no goroutine: nothing of it outlives it.
func (s *Server) Shutdown(ctx context.Context) {
	s.closeOnce.Do(func() { close(s.closing) })
	s.streamsMu.Lock()
	if !s.shuttingDown {
		s.shuttingDown = true
		s.drainedIfEmpty()
	}
	open := make([]*streamWriter, 0, len(s.open))
	for sw := range s.open {
		open = append(open, sw)
	}
	s.streamsMu.Unlock()
	for _, sw := range open {
		sw.shutdown()
	}
	select {
	case <-s.drained:
	case <-ctx.Done():
	}
}

// drainedIfEmpty closes drained when the last stream of a shutdown has
// ended. streamsMu is held and shuttingDown set.
func (s *Server) drainedIfEmpty() {
	if len(s.open) == 0 {
		close(s.drained)
	}
}

// HTTPServer returns an http.Server with the timeouts the API needs: a
// ReadHeaderTimeout and a body read timeout; no global write timeout (SSE
// writes set their own deadlines through http.ResponseController).
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.cfg.Log.Handler(), slog.LevelWarn),
	}
}

// ListenOptions say how the server is reached, for CheckListen.
type ListenOptions struct {
	// Keys is set when API keys are configured.
	Keys bool
	// TLS is set when the server serves HTTPS.
	TLS bool
	// AllowInsecureHTTP lets API keys travel over plain HTTP beyond
	// loopback (behind a proxy that terminates TLS, say).
	AllowInsecureHTTP bool
}

// CheckListen refuses to serve beyond loopback without API keys, and
// refuses API keys over plain HTTP beyond loopback unless allowed.
// It runs before anything is opened, so it needs no Server.
func CheckListen(addr string, o ListenOptions) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && ip.IsLoopback() {
		return nil
	}
	if !o.Keys {
		return fmt.Errorf("no API keys are configured: listen on a loopback address (127.0.0.1), not %q", addr)
	}
	if !o.TLS && !o.AllowInsecureHTTP {
		return fmt.Errorf("API keys would travel in clear on %q: serve TLS (--tls-cert and --tls-key), "+
			"listen on loopback, or set --allow-insecure-keys (server.allow_insecure_http) behind a TLS proxy", addr)
	}
	return nil
}

type ctxKey int

const (
	userKey ctxKey = iota
	requestIDKey
	adminKey
)

func userOf(r *http.Request) string {
	u, _ := r.Context().Value(userKey).(string)
	return u
}

// whoOf is the request's identity for access rules.
func whoOf(r *http.Request) access.Who { return access.WhoFrom(r.Context(), userOf(r)) }

func (s *Server) log(r *http.Request) *slog.Logger {
	id, _ := r.Context().Value(requestIDKey).(string)
	return s.cfg.Log.With("request_id", id)
}

func requestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Handler returns the API with its middleware: request ids and logs,
// the Host allow-list, metrics, CORS (off by default), cross-origin
// protection, body limits, authentication, and per-user rate limits on
// the requests that start a turn.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h http.HandlerFunc) {
		mux.Handle(pattern, s.instrument(pattern, s.auth(h)))
	}
	// turn-starting requests count against the user's rate limit
	turn := func(pattern string, h http.HandlerFunc) { api(pattern, s.limitTurn(withAuditRequestID(h))) }
	turn("POST /v1/conversations", s.ask)
	api("GET /v1/conversations", s.list)
	// other methods on the collection: 405, not the catch-all's 404
	mux.Handle("/v1/conversations", s.instrument("/v1/conversations", methodNotAllowed("GET, POST")))
	turn("POST /v1/conversations/{id}/messages", s.send)
	turn("POST /v1/conversations/{id}/assumptions/{slot}", s.change)
	api("GET /v1/conversations/{id}", s.get)
	api("DELETE /v1/conversations/{id}", s.delete)
	api("GET /v1/conversations/{id}/events", withAuditRequestID(s.events)) // may resume a turn
	api("GET /v1/sources", s.listSources)
	api("GET /v1/preferences", s.preferences)
	api("DELETE /v1/preferences/{key...}", s.forget)
	api("PUT /v1/preferences/never_ask", s.neverAsk)
	api("GET /v1/stats", s.stats)
	api("GET /v1/audit", s.audit)
	// with keys, the API's description and the metrics (users, sources,
	// error rates) need a key too; probes keep /healthz and /readyz
	mux.Handle("GET /v1/openapi.json", s.instrument("GET /v1/openapi.json", s.auth(serveOpenAPI)))
	mux.Handle("GET /healthz", s.instrument("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})))
	mux.Handle("GET /readyz", s.instrument("GET /readyz", http.HandlerFunc(s.readyz)))
	mux.Handle("GET /metrics", s.auth(s.metrics.handler().ServeHTTP))
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, apperr.CodeNotFound, "no such endpoint")
	})
	if s.cfg.Web != nil {
		mux.Handle("/", s.cfg.Web)
	}
	var h http.Handler = mux
	h = s.cors(h)
	cop := http.NewCrossOriginProtection()
	for _, o := range s.cfg.AllowedOrigins {
		_ = cop.AddTrustedOrigin(o)
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, apperr.CodeForbidden, "cross-origin request refused")
	}))
	h = cop.Handler(h)
	h = s.checkHost(h)
	return s.withRequestID(h)
}

// checkHost refuses requests whose Host is not a loopback name, an IP
// address or a configured name. A page on a name its attacker controls,
// resolved again to this server (DNS rebinding), sends that name in Host;
// an IP address cannot be rebound, so probes and scrapers that use one pass.
func (s *Server) checkHost(next http.Handler) http.Handler {
	allowed := map[string]bool{"localhost": true}
	for _, h := range s.cfg.AllowedHosts {
		allowed[normalHost(h)] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := hostOnly(r.Host)
		if host == "" || !allowed[normalHost(host)] && net.ParseIP(host) == nil {
			s.log(r).Warn("host not allowed", "host", r.Host)
			writeError(w, apperr.CodeHostNotAllowed, "this server does not answer to the name "+strconv.Quote(r.Host)+"; add it to server.allowed_hosts")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostOnly strips the port and IPv6 brackets from a Host header.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// normalHost lower-cases a name and drops a final dot.
func normalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			id = requestID()
		}
		w.Header().Set("X-Request-Id", id)
		ctx := context.WithValue(r.Context(), requestIDKey, id)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// cors answers CORS only for configured origins (off by default).
func (s *Server) cors(next http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, o := range s.cfg.AllowedOrigins {
		allowed[o] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && allowed[o] {
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Vary", "Origin")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Last-Event-ID, Accept")
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
			if r.Method == http.MethodOptions {
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// auth says who the request is (package auth) and puts the identity in
// its context; with no authentication configured, every (loopback)
// request is the local user.
func (s *Server) auth(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := auth.Identity{User: LocalUser}
		if s.authOn() {
			var err error
			id, err = s.authn.Identify(r)
			if err != nil {
				msg := "a valid API key or token is required (Authorization: Bearer KEY)"
				if errors.Is(err, auth.ErrExpired) {
					msg = "this key or token has expired; ask for a new one"
				}
				s.log(r).Info("request not authenticated", "err", err)
				w.Header().Set("WWW-Authenticate", `Bearer realm="clarify"`)
				writeError(w, apperr.CodeUnauthorized, msg)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		ctx := context.WithValue(r.Context(), userKey, id.User)
		ctx = context.WithValue(ctx, adminKey, id.Admin)
		ctx = access.WithWho(ctx, access.Who{User: id.User, Groups: id.Groups})
		next(w, r.WithContext(ctx))
	})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if s.ready != nil {
		if err := s.ready(ctx); err != nil {
			s.log(r).Warn("not ready", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
	}
	select {
	case <-s.closing:
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "shutting down"})
		return
	default:
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

var errShutdown = errors.New("server shutting down")
