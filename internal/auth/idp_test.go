package auth_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testKey is a signing key of the test identity provider.
type testKey struct {
	kid    string
	alg    string
	priv   crypto.Signer
	jwkAlg string // "alg" published in the JWKS, if any
}

var (
	rsaOnce             sync.Once
	rsaKeyA, rsaKeyB    *rsa.PrivateKey
	rsaGenerateFailures error
)

// rsaKeys generates two 2048-bit RSA keys once for the whole test binary
// (slow under -race).
func rsaKeys(t *testing.T) (*rsa.PrivateKey, *rsa.PrivateKey) {
	t.Helper()
	rsaOnce.Do(func() {
		if rsaKeyA, rsaGenerateFailures = rsa.GenerateKey(rand.Reader, 2048); rsaGenerateFailures != nil {
			return
		}
		rsaKeyB, rsaGenerateFailures = rsa.GenerateKey(rand.Reader, 2048)
	})
	if rsaGenerateFailures != nil {
		t.Fatal(rsaGenerateFailures)
	}
	return rsaKeyA, rsaKeyB
}

func ecKey(t *testing.T, c elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// idp is a real HTTP OpenID Connect provider: discovery and JWKS.
type idp struct {
	srv       *httptest.Server
	mu        sync.Mutex
	keys      []testKey
	jwksFetch atomic.Int32
	// claimedIssuer, when set before the first request, is the issuer the
	// discovery document names.
	claimedIssuer string
}

func newIDP(t *testing.T, keys ...testKey) *idp {
	t.Helper()
	p := &idp{keys: keys}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		iss := p.srv.URL
		if p.claimedIssuer != "" {
			iss = p.claimedIssuer
		}
		json.NewEncoder(w).Encode(map[string]string{"issuer": iss, "jwks_uri": p.srv.URL + "/keys"})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		p.jwksFetch.Add(1)
		p.mu.Lock()
		defer p.mu.Unlock()
		var set []map[string]string
		for _, k := range p.keys {
			set = append(set, jwkOf(k))
		}
		// A symmetric key in the set must never be used.
		set = append(set, map[string]string{"kty": "oct", "kid": "hmac", "k": b64([]byte("shared"))})
		json.NewEncoder(w).Encode(map[string]any{"keys": set})
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// rotate replaces the provider's keys.
func (p *idp) rotate(keys ...testKey) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = keys
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func jwkOf(k testKey) map[string]string {
	m := jwkFields(k)
	if k.jwkAlg != "" {
		m["alg"] = k.jwkAlg
	}
	return m
}

func jwkFields(k testKey) map[string]string {
	switch pub := k.priv.Public().(type) {
	case *rsa.PublicKey:
		return map[string]string{"kty": "RSA", "kid": k.kid, "use": "sig", "n": b64(pub.N.Bytes()), "e": b64(big.NewInt(int64(pub.E)).Bytes())}
	case *ecdsa.PublicKey:
		size := (pub.Curve.Params().BitSize + 7) / 8
		x, y := make([]byte, size), make([]byte, size)
		pub.X.FillBytes(x)
		pub.Y.FillBytes(y)
		return map[string]string{"kty": "EC", "kid": k.kid, "crv": pub.Curve.Params().Name, "x": b64(x), "y": b64(y)}
	case ed25519.PublicKey:
		return map[string]string{"kty": "OKP", "kid": k.kid, "crv": "Ed25519", "x": b64(pub)}
	}
	panic("unknown key type")
}

// sign makes a compact JWS of claims with k, with header fields hdr added
// (or overriding alg and kid).
func sign(t *testing.T, k testKey, hdr map[string]any, claims map[string]any) string {
	t.Helper()
	h := map[string]any{"alg": k.alg, "typ": "JWT"}
	if k.kid != "" {
		h["kid"] = k.kid
	}
	for n, v := range hdr {
		h[n] = v
	}
	hj, _ := json.Marshal(h)
	cj, _ := json.Marshal(claims)
	input := b64(hj) + "." + b64(cj)
	return input + "." + b64(signature(t, k, h["alg"].(string), []byte(input)))
}

func signature(t *testing.T, k testKey, alg string, input []byte) []byte {
	t.Helper()
	hashes := map[string]crypto.Hash{"RS256": crypto.SHA256, "RS384": crypto.SHA384, "RS512": crypto.SHA512, "ES256": crypto.SHA256, "ES384": crypto.SHA384}
	switch priv := k.priv.(type) {
	case *rsa.PrivateKey:
		hh := hashes[alg].New()
		hh.Write(input)
		sig, err := rsa.SignPKCS1v15(rand.Reader, priv, hashes[alg], hh.Sum(nil))
		if err != nil {
			t.Fatal(err)
		}
		return sig
	case *ecdsa.PrivateKey:
		hh := hashes[alg].New()
		hh.Write(input)
		r, s, err := ecdsa.Sign(rand.Reader, priv, hh.Sum(nil))
		if err != nil {
			t.Fatal(err)
		}
		size := (priv.Curve.Params().BitSize + 7) / 8
		out := make([]byte, 2*size)
		r.FillBytes(out[:size])
		s.FillBytes(out[size:])
		return out
	case ed25519.PrivateKey:
		return ed25519.Sign(priv, input)
	}
	t.Fatalf("unknown key %T", k.priv)
	return nil
}

// hmacWithPublicKey forges an HS256 token whose "secret" is the RSA public
// key in PEM, which anyone has: the classic algorithm confusion attack.
func hmacWithPublicKey(t *testing.T, k testKey, claims map[string]any) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(k.priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	hj, _ := json.Marshal(map[string]any{"alg": "HS256", "kid": k.kid})
	cj, _ := json.Marshal(claims)
	input := b64(hj) + "." + b64(cj)
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(input))
	return input + "." + b64(m.Sum(nil))
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
