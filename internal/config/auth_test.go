package config_test

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/google/go-cmp/cmp"
)

const (
	sum  = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	hash = "sha256$00112233445566778899aabbccddeeff$9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
)

func TestAuthValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		yaml    string
		wantErr string
	}{
		{name: "legacy key", yaml: "server:\n  api_keys: [{user: ana, sha256: " + sum + "}]\n"},
		{name: "salted key with groups and a date", yaml: "server:\n  api_keys: [{user: ana, id: ab12, hash: " + hash + ", expires: 2027-01-31, groups: [nurses]}]\n"},
		{name: "RFC 3339 expiry", yaml: "server:\n  api_keys: [{user: ana, id: ab12, hash: " + hash + ", expires: '2027-01-31T18:00:00+01:00'}]\n"},
		{name: "no user", yaml: "server:\n  api_keys: [{sha256: " + sum + "}]\n", wantErr: "api_keys[0]: a key needs a user"},
		{name: "no secret", yaml: "server:\n  api_keys: [{user: ana}]\n", wantErr: "a key needs id and hash (from clarify key new), or the legacy sha256"},
		{name: "id without hash", yaml: "server:\n  api_keys: [{user: ana, id: ab12}]\n", wantErr: "a key needs id and hash"},
		{name: "both forms", yaml: "server:\n  api_keys: [{user: ana, sha256: " + sum + ", id: ab12, hash: " + hash + "}]\n", wantErr: "not both"},
		{name: "short sha256", yaml: "server:\n  api_keys: [{user: ana, sha256: abc}]\n", wantErr: "64-hex-digit"},
		{name: "hash not sha256", yaml: "server:\n  api_keys: [{user: ana, id: ab12, hash: 'md5$00$11'}]\n", wantErr: "sha256$<salt hex>$<hash hex>"},
		{name: "duplicate id", yaml: "server:\n  api_keys:\n    - {user: ana, id: ab12, hash: " + hash + "}\n    - {user: bob, id: ab12, hash: " + hash + "}\n", wantErr: "api_keys[1] (bob): id ab12 is used by another key"},
		{name: "bad expiry", yaml: "server:\n  api_keys: [{user: ana, sha256: " + sum + ", expires: 31/01/2027}]\n", wantErr: "expires must be YYYY-MM-DD or RFC 3339"},
		{name: "oidc", yaml: "server:\n  oidc: {issuer: 'https://id.example.org/realms/x', audience: clarify, leeway: 30s, admin_group: admins}\n"},
		{name: "oidc without audience", yaml: "server:\n  oidc: {issuer: 'https://id.example.org'}\n", wantErr: "server.oidc: issuer and audience are required"},
		{name: "oidc issuer not a URL", yaml: "server:\n  oidc: {issuer: id.example.org, audience: c}\n", wantErr: "must be an https:// URL"},
		{name: "oidc unknown field", yaml: "server:\n  oidc: {issuer: 'https://x', audience: c, secret: s}\n", wantErr: "secret"},
		{name: "proxy", yaml: "server:\n  trusted_proxy: {from: [10.0.0.0/8, '::1', 192.0.2.7], user_header: Remote-User}\n"},
		{name: "proxy without from", yaml: "server:\n  trusted_proxy: {user_header: Remote-User}\n", wantErr: "trusted_proxy: from must list"},
		{name: "proxy from a name", yaml: "server:\n  trusted_proxy: {from: [proxy.internal]}\n", wantErr: `trusted_proxy.from[0]: "proxy.internal" is neither an IP address nor a CIDR`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := load(t, tc.yaml)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Load = %v; want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestExpiresAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{"2027-01-31", time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC)},
		{"2027-01-31T18:00:00+01:00", time.Date(2027, 1, 31, 17, 0, 0, 0, time.UTC)},
	}
	for _, tc := range tests {
		got, err := config.APIKey{Expires: tc.in}.ExpiresAt()
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ExpiresAt(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestTrustedProxyPrefixes(t *testing.T) {
	t.Parallel()
	p := config.TrustedProxy{From: []string{"10.1.2.3", "10.0.0.0/8", "::1", "::ffff:192.0.2.0/120", " 172.16.0.1/12 "}}
	got, err := p.Prefixes()
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{
		netip.MustParsePrefix("10.1.2.3/32"), netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128"),
		netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("172.16.0.0/12"),
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b netip.Prefix) bool { return a == b })); diff != "" {
		t.Errorf("Prefixes (-want +got):\n%s", diff)
	}
}
