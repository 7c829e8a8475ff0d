package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"
)

const (
	// refetchEvery bounds fetches caused by unknown key ids.
	refetchEvery = time.Minute
	// retryFailedAfter bounds fetches while no key set could be fetched.
	retryFailedAfter = 10 * time.Second
	fetchTimeout     = 10 * time.Second
	maxDocument      = 1 << 20
	minRSABits       = 2048
)

// jwk is one usable public key from a JWKS.
type jwk struct {
	kid   string
	kty   string // RSA, EC, OKP
	curve string // P-256, P-384, Ed25519
	alg   string // optional restriction
	pub   any    // *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey
}

// keySet caches an issuer's signing keys. It fetches them on first use and
// again when a token names an unknown key id (the issuer rotated its
// keys), at most once per refetchEvery.
type keySet struct {
	issuer  string
	client  *http.Client
	now     func() time.Time
	log     *slog.Logger
	mu      sync.Mutex // held across fetches: concurrent misses share one
	jwksURL string
	keys    []*jwk
	fetched bool      // keys came from a successful fetch
	last    time.Time // last fetch attempt
}

func newKeySet(issuer, jwksURL string, client *http.Client, now func() time.Time, log *slog.Logger) *keySet {
	return &keySet{issuer: issuer, jwksURL: jwksURL, client: client, now: now, log: log}
}

// lookup returns the keys a token with key id kid may be signed with:
// the key with that id, or every key when the token names none.
func (ks *keySet) lookup(ctx context.Context, kid string) ([]*jwk, error) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if found := ks.find(kid); len(found) > 0 {
		return found, nil
	}
	wait := refetchEvery
	if !ks.fetched {
		wait = retryFailedAfter
	}
	if ks.last.IsZero() || ks.now().Sub(ks.last) >= wait {
		ks.last = ks.now()
		// A client that hangs up must not fail the fetch for everyone.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
		err := ks.fetch(fctx)
		cancel()
		if err != nil {
			ks.log.Warn("auth: fetch the identity provider's keys", "issuer", ks.issuer, "err", err)
			if !ks.fetched {
				return nil, fmt.Errorf("%w: the identity provider's keys are unavailable", ErrInvalid)
			}
		}
		if found := ks.find(kid); len(found) > 0 {
			return found, nil
		}
	}
	if !ks.fetched {
		return nil, fmt.Errorf("%w: the identity provider's keys are unavailable", ErrInvalid)
	}
	if kid == "" {
		return nil, fmt.Errorf("%w: the identity provider publishes no usable key", ErrInvalid)
	}
	return nil, fmt.Errorf("%w: token signed with unknown key id %q", ErrInvalid, shorten(kid))
}

func (ks *keySet) find(kid string) []*jwk {
	if kid == "" {
		return ks.keys
	}
	for _, k := range ks.keys {
		if k.kid == kid {
			return []*jwk{k}
		}
	}
	return nil
}

// fetch discovers the JWKS URL (once) and reads the key set.
func (ks *keySet) fetch(ctx context.Context) error {
	if ks.jwksURL == "" {
		var doc struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		u := strings.TrimSuffix(ks.issuer, "/") + "/.well-known/openid-configuration"
		if err := ks.getJSON(ctx, u, &doc); err != nil {
			return fmt.Errorf("discovery: %w", err)
		}
		if doc.Issuer != ks.issuer {
			return fmt.Errorf("discovery: the document names issuer %q, configured %q", doc.Issuer, ks.issuer)
		}
		if !strings.HasPrefix(doc.JWKSURI, "https://") && !strings.HasPrefix(doc.JWKSURI, "http://") {
			return fmt.Errorf("discovery: jwks_uri %q is not an http(s) URL", doc.JWKSURI)
		}
		ks.jwksURL = doc.JWKSURI
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := ks.getJSON(ctx, ks.jwksURL, &set); err != nil {
		return fmt.Errorf("jwks: %w", err)
	}
	var keys []*jwk
	for i, raw := range set.Keys {
		k, err := parseJWK(raw)
		if err != nil {
			ks.log.Warn("auth: skip a key of the identity provider", "issuer", ks.issuer, "index", i, "err", err)
			continue
		}
		if k != nil {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return errors.New("jwks: no usable signing key")
	}
	ks.keys, ks.fetched = keys, true
	ks.log.Info("auth: fetched the identity provider's keys", "issuer", ks.issuer, "keys", len(keys))
	return nil
}

func (ks *keySet) getJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := ks.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if len(body) > maxDocument {
		return fmt.Errorf("GET %s: larger than %d bytes", url, maxDocument)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

// parseJWK reads one JSON Web Key. It returns nil, nil for keys that are
// not for signatures or of a type never accepted (symmetric keys among
// them), so they are skipped quietly.
func parseJWK(raw json.RawMessage) (*jwk, error) {
	var j struct {
		Kty string `json:"kty"`
		Kid string `json:"kid"`
		Use string `json:"use"`
		Alg string `json:"alg"`
		N   string `json:"n"`
		E   string `json:"e"`
		Crv string `json:"crv"`
		X   string `json:"x"`
		Y   string `json:"y"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, err
	}
	if j.Use != "" && j.Use != "sig" {
		return nil, nil
	}
	if j.Alg != "" {
		if _, ok := algs[j.Alg]; !ok {
			return nil, nil
		}
	}
	k := &jwk{kid: j.Kid, kty: j.Kty, alg: j.Alg}
	switch j.Kty {
	case "RSA":
		n, err1 := b64int(j.N)
		e, err2 := b64int(j.E)
		if err1 != nil || err2 != nil || n.BitLen() < minRSABits || !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31-1 || e.Bit(0) == 0 {
			return nil, fmt.Errorf("kid %q: bad or short RSA key (want %d bits or more)", j.Kid, minRSABits)
		}
		k.pub = &rsa.PublicKey{N: n, E: int(e.Int64())}
	case "EC":
		var curve elliptic.Curve
		switch j.Crv {
		case "P-256":
			curve = elliptic.P256()
		case "P-384":
			curve = elliptic.P384()
		default:
			return nil, nil
		}
		size := (curve.Params().BitSize + 7) / 8
		x, err1 := base64.RawURLEncoding.DecodeString(j.X)
		y, err2 := base64.RawURLEncoding.DecodeString(j.Y)
		if err1 != nil || err2 != nil || len(x) != size || len(y) != size {
			return nil, fmt.Errorf("kid %q: bad EC key coordinates", j.Kid)
		}
		// ParseUncompressedPublicKey checks that the point is on the curve.
		pub, err := ecdsa.ParseUncompressedPublicKey(curve, append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, fmt.Errorf("kid %q: %w", j.Kid, err)
		}
		k.curve, k.pub = j.Crv, pub
	case "OKP":
		if j.Crv != "Ed25519" {
			return nil, nil
		}
		x, err := base64.RawURLEncoding.DecodeString(j.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("kid %q: bad Ed25519 key", j.Kid)
		}
		k.curve, k.pub = j.Crv, ed25519.PublicKey(x)
	default:
		return nil, nil // "oct" (HMAC) and unknown types are never used
	}
	return k, nil
}

func b64int(s string) (*big.Int, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 {
		return nil, errors.New("bad integer")
	}
	return new(big.Int).SetBytes(b), nil
}
