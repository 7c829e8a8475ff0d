package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/auth"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/store"
)

// serve runs the HTTP API (and the web chat) until ctx ends, then shuts
// down gracefully: in-flight turns finish, streams end with a final event.
func (e *env) serve(ctx context.Context, args []string) error {
	fs := newFlagSet("serve", e)
	var c common
	c.register(fs)
	addr := fs.String("addr", "", "listen address (env CLARIFY_ADDR, default 127.0.0.1:8080)")
	storeDSN := fs.String("store", "", "store: sqlite:PATH or postgres://… (env CLARIFY_STORE, default sqlite:DATA_DIR/clarify.db)")
	tlsCert := fs.String("tls-cert", "", "serve HTTPS with this PEM certificate (with --tls-key)")
	tlsKey := fs.String("tls-key", "", "the PEM private key of --tls-cert")
	insecure := fs.Bool("allow-insecure-keys", false, "allow API keys over plain HTTP beyond loopback (behind a TLS proxy)")
	var hosts []string
	fs.Func("allowed-host", "a name clients may use in Host besides loopback names and IP addresses (repeatable)", func(v string) error {
		hosts = append(hosts, v)
		return nil
	})
	if _, err := parse(fs, args); err != nil {
		return err
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	listen := first(*addr, getenv("CLARIFY_ADDR"), cfg.Server.Addr, "127.0.0.1:8080")
	if *tlsCert != "" || *tlsKey != "" {
		cfg.Server.TLSCert, cfg.Server.TLSKey = *tlsCert, *tlsKey
	}
	if *insecure {
		cfg.Server.AllowInsecureHTTP = true
	}
	cfg.Server.AllowedHosts = append(cfg.Server.AllowedHosts, hosts...)
	if err := cfg.Validate(); err != nil {
		return usagef("%v", err)
	}
	tlsConf, err := loadTLS(cfg.Server.TLSCert, cfg.Server.TLSKey)
	if err != nil {
		return err
	}
	dsn := first(*storeDSN, getenv("CLARIFY_STORE"), cfg.Server.Store, "sqlite:"+filepath.Join(dir, "clarify.db"))
	log := slog.New(slog.NewJSONHandler(e.stderr, nil))

	ac, err := auth.FromConfig(cfg.Server)
	if err != nil {
		return err
	}
	ac.Log = log
	authn, err := auth.New(ac)
	if err != nil {
		return fmt.Errorf("authentication: %w", err)
	}
	policy := access.New(cfg.Access)
	if policy.Restricts() && !authn.Enabled() {
		return fmt.Errorf("access rules need to know who is asking: configure server.api_keys (clarify key new), server.oidc or server.trusted_proxy")
	}
	// checked before anything is opened or generated
	err = server.CheckListen(listen, server.ListenOptions{Keys: authn.Enabled(), TLS: tlsConf != nil,
		AllowInsecureHTTP: cfg.Server.AllowInsecureHTTP})
	if err != nil {
		return err
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	defer reg.Close()
	if err := e.ensureDemo(ctx, reg, cfg, dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create data directory %s: %w", dir, err)
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	// a SQLite store serves one instance, whose followers hear events live;
	// PostgreSQL followers also poll for events other instances write
	poll := 300 * time.Millisecond
	if strings.HasPrefix(dsn, "sqlite:") {
		poll = 5 * time.Second
	}
	svc := conversation.New(registry.Engines{Registry: reg}, st, conversation.Options{
		TTL: cfg.Server.ClarificationTTL, MessageLimit: cfg.Server.MessageLimit, LockTTL: cfg.Server.LeaseTTL, PollInterval: poll, Log: log,
		Keep: time.Duration(cfg.Conversations.Keep), AuditKeep: time.Duration(cfg.Audit.Keep), Access: policy})
	defer svc.Close()
	srv := server.New(svc, reg, st.Ping, server.Config{Auth: authn, Access: policy, ModelStats: reg.ModelStats, AllowedOrigins: cfg.Server.AllowedOrigins,
		AllowedHosts: cfg.Server.AllowedHosts, RateLimit: rateLimit(cfg.Server.RateLimit), Log: log, Web: webHandler()})
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", listen, err)
	}
	hs := srv.HTTPServer(listen)
	hs.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	scheme := "http"
	if tlsConf != nil {
		scheme = "https"
		hs.TLSConfig = tlsConf
	}
	fmt.Fprintf(e.stdout, "clarify serving on %s://%s (store %s, data %s)\n", scheme, ln.Addr(), redactDSN(dsn), dir)
	errc := make(chan error, 1)
	go func() {
		if tlsConf != nil {
			errc <- hs.ServeTLS(ln, "", "") // the certificate is in hs.TLSConfig
			return
		}
		errc <- hs.Serve(ln)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing in-flight turns")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv.Shutdown(sctx) // streams end with a final event
	serr := hs.Shutdown(sctx)
	if serr != nil {
		hs.Close() // the deadline passed: drop what is left
	}
	<-errc // the serving goroutine has returned (ErrServerClosed)
	if serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", serr)
	}
	return nil
}

// loadTLS reads a certificate and its key; with neither, nil (plain HTTP).
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("load TLS certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// redactDSN hides a password in a DSN shown to people.
func redactDSN(dsn string) string {
	if u, err := parseURL(dsn); err == nil && u != "" {
		return u
	}
	return dsn
}

// rateLimit is the server's rate limit from the config's: the default
// for each absent field, the configured value (0: off) for the others.
func rateLimit(c config.RateLimit) *server.RateLimit {
	rl := server.DefaultRateLimit()
	for _, f := range []struct {
		from *int
		to   *int
	}{{c.QuestionsPerMinute, &rl.QuestionsPerMinute}, {c.Burst, &rl.Burst}, {c.ConcurrentTurns, &rl.ConcurrentTurns}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	return &rl
}
