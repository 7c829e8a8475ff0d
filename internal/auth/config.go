package auth

import (
	"fmt"

	"github.com/clarify-sql/clarify/internal/config"
)

// FromConfig converts the server section of the configuration to a Config
// (Now, HTTPClient and Log left to the caller).
func FromConfig(s config.Server) (Config, error) {
	var c Config
	for i, k := range s.APIKeys {
		exp, err := k.ExpiresAt()
		if err != nil {
			return Config{}, fmt.Errorf("server.api_keys[%d]: %w", i, err)
		}
		c.Keys = append(c.Keys, Key{
			User: k.User, ID: k.ID, Hash: k.Hash, SHA256: k.SHA256,
			Expires: exp, Admin: k.Admin, Groups: k.Groups,
		})
	}
	if o := s.OIDC; o != nil {
		c.OIDC = &OIDC{
			Issuer: o.Issuer, Audience: o.Audience, JWKSURL: o.JWKSURL,
			UserClaim: o.UserClaim, GroupsClaim: o.GroupsClaim,
			AdminGroup: o.AdminGroup, Leeway: o.Leeway,
		}
	}
	if p := s.TrustedProxy; p != nil {
		from, err := p.Prefixes()
		if err != nil {
			return Config{}, fmt.Errorf("server.trusted_proxy.%w", err)
		}
		c.Proxy = &Proxy{UserHeader: p.UserHeader, GroupsHeader: p.GroupsHeader, AdminGroup: p.AdminGroup, From: from}
	}
	return c, nil
}
