// Package auth answers "who is this request?" for clarify serve, and
// nothing else: which sources and rows that person may see is decided
// elsewhere, from the Identity this package returns.
//
// Three methods, tried in this order by Authenticator.Identify:
//
//  1. identity headers set by a trusted reverse proxy (believed only when
//     the connection comes from one of the configured addresses; the same
//     headers from anywhere else refuse the request);
//  2. a bearer JWT issued by an OpenID Connect provider, verified against
//     the provider's published keys (JWKS);
//  3. a bearer API key ("clk_<id>_<secret>"), found by its public id and
//     checked against a salted hash; keys configured before ids existed are
//     still found by their unsalted SHA-256 (legacy).
//
// Every refusal wraps one of ErrNoCredentials, ErrInvalid or ErrExpired with
// a reason a client may read; callers test with errors.Is.
package auth
