package auth_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/auth"
)

func TestProxy(t *testing.T) {
	t.Parallel()
	text, k := newKey(t, "svc", time.Time{})
	a, err := auth.New(auth.Config{
		Keys: []auth.Key{k},
		Proxy: &auth.Proxy{AdminGroup: "ops", From: []netip.Prefix{
			netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8"),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		remote  string
		headers map[string]string
		want    auth.Identity
		wantErr error
		msg     string
	}{
		{name: "trusted address", remote: "10.1.2.3:5555", headers: map[string]string{"X-Forwarded-User": " ana ", "X-Forwarded-Groups": "nurses, ops,"},
			want: auth.Identity{User: "ana", Groups: []string{"nurses", "ops"}, Admin: true, Method: "proxy"}},
		{name: "trusted IPv6 address", remote: "[fd00::1]:443", headers: map[string]string{"X-Forwarded-User": "ana"},
			want: auth.Identity{User: "ana", Method: "proxy"}},
		{name: "IPv4-mapped trusted address", remote: "[::ffff:10.0.0.1]:80", headers: map[string]string{"X-Forwarded-User": "ana"},
			want: auth.Identity{User: "ana", Method: "proxy"}},
		{name: "untrusted address", remote: "192.0.2.7:5555", headers: map[string]string{"X-Forwarded-User": "ana"}, wantErr: auth.ErrInvalid, msg: "only from the trusted proxy, not from 192.0.2.7"},
		{name: "untrusted address with a valid key too", remote: "192.0.2.7:5555", headers: map[string]string{"X-Forwarded-User": "ana", "Authorization": "Bearer " + text}, wantErr: auth.ErrInvalid, msg: "trusted proxy"},
		{name: "groups alone from an untrusted address", remote: "192.0.2.7:5555", headers: map[string]string{"X-Forwarded-Groups": "ops"}, wantErr: auth.ErrInvalid, msg: "X-Forwarded-Groups"},
		{name: "missing header: no credentials", remote: "10.1.2.3:5555", wantErr: auth.ErrNoCredentials},
		{name: "missing header: bearer key still works", remote: "10.1.2.3:5555", headers: map[string]string{"Authorization": "Bearer " + text}, want: auth.Identity{User: "svc", Method: "key"}},
		{name: "empty user header", remote: "10.1.2.3:5555", headers: map[string]string{"X-Forwarded-User": "  "}, wantErr: auth.ErrInvalid, msg: "empty"},
		{name: "control character", remote: "10.1.2.3:5555", headers: map[string]string{"X-Forwarded-User": "ana\x7f"}, wantErr: auth.ErrInvalid, msg: "unprintable"},
		{name: "too long", remote: "10.1.2.3:5555", headers: map[string]string{"X-Forwarded-User": strings.Repeat("a", 300)}, wantErr: auth.ErrInvalid, msg: "longer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tc.remote
			for h, v := range tc.headers {
				r.Header.Set(h, v)
			}
			got, err := a.Identify(r)
			checkIdentify(t, got, err, tc.want, tc.wantErr, tc.msg)
		})
	}
}

// TestProxyTwoUserHeaders: a proxy that appends rather than replaces the
// header would let a client's own value through; refuse.
func TestProxyTwoUserHeaders(t *testing.T) {
	t.Parallel()
	a, err := auth.New(auth.Config{Proxy: &auth.Proxy{UserHeader: "Remote-User", From: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "127.0.0.1:1"
	r.Header.Add("Remote-User", "mallory")
	r.Header.Add("Remote-User", "ana")
	if _, err := a.Identify(r); !errors.Is(err, auth.ErrInvalid) {
		t.Fatalf("two user headers: %v, want ErrInvalid", err)
	}
}
