package config

import (
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// OIDC accepts bearer JWTs from an OpenID Connect provider.
type OIDC struct {
	// Issuer is the provider's issuer URL, equal to the tokens' iss
	// claim. Required.
	Issuer string `yaml:"issuer"`
	// Audience must be among the tokens' aud (this server's client id).
	// Required.
	Audience string `yaml:"audience"`
	// JWKSURL is where the signing keys are (default: discovered from
	// <issuer>/.well-known/openid-configuration).
	JWKSURL string `yaml:"jwks_url,omitempty"`
	// UserClaim names the user id claim (default sub).
	UserClaim string `yaml:"user_claim,omitempty"`
	// GroupsClaim names the groups claim, a list of strings (default
	// groups).
	GroupsClaim string `yaml:"groups_claim,omitempty"`
	// AdminGroup makes the group's members admins (default none).
	AdminGroup string `yaml:"admin_group,omitempty"`
	// Leeway tolerates clock skew on exp, nbf and iat (default 60s).
	Leeway time.Duration `yaml:"leeway,omitempty"`
}

// TrustedProxy accepts identity headers set by a reverse proxy that has
// authenticated the user (oauth2-proxy, an SSO gateway).
type TrustedProxy struct {
	// From lists the proxy's addresses or CIDRs; the headers from any
	// other address refuse the request. Required.
	From []string `yaml:"from"`
	// UserHeader carries the user id (default X-Forwarded-User).
	UserHeader string `yaml:"user_header,omitempty"`
	// GroupsHeader carries comma-separated groups (default
	// X-Forwarded-Groups).
	GroupsHeader string `yaml:"groups_header,omitempty"`
	// AdminGroup makes the group's members admins (default none).
	AdminGroup string `yaml:"admin_group,omitempty"`
}

// Prefixes parses From: each entry an address (a single-address prefix)
// or a CIDR.
func (p *TrustedProxy) Prefixes() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for i, f := range p.From {
		f = strings.TrimSpace(f)
		if a, err := netip.ParseAddr(f); err == nil && a.Zone() == "" {
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		pf, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("from[%d]: %q is neither an IP address nor a CIDR such as 10.0.0.0/8", i, f)
		}
		if pf.Addr().Is4In6() {
			if pf.Bits() < 96 {
				return nil, fmt.Errorf("from[%d]: %q mixes IPv4 and IPv6; write the IPv4 range", i, f)
			}
			pf = netip.PrefixFrom(pf.Addr().Unmap(), pf.Bits()-96)
		}
		out = append(out, pf.Masked())
	}
	return out, nil
}

// ExpiresAt parses Expires: zero when empty, midnight UTC for a date.
func (k APIKey) ExpiresAt() (time.Time, error) {
	if k.Expires == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.DateOnly, k.Expires); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, k.Expires)
	if err != nil {
		return time.Time{}, fmt.Errorf("expires must be YYYY-MM-DD or RFC 3339 (2026-12-31T18:00:00Z), got %q", k.Expires)
	}
	return t, nil
}

// validateAuth checks api_keys, oidc and trusted_proxy.
func (s *Server) validateAuth() error {
	ids := map[string]bool{}
	for i, k := range s.APIKeys {
		where := fmt.Sprintf("server.api_keys[%d]", i)
		if k.User != "" {
			where += " (" + k.User + ")"
		}
		switch {
		case strings.TrimSpace(k.User) == "":
			return fmt.Errorf("%s: a key needs a user", where)
		case k.SHA256 != "" && (k.ID != "" || k.Hash != ""):
			return fmt.Errorf("%s: give either sha256 (legacy) or id and hash, not both", where)
		case k.SHA256 != "" && !isHex(k.SHA256, 64):
			return fmt.Errorf("%s: sha256 must be the 64-hex-digit SHA-256 of the key", where)
		case k.SHA256 == "" && (k.ID == "" || k.Hash == ""):
			return fmt.Errorf("%s: a key needs id and hash (from clarify key new), or the legacy sha256", where)
		case k.Hash != "" && !strings.HasPrefix(k.Hash, "sha256$"):
			return fmt.Errorf("%s: hash must look like sha256$<salt hex>$<hash hex>", where)
		case k.ID != "" && ids[k.ID]:
			return fmt.Errorf("%s: id %s is used by another key", where, k.ID)
		}
		ids[k.ID] = k.ID != ""
		if _, err := k.ExpiresAt(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	if o := s.OIDC; o != nil {
		switch {
		case o.Issuer == "" || o.Audience == "":
			return fmt.Errorf("server.oidc: issuer and audience are required")
		case !strings.HasPrefix(o.Issuer, "https://") && !strings.HasPrefix(o.Issuer, "http://"):
			return fmt.Errorf("server.oidc: issuer %q must be an https:// URL", o.Issuer)
		case o.Leeway < 0:
			return fmt.Errorf("server.oidc: leeway must not be negative")
		}
	}
	if p := s.TrustedProxy; p != nil {
		if len(p.From) == 0 {
			return fmt.Errorf("server.trusted_proxy: from must list the proxy's addresses or CIDRs")
		}
		if _, err := p.Prefixes(); err != nil {
			return fmt.Errorf("server.trusted_proxy.%w", err)
		}
	}
	return nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
