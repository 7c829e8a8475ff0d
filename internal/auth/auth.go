package auth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// Methods, as reported in Identity.Method.
const (
	MethodKey   = "key"
	MethodJWT   = "jwt"
	MethodProxy = "proxy"
)

// Errors returned by Identify, wrapped with the reason.
var (
	// ErrNoCredentials: the request carries no credentials at all.
	ErrNoCredentials = errors.New("no credentials")
	// ErrInvalid: the credentials are malformed, unknown, forged or come
	// from where they may not.
	ErrInvalid = errors.New("invalid credentials")
	// ErrExpired: the credentials were valid once and have expired.
	ErrExpired = errors.New("credentials expired")
)

// Identity is who a request is.
type Identity struct {
	// User is the stable user id (the key's user, the token's user claim,
	// the proxy's user header).
	User string
	// Groups the user belongs to, as configured or asserted; may be empty.
	Groups []string
	// Admin users may read every user's statistics.
	Admin bool
	// Method is MethodKey, MethodJWT or MethodProxy.
	Method string
}

// Config configures an Authenticator; the zero value has every method off.
type Config struct {
	// Keys are the API keys; none: API keys off.
	Keys []Key
	// OIDC accepts bearer JWTs from an OpenID Connect issuer; nil: off.
	OIDC *OIDC
	// Proxy accepts identity headers from a trusted reverse proxy; nil: off.
	Proxy *Proxy
	// Now is the clock (default time.Now).
	Now func() time.Time
	// HTTPClient fetches discovery documents and JWKS (default: a client
	// with a 10 s timeout).
	HTTPClient *http.Client
	// Log records key-set fetches and their failures (default: discard).
	Log *slog.Logger
}

// Key is one API key. A user may have several (rotation), each with its
// own ID and expiry.
type Key struct {
	// User the key stands for.
	User string
	// ID is the key's public id, part of the key text "clk_<id>_<secret>".
	ID string
	// Hash is "sha256$<salt hex>$<hex SHA-256 of salt and key text>".
	Hash string
	// SHA256 is legacy: the unsalted hex SHA-256 of the whole key text,
	// for keys made before ids existed. Set either SHA256 or ID and Hash.
	SHA256 string
	// Expires is when the key stops working; zero: never.
	Expires time.Time
	// Admin and Groups are given to the key's requests.
	Admin  bool
	Groups []string
}

// OIDC configures bearer JWTs from an OpenID Connect provider.
type OIDC struct {
	// Issuer must equal the tokens' iss claim, e.g. https://id.example.org.
	Issuer string
	// Audience must be in the tokens' aud claim (this server's client id).
	Audience string
	// JWKSURL is where the signing keys are (default: jwks_uri from
	// <Issuer>/.well-known/openid-configuration).
	JWKSURL string
	// UserClaim names the user id claim (default "sub").
	UserClaim string
	// GroupsClaim names the groups claim, a list of strings (default
	// "groups").
	GroupsClaim string
	// AdminGroup makes members of this group admins (default: none).
	AdminGroup string
	// Leeway tolerates clock skew on exp, nbf and iat (default 60 s).
	Leeway time.Duration
}

// Proxy configures identity headers set by a trusted reverse proxy.
type Proxy struct {
	// UserHeader carries the user id (default X-Forwarded-User).
	UserHeader string
	// GroupsHeader carries comma-separated groups (default
	// X-Forwarded-Groups).
	GroupsHeader string
	// AdminGroup makes members of this group admins (default: none).
	AdminGroup string
	// From are the proxy's addresses; the headers from any other address
	// refuse the request. Required.
	From []netip.Prefix
}

// Authenticator identifies requests. It is safe for concurrent use.
type Authenticator struct {
	now     func() time.Time
	log     *slog.Logger
	keys    *keyring
	oidc    *verifier
	proxy   *Proxy
	enabled bool
}

// New validates cfg and returns its Authenticator.
func New(cfg Config) (*Authenticator, error) {
	a := &Authenticator{now: cfg.Now, log: cfg.Log}
	if a.now == nil {
		a.now = time.Now
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	var err error
	if a.keys, err = newKeyring(cfg.Keys); err != nil {
		return nil, err
	}
	if cfg.OIDC != nil {
		client := cfg.HTTPClient
		if client == nil {
			client = &http.Client{Timeout: 10 * time.Second}
		}
		if a.oidc, err = newVerifier(*cfg.OIDC, client, a.now, a.log); err != nil {
			return nil, err
		}
	}
	if cfg.Proxy != nil {
		p := *cfg.Proxy
		if err := p.setDefaults(); err != nil {
			return nil, err
		}
		a.proxy = &p
	}
	a.enabled = len(cfg.Keys) > 0 || a.oidc != nil || a.proxy != nil
	return a, nil
}

// Enabled reports whether any method is configured. With none, Identify
// refuses every request; the server decides what that means (clarify serve
// then answers loopback clients as its single local user).
func (a *Authenticator) Enabled() bool { return a.enabled }

// Identify says who r is: proxy headers first (when configured and
// present), then the Authorization: Bearer token, a JWT when it has three
// dot-separated base64url parts and an API key otherwise.
func (a *Authenticator) Identify(r *http.Request) (Identity, error) {
	if a.proxy != nil {
		id, ok, err := a.proxy.identify(r)
		if err != nil || ok {
			return id, err
		}
	}
	h := r.Header.Values("Authorization")
	if len(h) == 0 {
		return Identity{}, fmt.Errorf("%w: send Authorization: Bearer with an API key or a token", ErrNoCredentials)
	}
	if len(h) > 1 {
		return Identity{}, fmt.Errorf("%w: more than one Authorization header", ErrInvalid)
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(h[0]), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return Identity{}, fmt.Errorf("%w: the Authorization scheme must be Bearer", ErrInvalid)
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return Identity{}, fmt.Errorf("%w: empty bearer token", ErrInvalid)
	}
	if looksLikeJWT(token) {
		if a.oidc == nil {
			return Identity{}, fmt.Errorf("%w: bearer tokens from an identity provider are not accepted here (no oidc configured)", ErrInvalid)
		}
		return a.oidc.identify(r.Context(), token)
	}
	return a.keys.identify(token, a.now())
}
