package auth

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"net/http"
	"strings"
	"time"
)

// maxToken bounds a bearer JWT; identity tokens are a few KB at most.
const maxToken = 16 << 10

// looksLikeJWT reports whether token has three dot-separated non-empty
// base64url parts (a JWS in compact form).
func looksLikeJWT(token string) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for _, c := range p {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// header is a JWS protected header.
type header struct {
	Alg  string          `json:"alg"`
	Kid  string          `json:"kid"`
	Crit json.RawMessage `json:"crit"`
}

// token is a parsed, not yet verified, compact JWS.
type token struct {
	header       header
	claims       map[string]json.RawMessage
	signingInput []byte
	signature    []byte
}

// parseToken splits and decodes a compact JWS. It checks shape only.
func parseToken(s string) (*token, error) {
	if len(s) > maxToken {
		return nil, fmt.Errorf("%w: token longer than %d bytes", ErrInvalid, maxToken)
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%w: a token has three parts", ErrInvalid)
	}
	var raw [3][]byte
	for i, p := range parts {
		b, err := base64.RawURLEncoding.DecodeString(p)
		if err != nil {
			return nil, fmt.Errorf("%w: token part %d is not base64url", ErrInvalid, i+1)
		}
		raw[i] = b
	}
	t := &token{signingInput: []byte(parts[0] + "." + parts[1]), signature: raw[2]}
	if err := strictJSON(raw[0], &t.header); err != nil {
		return nil, fmt.Errorf("%w: token header: %v", ErrInvalid, err)
	}
	if len(t.header.Crit) > 0 {
		return nil, fmt.Errorf("%w: token header has critical extensions", ErrInvalid)
	}
	if err := strictJSON(raw[1], &t.claims); err != nil || t.claims == nil {
		return nil, fmt.Errorf("%w: token claims are not a JSON object", ErrInvalid)
	}
	return t, nil
}

// strictJSON decodes exactly one JSON value.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return errors.New("not JSON")
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// algs are the accepted signature algorithms: asymmetric only, never
// "none" nor HMAC (whose "key" would be the public key anyone has).
var algs = map[string]struct {
	kty   string
	hash  crypto.Hash
	curve string
}{
	"RS256": {"RSA", crypto.SHA256, ""},
	"RS384": {"RSA", crypto.SHA384, ""},
	"RS512": {"RSA", crypto.SHA512, ""},
	"ES256": {"EC", crypto.SHA256, "P-256"},
	"ES384": {"EC", crypto.SHA384, "P-384"},
	"EdDSA": {"OKP", 0, "Ed25519"},
}

// verifySig checks t's signature with k.
func verifySig(t *token, k *jwk) error {
	a, ok := algs[t.header.Alg]
	if !ok || a.kty != k.kty || a.curve != k.curve {
		return errors.New("key does not match the algorithm")
	}
	if k.alg != "" && k.alg != t.header.Alg {
		return errors.New("key is for another algorithm")
	}
	var digest []byte
	if a.hash != 0 {
		h := a.hash.New()
		h.Write(t.signingInput)
		digest = h.Sum(nil)
	}
	switch pub := k.pub.(type) {
	case *rsa.PublicKey:
		return rsa.VerifyPKCS1v15(pub, a.hash, digest, t.signature)
	case *ecdsa.PublicKey:
		n := (pub.Curve.Params().BitSize + 7) / 8
		if len(t.signature) != 2*n {
			return errors.New("bad ECDSA signature length")
		}
		r := new(big.Int).SetBytes(t.signature[:n])
		s := new(big.Int).SetBytes(t.signature[n:])
		if !ecdsa.Verify(pub, digest, r, s) {
			return errors.New("bad signature")
		}
		return nil
	case ed25519.PublicKey:
		if !ed25519.Verify(pub, t.signingInput, t.signature) {
			return errors.New("bad signature")
		}
		return nil
	}
	return errors.New("unsupported key")
}

// verifier checks bearer JWTs from one OpenID Connect issuer.
type verifier struct {
	cfg  OIDC
	now  func() time.Time
	keys *keySet
}

func newVerifier(cfg OIDC, client *http.Client, now func() time.Time, log *slog.Logger) (*verifier, error) {
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("oidc: issuer and audience are required")
	}
	if !strings.HasPrefix(cfg.Issuer, "https://") && !strings.HasPrefix(cfg.Issuer, "http://") {
		return nil, fmt.Errorf("oidc: issuer %q must be an http(s) URL", cfg.Issuer)
	}
	if cfg.UserClaim == "" {
		cfg.UserClaim = "sub"
	}
	if cfg.GroupsClaim == "" {
		cfg.GroupsClaim = "groups"
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = 60 * time.Second
	}
	if cfg.Leeway < 0 {
		return nil, errors.New("oidc: leeway must not be negative")
	}
	return &verifier{cfg: cfg, now: now, keys: newKeySet(cfg.Issuer, cfg.JWKSURL, client, now, log)}, nil
}

// identify verifies s and returns who it names.
func (v *verifier) identify(ctx context.Context, s string) (Identity, error) {
	t, err := parseToken(s)
	if err != nil {
		return Identity{}, err
	}
	if _, ok := algs[t.header.Alg]; !ok {
		return Identity{}, fmt.Errorf("%w: token algorithm %q is not accepted", ErrInvalid, shorten(t.header.Alg))
	}
	candidates, err := v.keys.lookup(ctx, t.header.Kid)
	if err != nil {
		return Identity{}, err
	}
	verified := false
	for _, k := range candidates {
		if verifySig(t, k) == nil {
			verified = true
			break
		}
	}
	if !verified {
		return Identity{}, fmt.Errorf("%w: token signature does not verify", ErrInvalid)
	}
	return v.claims(t.claims)
}

// claims checks the verified claims and maps them to an Identity.
func (v *verifier) claims(c map[string]json.RawMessage) (Identity, error) {
	var iss string
	if json.Unmarshal(c["iss"], &iss) != nil || iss != v.cfg.Issuer {
		return Identity{}, fmt.Errorf("%w: token issuer is not %s", ErrInvalid, v.cfg.Issuer)
	}
	if !audienceHas(c["aud"], v.cfg.Audience) {
		return Identity{}, fmt.Errorf("%w: token audience does not include %s", ErrInvalid, v.cfg.Audience)
	}
	now, leeway := v.now(), v.cfg.Leeway
	exp, ok, err := numericDate(c, "exp")
	switch {
	case err != nil:
		return Identity{}, err
	case !ok:
		return Identity{}, fmt.Errorf("%w: token has no exp claim", ErrInvalid)
	case !now.Before(exp.Add(leeway)):
		return Identity{}, fmt.Errorf("%w: token expired at %s", ErrExpired, exp.UTC().Format(time.RFC3339))
	}
	nbf, ok, err := numericDate(c, "nbf")
	if err != nil {
		return Identity{}, err
	}
	if ok && now.Add(leeway).Before(nbf) {
		return Identity{}, fmt.Errorf("%w: token not valid before %s", ErrInvalid, nbf.UTC().Format(time.RFC3339))
	}
	iat, ok, err := numericDate(c, "iat")
	if err != nil {
		return Identity{}, err
	}
	if ok && now.Add(leeway).Before(iat) {
		return Identity{}, fmt.Errorf("%w: token issued in the future (%s)", ErrInvalid, iat.UTC().Format(time.RFC3339))
	}
	var user string
	if json.Unmarshal(c[v.cfg.UserClaim], &user) != nil || user == "" {
		return Identity{}, fmt.Errorf("%w: token has no %s claim (a string)", ErrInvalid, v.cfg.UserClaim)
	}
	if err := validName(user); err != nil {
		return Identity{}, fmt.Errorf("%w: token claim %s: %v", ErrInvalid, v.cfg.UserClaim, err)
	}
	id := Identity{User: user, Method: MethodJWT}
	if raw, ok := c[v.cfg.GroupsClaim]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &id.Groups) != nil {
			return Identity{}, fmt.Errorf("%w: token claim %s is not a list of strings", ErrInvalid, v.cfg.GroupsClaim)
		}
		if len(id.Groups) > maxGroups {
			return Identity{}, fmt.Errorf("%w: token claim %s: more than %d groups", ErrInvalid, v.cfg.GroupsClaim, maxGroups)
		}
		for _, g := range id.Groups {
			if err := validName(g); err != nil {
				return Identity{}, fmt.Errorf("%w: token claim %s: %v", ErrInvalid, v.cfg.GroupsClaim, err)
			}
		}
	}
	id.Admin = hasGroup(id.Groups, v.cfg.AdminGroup)
	return id, nil
}

// audienceHas reports whether aud (a string or an array of strings)
// contains want.
func audienceHas(aud json.RawMessage, want string) bool {
	var one string
	if json.Unmarshal(aud, &one) == nil {
		return one == want
	}
	var many []string
	if json.Unmarshal(aud, &many) != nil {
		return false
	}
	for _, a := range many {
		if a == want {
			return true
		}
	}
	return false
}

// numericDate reads a JWT NumericDate claim (seconds since the epoch).
func numericDate(c map[string]json.RawMessage, name string) (time.Time, bool, error) {
	raw, ok := c[name]
	if !ok {
		return time.Time{}, false, nil
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 1e11 {
		return time.Time{}, false, fmt.Errorf("%w: token claim %s is not a date", ErrInvalid, name)
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)), true, nil
}

// shorten keeps attacker-chosen text short in messages.
func shorten(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}
