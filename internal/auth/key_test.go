package auth_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/auth"
)

func newKey(t *testing.T, user string, expires time.Time) (string, auth.Key) {
	t.Helper()
	text, k, err := auth.NewKey(user, expires, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return text, k
}

func TestKeys(t *testing.T) {
	t.Parallel()
	anaOld, kOld := newKey(t, "ana", t0.Add(24*time.Hour))
	anaNew, kNew := newKey(t, "ana", time.Time{})
	kNew.Groups = []string{"nurses"}
	bob, kBob := newKey(t, "bob", time.Time{})
	kBob.Admin = true
	gone, kGone := newKey(t, "carol", t0)
	legacy := "s3cret-legacy-key"
	sum := sha256.Sum256([]byte(legacy))
	kLegacy := auth.Key{User: "dave", SHA256: hex.EncodeToString(sum[:])}
	a, err := auth.New(auth.Config{Keys: []auth.Key{kOld, kNew, kBob, kGone, kLegacy}, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	// The right id with another key's secret.
	_, secretBob, _ := strings.Cut(strings.TrimPrefix(bob, "clk_"), "_")
	wrongSecret := "clk_" + kNew.ID + "_" + secretBob

	tests := []struct {
		name    string
		token   string
		want    auth.Identity
		wantErr error
		msg     string
	}{
		{name: "salted key", token: anaNew, want: auth.Identity{User: "ana", Groups: []string{"nurses"}, Method: "key"}},
		{name: "second key of the same user", token: anaOld, want: auth.Identity{User: "ana", Method: "key"}},
		{name: "admin", token: bob, want: auth.Identity{User: "bob", Admin: true, Method: "key"}},
		{name: "legacy sha256", token: legacy, want: auth.Identity{User: "dave", Method: "key"}},
		{name: "wrong secret with the right id", token: wrongSecret, wantErr: auth.ErrInvalid, msg: "not recognised"},
		{name: "expired", token: gone, wantErr: auth.ErrExpired, msg: "expired on 2026-11-25T12:00:00Z"},
		{name: "unknown id", token: "clk_0123456789abcdef_" + secretBob, wantErr: auth.ErrInvalid, msg: "not recognised"},
		{name: "legacy key with a changed letter", token: "s3cret-legacy-kez", wantErr: auth.ErrInvalid},
		{name: "too long", token: strings.Repeat("k", 600), wantErr: auth.ErrInvalid, msg: "too long"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Identify(bearer(tc.token))
			checkIdentify(t, got, err, tc.want, tc.wantErr, tc.msg)
			if err != nil && (strings.Contains(err.Error(), "carol") || strings.Contains(err.Error(), "ana")) {
				t.Errorf("error %q names a user", err)
			}
		})
	}
}

func TestNewKey(t *testing.T) {
	t.Parallel()
	rnd := bytes.NewReader(bytes.Repeat([]byte{7}, 64))
	text, k, err := auth.NewKey("ana", t0, rnd)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "clk_"+k.ID+"_") || len(text) < 40 {
		t.Errorf("key text %q does not carry its id %q", text, k.ID)
	}
	if strings.Contains(k.Hash, text[len("clk_"+k.ID+"_"):]) || !strings.HasPrefix(k.Hash, "sha256$") {
		t.Errorf("hash %q", k.Hash)
	}
	if k.User != "ana" || !k.Expires.Equal(t0) {
		t.Errorf("key %+v", k)
	}
	if _, _, err := auth.NewKey("ana", time.Time{}, bytes.NewReader(nil)); err == nil {
		t.Error("NewKey with no randomness succeeded")
	}
	if _, _, err := auth.NewKey(" ana", time.Time{}, rand.Reader); err == nil {
		t.Error("NewKey with a padded user succeeded")
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	_, k := newKey(t, "ana", time.Time{})
	tests := []struct {
		name string
		cfg  auth.Config
		msg  string
	}{
		{"key without user", auth.Config{Keys: []auth.Key{{ID: k.ID, Hash: k.Hash}}}, "user"},
		{"key without secret", auth.Config{Keys: []auth.Key{{User: "ana"}}}, "needs sha256, or id and hash"},
		{"both forms", auth.Config{Keys: []auth.Key{{User: "ana", ID: k.ID, Hash: k.Hash, SHA256: strings.Repeat("a", 64)}}}, "not both"},
		{"short sha256", auth.Config{Keys: []auth.Key{{User: "ana", SHA256: "abc"}}}, "64 hex"},
		{"bad hash", auth.Config{Keys: []auth.Key{{User: "ana", ID: "x1", Hash: "md5$00$11"}}}, "sha256$"},
		{"duplicate id", auth.Config{Keys: []auth.Key{k, k}}, "used by another key"},
		{"oidc without audience", auth.Config{OIDC: &auth.OIDC{Issuer: "https://id.example.org"}}, "audience"},
		{"proxy without from", auth.Config{Proxy: &auth.Proxy{}}, "from"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := auth.New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("New: %v, want an error saying %q", err, tc.msg)
			}
		})
	}
}

func TestBearerShape(t *testing.T) {
	t.Parallel()
	text, k := newKey(t, "ana", time.Time{})
	a, err := auth.New(auth.Config{Keys: []auth.Key{k}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Enabled() {
		t.Error("Enabled with a key = false")
	}
	if off, _ := auth.New(auth.Config{}); off.Enabled() {
		t.Error("Enabled with nothing configured = true")
	}
	tests := []struct {
		name    string
		header  []string
		wantErr error
	}{
		{"no header", nil, auth.ErrNoCredentials},
		{"basic", []string{"Basic YW5hOnB3"}, auth.ErrInvalid},
		{"empty bearer", []string{"Bearer "}, auth.ErrInvalid},
		{"two headers", []string{"Bearer " + text, "Bearer " + text}, auth.ErrInvalid},
		{"lower-case scheme", []string{"bearer " + text}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			for _, h := range tc.header {
				r.Header.Add("Authorization", h)
			}
			_, err := a.Identify(r)
			if !errors.Is(err, tc.wantErr) && !(tc.wantErr == nil && err == nil) {
				t.Fatalf("Identify: %v, want %v", err, tc.wantErr)
			}
		})
	}
}

// BenchmarkIdentifyKey measures checking an API key among 1 and 1,000
// configured keys: a key is found by its id and only its own hash is
// compared, so the cost does not grow with the number of keys.
func BenchmarkIdentifyKey(b *testing.B) {
	for _, n := range []int{1, 1000} {
		keys := make([]auth.Key, n)
		var texts []string
		for i := range keys {
			text, k, err := auth.NewKey("user", time.Time{}, rand.Reader)
			if err != nil {
				b.Fatal(err)
			}
			keys[i], texts = k, append(texts, text)
		}
		a, err := auth.New(auth.Config{Keys: keys})
		if err != nil {
			b.Fatal(err)
		}
		last := texts[n-1]
		_, secret, _ := strings.Cut(strings.TrimPrefix(last, "clk_"), "_")
		cases := []struct {
			name, token string
			ok          bool
		}{
			{"valid", last, true},
			{"wrong-secret", strings.TrimSuffix(last, secret) + strings.Repeat("x", len(secret)), false},
			{"unknown-id", "clk_0123456789abcdef_" + secret, false},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("keys=%d/%s", n, c.name), func(b *testing.B) {
				r := bearer(c.token)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Identify(r); (err == nil) != c.ok {
						b.Fatalf("Identify: %v", err)
					}
				}
			})
		}
	}
}
