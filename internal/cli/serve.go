package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

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
	if _, err := parse(fs, args); err != nil {
		return usagef("%v", err)
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	listen := first(*addr, getenv("CLARIFY_ADDR"), cfg.Server.Addr, "127.0.0.1:8080")
	dsn := first(*storeDSN, getenv("CLARIFY_STORE"), cfg.Server.Store, "sqlite:"+filepath.Join(dir, "clarify.db"))
	log := slog.New(slog.NewJSONHandler(e.stderr, nil))

	var keys []server.Key
	for _, k := range cfg.Server.APIKeys {
		keys = append(keys, server.Key{User: k.User, SHA256: k.SHA256})
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	defer reg.Close()
	if err := reg.EnsureDemo(ctx); err != nil {
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
		TTL: cfg.Server.ClarificationTTL, MessageLimit: cfg.Server.MessageLimit, PollInterval: poll, Log: log})
	defer svc.Close()
	srv := server.New(svc, reg, st.Ping, server.Config{Keys: keys, AllowedOrigins: cfg.Server.AllowedOrigins, Log: log, Web: webHandler()})
	if err := srv.CheckListen(listen); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", listen, err)
	}
	hs := srv.HTTPServer(listen)
	hs.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	fmt.Fprintf(e.stdout, "clarify serving on http://%s (store %s, data %s)\n", ln.Addr(), redactDSN(dsn), dir)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing in-flight turns")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv.Shutdown(sctx) // streams end with a final event
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
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
