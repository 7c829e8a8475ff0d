package auth_test

import (
	"context"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/auth"
	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func bearer(token string) *http.Request {
	r := httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/v1/sources", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

func newOIDC(t *testing.T, p *idp, c *clock, adjust func(*auth.OIDC)) *auth.Authenticator {
	t.Helper()
	o := &auth.OIDC{Issuer: p.srv.URL, Audience: "clarify", AdminGroup: "clarify-admins"}
	if adjust != nil {
		adjust(o)
	}
	a, err := auth.New(auth.Config{OIDC: o, Now: c.Now, HTTPClient: p.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestJWT(t *testing.T) {
	t.Parallel()
	ra, _ := rsaKeys(t)
	_, edPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rs := testKey{kid: "rsa-1", alg: "RS256", priv: ra}
	es := testKey{kid: "ec-1", alg: "ES256", priv: ecKey(t, elliptic.P256())}
	es384 := testKey{kid: "ec-2", alg: "ES384", priv: ecKey(t, elliptic.P384())}
	ed := testKey{kid: "ed-1", alg: "EdDSA", priv: edPriv}
	p := newIDP(t, rs, es, es384, ed)
	stranger := testKey{kid: "rsa-1", alg: "ES256", priv: ecKey(t, elliptic.P256())} // not published
	c := &clock{now: t0}
	a := newOIDC(t, p, c, nil)

	claims := func(change map[string]any) map[string]any {
		m := map[string]any{
			"iss": p.srv.URL, "aud": "clarify", "sub": "ana",
			"iat": t0.Add(-time.Minute).Unix(), "nbf": t0.Add(-time.Minute).Unix(), "exp": t0.Add(time.Hour).Unix(),
		}
		for k, v := range change {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
	tamper := func(tok string) string {
		parts := strings.Split(tok, ".")
		payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
		payload = []byte(strings.Replace(string(payload), `"sub":"ana"`, `"sub":"bob"`, 1))
		return parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]
	}
	unsigned := func(alg string) string {
		return b64([]byte(`{"alg":"`+alg+`","kid":"rsa-1"}`)) + "." + b64([]byte(`{"iss":"`+p.srv.URL+`","aud":"clarify","sub":"root","exp":9999999999}`)) + "." + b64([]byte("x"))
	}

	tests := []struct {
		name    string
		token   string
		want    auth.Identity
		wantErr error
		msg     string // in the error
	}{
		{name: "RS256", token: sign(t, rs, nil, claims(nil)), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "RS512 with the same key", token: sign(t, rs, map[string]any{"alg": "RS512"}, claims(nil)), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "ES256", token: sign(t, es, nil, claims(nil)), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "ES384", token: sign(t, es384, nil, claims(nil)), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "EdDSA", token: sign(t, ed, nil, claims(nil)), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "no kid: every key is tried", token: sign(t, testKey{alg: "ES256", priv: es.priv}, nil, claims(nil)), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "audience array and groups, admin", token: sign(t, rs, nil, claims(map[string]any{"aud": []string{"other", "clarify"}, "groups": []string{"nurses", "clarify-admins"}})),
			want: auth.Identity{User: "ana", Groups: []string{"nurses", "clarify-admins"}, Admin: true, Method: "jwt"}},
		{name: "within the leeway after exp", token: sign(t, rs, nil, claims(map[string]any{"exp": t0.Add(-30 * time.Second).Unix()})), want: auth.Identity{User: "ana", Method: "jwt"}},
		{name: "expired", token: sign(t, rs, nil, claims(map[string]any{"exp": t0.Add(-2 * time.Minute).Unix()})), wantErr: auth.ErrExpired, msg: "expired"},
		{name: "no exp", token: sign(t, rs, nil, claims(map[string]any{"exp": nil})), wantErr: auth.ErrInvalid, msg: "no exp"},
		{name: "not yet valid", token: sign(t, rs, nil, claims(map[string]any{"nbf": t0.Add(5 * time.Minute).Unix()})), wantErr: auth.ErrInvalid, msg: "not valid before"},
		{name: "issued in the future", token: sign(t, rs, nil, claims(map[string]any{"iat": t0.Add(time.Hour).Unix()})), wantErr: auth.ErrInvalid, msg: "future"},
		{name: "wrong issuer", token: sign(t, rs, nil, claims(map[string]any{"iss": "https://evil.example"})), wantErr: auth.ErrInvalid, msg: "issuer"},
		{name: "wrong audience", token: sign(t, rs, nil, claims(map[string]any{"aud": "someone-else"})), wantErr: auth.ErrInvalid, msg: "audience"},
		{name: "wrong audience in an array", token: sign(t, rs, nil, claims(map[string]any{"aud": []string{"a", "b"}})), wantErr: auth.ErrInvalid, msg: "audience"},
		{name: "alg none", token: unsigned("none"), wantErr: auth.ErrInvalid, msg: `"none"`},
		{name: "alg none without signature", token: strings.TrimSuffix(unsigned("none"), b64([]byte("x"))) + "", wantErr: auth.ErrInvalid},
		{name: "HS256 signed with the public key", token: hmacWithPublicKey(t, rs, claims(nil)), wantErr: auth.ErrInvalid, msg: `"HS256"`},
		{name: "alg switched to ES256 on an RSA key id", token: sign(t, stranger, nil, claims(nil)), wantErr: auth.ErrInvalid, msg: "signature"},
		{name: "tampered payload", token: tamper(sign(t, rs, nil, claims(nil))), wantErr: auth.ErrInvalid, msg: "signature"},
		{name: "missing user claim", token: sign(t, rs, nil, claims(map[string]any{"sub": nil})), wantErr: auth.ErrInvalid, msg: "sub"},
		{name: "groups not a list", token: sign(t, rs, nil, claims(map[string]any{"groups": "admins"})), wantErr: auth.ErrInvalid, msg: "groups"},
		{name: "unprintable user", token: sign(t, rs, nil, claims(map[string]any{"sub": "ana\x00"})), wantErr: auth.ErrInvalid, msg: "unprintable"},
		{name: "crit header", token: sign(t, rs, map[string]any{"crit": []string{"exp"}}, claims(nil)), wantErr: auth.ErrInvalid, msg: "critical"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Identify(bearer(tc.token))
			checkIdentify(t, got, err, tc.want, tc.wantErr, tc.msg)
		})
	}
}

func TestJWTClaimNames(t *testing.T) {
	t.Parallel()
	ra, _ := rsaKeys(t)
	rs := testKey{kid: "r", alg: "RS384", priv: ra}
	p := newIDP(t, rs)
	c := &clock{now: t0}
	a := newOIDC(t, p, c, func(o *auth.OIDC) {
		o.UserClaim, o.GroupsClaim, o.AdminGroup = "email", "roles", "boss"
		o.JWKSURL = p.srv.URL + "/keys" // no discovery
	})
	tok := sign(t, rs, nil, map[string]any{"iss": p.srv.URL, "aud": "clarify", "sub": "123", "email": "ana@example.org", "roles": []string{"boss"}, "exp": t0.Add(time.Minute).Unix()})
	got, err := a.Identify(bearer(tok))
	if err != nil {
		t.Fatal(err)
	}
	want := auth.Identity{User: "ana@example.org", Groups: []string{"boss"}, Admin: true, Method: "jwt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("identity (-want +got):\n%s", diff)
	}
}

// TestJWTKeyRotation: a token signed with a key id the cache does not know
// refetches the JWKS, at most once a minute.
func TestJWTKeyRotation(t *testing.T) {
	t.Parallel()
	ra, rb := rsaKeys(t)
	old := testKey{kid: "2026-01", alg: "RS256", priv: ra}
	next := testKey{kid: "2026-02", alg: "RS256", priv: rb}
	p := newIDP(t, old)
	c := &clock{now: t0}
	a := newOIDC(t, p, c, nil)
	claims := func() map[string]any {
		return map[string]any{"iss": p.srv.URL, "aud": "clarify", "sub": "ana", "exp": c.Now().Add(time.Hour).Unix()}
	}
	step := func(name string, k testKey, wantErr error, wantFetches int32) {
		t.Helper()
		_, err := a.Identify(bearer(sign(t, k, nil, claims())))
		if !errors.Is(err, wantErr) && !(wantErr == nil && err == nil) {
			t.Fatalf("%s: Identify error %v, want %v", name, err, wantErr)
		}
		if got := p.jwksFetch.Load(); got != wantFetches {
			t.Fatalf("%s: %d JWKS fetches, want %d", name, got, wantFetches)
		}
	}
	step("first token fetches", old, nil, 1)
	step("known kid is cached", old, nil, 1)
	p.rotate(old, next)
	c.Add(2 * time.Minute)
	step("new kid refetches", next, nil, 2)
	stray := testKey{kid: "unknown", alg: "ES256", priv: ecKey(t, elliptic.P256())}
	c.Add(10 * time.Second)
	step("unknown kid within a minute: no fetch", stray, auth.ErrInvalid, 2)
	c.Add(time.Minute)
	step("unknown kid a minute later: one fetch", stray, auth.ErrInvalid, 3)
	p.rotate(next)
	step("still fine with the new key", next, nil, 3)
}

func TestJWTProviderDown(t *testing.T) {
	t.Parallel()
	ra, _ := rsaKeys(t)
	rs := testKey{kid: "r", alg: "RS256", priv: ra}
	p := newIDP(t, rs)
	c := &clock{now: t0}
	a := newOIDC(t, p, c, func(o *auth.OIDC) { o.Issuer = p.srv.URL + "/realms/other" })
	tok := sign(t, rs, nil, map[string]any{"iss": p.srv.URL + "/realms/other", "aud": "clarify", "sub": "ana", "exp": t0.Add(time.Hour).Unix()})
	_, err := a.Identify(bearer(tok))
	if !errors.Is(err, auth.ErrInvalid) || !strings.Contains(err.Error(), "unavailable") {
		t.Fatalf("Identify with no discovery document: %v, want ErrInvalid saying the keys are unavailable", err)
	}
}

// TestJWTDiscoveryIssuer: a discovery document naming another issuer is
// not believed (OpenID Connect Discovery 1.0, section 4.3).
func TestJWTDiscoveryIssuer(t *testing.T) {
	t.Parallel()
	ra, _ := rsaKeys(t)
	rs := testKey{kid: "r", alg: "RS256", priv: ra}
	p := newIDP(t, rs)
	p.claimedIssuer = "https://evil.example"
	a := newOIDC(t, p, &clock{now: t0}, nil)
	tok := sign(t, rs, nil, map[string]any{"iss": p.srv.URL, "aud": "clarify", "sub": "ana", "exp": t0.Add(time.Hour).Unix()})
	if _, err := a.Identify(bearer(tok)); !errors.Is(err, auth.ErrInvalid) || !strings.Contains(err.Error(), "unavailable") {
		t.Fatalf("Identify: %v, want ErrInvalid saying the keys are unavailable", err)
	}
}

// TestJWTKeyAlgorithm: a key the JWKS restricts to one algorithm verifies
// no other.
func TestJWTKeyAlgorithm(t *testing.T) {
	t.Parallel()
	ra, _ := rsaKeys(t)
	rs := testKey{kid: "r", alg: "RS256", priv: ra, jwkAlg: "RS512"}
	p := newIDP(t, rs)
	a := newOIDC(t, p, &clock{now: t0}, nil)
	claims := map[string]any{"iss": p.srv.URL, "aud": "clarify", "sub": "ana", "exp": t0.Add(time.Hour).Unix()}
	if _, err := a.Identify(bearer(sign(t, rs, map[string]any{"alg": "RS512"}, claims))); err != nil {
		t.Fatalf("RS512 with an RS512 key: %v", err)
	}
	if _, err := a.Identify(bearer(sign(t, rs, nil, claims))); !errors.Is(err, auth.ErrInvalid) {
		t.Fatalf("RS256 with an RS512 key: %v, want ErrInvalid", err)
	}
}

func TestJWTOff(t *testing.T) {
	t.Parallel()
	a, err := auth.New(auth.Config{Keys: []auth.Key{{User: "ana", SHA256: strings.Repeat("0", 64)}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Identify(bearer("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2ln"))
	if !errors.Is(err, auth.ErrInvalid) || !strings.Contains(err.Error(), "oidc") {
		t.Fatalf("JWT without oidc: %v", err)
	}
}

func FuzzParseToken(f *testing.F) {
	for _, s := range []string{
		"a.b.c", "..", "eyJhbGciOiJub25lIn0.e30.", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2ln",
		"eyJhbGciOiJSUzI1NiIsImNyaXQiOlsiYSJdfQ.e30.eA", "e30.bnVsbA.eA", "W10.W10.W10",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := auth.ParseToken(s)
		if err != nil && !errors.Is(err, auth.ErrInvalid) {
			t.Fatalf("ParseToken(%q) = %v, want nil or ErrInvalid", s, err)
		}
	})
}
