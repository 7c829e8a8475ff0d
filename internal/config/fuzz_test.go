package config_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/clarify-sql/clarify/internal/config"
)

// FuzzConfig: any bytes give an error or a Config that validates, whose
// paths are all absolute or not files, and that reads the same when its
// paths are resolved again; never a panic.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"",
		"data_dir: data\n",
		srcYAML("sqlite:data/x.db", "models/x.yaml"),
		srcYAML("sqlite:file:x.db?mode=ro", ""),
		srcYAML("postgres://u:${PW}@db/shop", "builtin:shop"),
		"sources:\n  - {name: a, dsn: 'x.db', now: 2026-11-20, engine: hybrid, max_concurrent: 0, llm: {base_url: 'http://h/v1'}}\n",
		"server:\n  store: 'sqlite:c.db'\n  tls_cert: c.pem\n  tls_key: k.pem\n  rate_limit: {burst: 0}\n  lease_ttl: 2s\n",
		"server:\n  api_keys: [{user: ana, sha256: " + sum + ", expires: 2027-01-31}]\n  trusted_proxy: {from: ['10.0.0.0/8', '::ffff:10.0.0.0/104']}\n",
		"access:\n  users: [{name: ana, sources: ['*'], scope: {clinic: {values: [p1]}}}]\n",
		"conversations: {keep: 30d}\naudit: {keep: 12h}\n",
		"a: &a [*a]\n",
	} {
		f.Add([]byte(s))
	}
	const dir = "/etc/clarify"
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := config.Parse("clarify.yaml", data, dir)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "clarify.yaml: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse returned a config that does not validate: %v", err)
		}
		for _, p := range []string{c.DataDir, c.Server.TLSCert, c.Server.TLSKey} {
			if p != "" && !filepath.IsAbs(p) {
				t.Errorf("path %q left relative", p)
			}
		}
		// resolving again (as a config passed through Parse twice would)
		// changes nothing
		again := *c
		again.Sources = slices.Clone(c.Sources)
		config.ResolvePaths(&again, "/elsewhere")
		if d := cmp.Diff(c, &again, cmpopts.IgnoreUnexported(config.Config{})); d != "" {
			t.Errorf("resolving twice moved paths (-once +twice):\n%s", d)
		}
	})
}
