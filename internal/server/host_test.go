package server_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/server"
)

// TestHostAllowList: a page on a rebound name (DNS rebinding) reaches the
// server with that name in Host and its own matching Origin; it is refused
// with and without keys, while loopback names, IP addresses and configured
// names are served.
func TestHostAllowList(t *testing.T) {
	t.Parallel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	keys := []server.Key{{User: "ana", SHA256: server.HashKey("ana-key")}}
	servers := map[string]*httptest.Server{
		"local": httptest.NewServer(server.New(nil, engines{}, nil, server.Config{Log: quiet}).Handler()),
		"keys": httptest.NewServer(server.New(nil, engines{}, nil, server.Config{Keys: keys, Log: quiet,
			AllowedHosts: []string{"clarify.example.org", "Intranet.Example."}}).Handler()),
	}
	for _, ts := range servers {
		t.Cleanup(ts.Close)
	}
	for _, tc := range []struct {
		name, server, method, path, host string
		want                             int
	}{
		{"evil name", "local", "GET", "/v1/sources", "evil.example:8080", 421},
		{"evil name posting", "local", "POST", "/v1/conversations", "evil.example:8080", 421},
		{"evil name without port", "local", "GET", "/", "evil.example", 421},
		{"evil name on probes", "local", "GET", "/healthz", "evil.example:8080", 421},
		{"evil name with a key", "keys", "GET", "/v1/sources", "evil.example:8080", 421},
		{"configured name elsewhere", "local", "GET", "/v1/sources", "clarify.example.org", 421},
		{"a name ending in localhost", "local", "GET", "/v1/sources", "localhost.evil.example", 421},
		{"localhost", "local", "GET", "/v1/sources", "localhost:8080", 200},
		{"LOCALHOST", "local", "GET", "/v1/sources", "LOCALHOST", 200},
		{"127.0.0.1", "local", "GET", "/v1/sources", "127.0.0.1:8080", 200},
		{"[::1]", "local", "GET", "/v1/sources", "[::1]:8080", 200},
		{"[::1] without port", "local", "GET", "/v1/sources", "[::1]", 200},
		{"an IP address (probes)", "local", "GET", "/healthz", "10.1.2.3:8080", 200},
		{"localhost with a key", "keys", "GET", "/v1/sources", "localhost:8080", 200},
		{"configured name", "keys", "GET", "/v1/sources", "clarify.example.org", 200},
		{"configured name, other case and port", "keys", "GET", "/v1/sources", "CLARIFY.example.org:8443", 200},
		{"configured name with final dot", "keys", "GET", "/v1/sources", "intranet.example.org.", 421},
		{"configured name given with final dot", "keys", "GET", "/v1/sources", "intranet.example.", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := servers[tc.server]
			var body io.Reader
			if tc.method == "POST" {
				body = strings.NewReader(`{"question":"old wounds"}`)
			}
			req, _ := http.NewRequest(tc.method, ts.URL+tc.path, body)
			req.Host = tc.host
			if tc.host != "" {
				// a rebinding page is same-origin with its own name
				req.Header.Set("Origin", "http://"+tc.host)
				req.Header.Set("Sec-Fetch-Site", "same-origin")
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer ana-key")
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("Host %q got %d, want %d", tc.host, resp.StatusCode, tc.want)
			}
			if tc.want != 421 {
				return
			}
			var e struct {
				Error struct{ Code, Message string }
			}
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatal(err)
			}
			if e.Error.Code != "HOST_NOT_ALLOWED" || e.Error.Message == "" {
				t.Errorf("error body %+v, want code HOST_NOT_ALLOWED and a message", e.Error)
			}
			if resp.Header.Get("X-Request-Id") == "" {
				t.Error("a refusal without X-Request-Id")
			}
		})
	}
}

func TestCheckListen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		addr    string
		o       server.ListenOptions
		wantErr string
	}{
		{"loopback without keys", "127.0.0.1:8080", server.ListenOptions{}, ""},
		{"localhost without keys", "localhost:8080", server.ListenOptions{}, ""},
		{"[::1] without keys", "[::1]:8080", server.ListenOptions{}, ""},
		{"all addresses without keys", "0.0.0.0:8080", server.ListenOptions{}, "no API keys"},
		{"all addresses without keys, with TLS", ":8080", server.ListenOptions{TLS: true}, "no API keys"},
		{"keys over plain HTTP beyond loopback", "0.0.0.0:8080", server.ListenOptions{Keys: true}, "--allow-insecure-keys"},
		{"keys over plain HTTP on a LAN address", "192.168.1.5:8080", server.ListenOptions{Keys: true}, "in clear"},
		{"keys over plain HTTP, allowed", "0.0.0.0:8080", server.ListenOptions{Keys: true, AllowInsecureHTTP: true}, ""},
		{"keys over TLS", "0.0.0.0:8443", server.ListenOptions{Keys: true, TLS: true}, ""},
		{"keys over plain HTTP on loopback", "127.0.0.1:8080", server.ListenOptions{Keys: true}, ""},
		{"no port", "127.0.0.1", server.ListenOptions{}, "listen address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := server.CheckListen(tc.addr, tc.o)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("CheckListen(%q) = %v, want nil", tc.addr, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("CheckListen(%q) = %v, want an error with %q", tc.addr, err, tc.wantErr)
			}
		})
	}
}
