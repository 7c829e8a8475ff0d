package config_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/clarify-sql/clarify/internal/config"
)

func ptr[T any](v T) *T { return &v }

// TestZeroConfig: the zero Config is the defaults, valid as it is, and an
// empty file (or one of comments only) reads as it.
func TestZeroConfig(t *testing.T) {
	t.Parallel()
	if err := (&config.Config{}).Validate(); err != nil {
		t.Fatalf("the zero Config does not validate: %v", err)
	}
	for _, tc := range []struct{ name, yaml string }{
		{name: "empty", yaml: ""},
		{name: "comments only", yaml: "# nothing configured yet\n"},
		{name: "an empty document", yaml: "---\n"},
		{name: "an empty mapping", yaml: "{}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Parse("clarify.yaml", []byte(tc.yaml), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(&config.Config{}, c, cmpopts.IgnoreUnexported(config.Config{})); d != "" {
				t.Errorf("config (-want +got):\n%s", d)
			}
		})
	}
}

// TestValidate: each rule of Validate, by the message that names the
// field at fault.
func TestValidate(t *testing.T) {
	t.Parallel()
	src := func(f func(*config.Source)) config.Config {
		s := config.Source{Name: "a", DSN: "sqlite:/data/a.db"}
		f(&s)
		return config.Config{Sources: []config.Source{s}}
	}
	grant := func(g config.Grant) config.Config {
		return config.Config{Access: config.Access{Users: []config.Grant{g}}}
	}
	for _, tc := range []struct {
		name    string
		cfg     config.Config
		wantErr string // prefix of the message; "" for valid
	}{
		{name: "a full source", cfg: src(func(s *config.Source) {
			s.Now, s.Engine, s.RowCap, s.QueryTimeout = "2026-11-20", "hybrid", 10, time.Second
			s.MaxConcurrent, s.HeavyConcurrent, s.HeavyAfter = ptr(0), ptr(0), time.Millisecond
		})},
		{name: "source without a name", cfg: src(func(s *config.Source) { s.Name = "" }), wantErr: "sources[0]: a source needs a name"},
		{name: "duplicate source", cfg: config.Config{Sources: []config.Source{{Name: "a", DSN: "x.db"}, {Name: "a", DSN: "y.db"}}}, wantErr: `sources[1]: duplicate source "a"`},
		{name: "source without a dsn", cfg: src(func(s *config.Source) { s.DSN = "" }), wantErr: "sources[0] (a): a source needs a dsn"},
		{name: "now not a date", cfg: src(func(s *config.Source) { s.Now = "20/11/2026" }), wantErr: "sources[0] (a): now must be YYYY-MM-DD"},
		{name: "unknown engine", cfg: src(func(s *config.Source) { s.Engine = "magic" }), wantErr: "sources[0] (a): engine must be one of rules, llm, hybrid"},
		{name: "negative row_cap", cfg: src(func(s *config.Source) { s.RowCap = -1 }), wantErr: "sources[0] (a): row_cap and query_timeout must not be negative"},
		{name: "negative query_timeout", cfg: src(func(s *config.Source) { s.QueryTimeout = -time.Second }), wantErr: "sources[0] (a): row_cap and query_timeout"},
		{name: "negative max_concurrent", cfg: src(func(s *config.Source) { s.MaxConcurrent = ptr(-1) }), wantErr: "sources[0] (a): max_concurrent, heavy_concurrent and heavy_after must not be negative"},
		{name: "negative heavy_concurrent", cfg: src(func(s *config.Source) { s.HeavyConcurrent = ptr(-1) }), wantErr: "sources[0] (a): max_concurrent, heavy_concurrent"},
		{name: "negative heavy_after", cfg: src(func(s *config.Source) { s.HeavyAfter = -time.Millisecond }), wantErr: "sources[0] (a): max_concurrent, heavy_concurrent"},
		{name: "api key without a user", cfg: config.Config{Server: config.Server{APIKeys: []config.APIKey{{ID: "x"}}}}, wantErr: "server.api_keys[0]: a key needs a user"},
		{name: "lease_ttl under a second", cfg: config.Config{Server: config.Server{LeaseTTL: 999 * time.Millisecond}}, wantErr: "server: lease_ttl must be at least 1s"},
		{name: "negative message_limit", cfg: config.Config{Server: config.Server{MessageLimit: -1}}, wantErr: "server: message_limit and clarification_ttl must not be negative"},
		{name: "negative clarification_ttl", cfg: config.Config{Server: config.Server{ClarificationTTL: -time.Hour}}, wantErr: "server: message_limit and clarification_ttl"},
		{name: "negative rate limit", cfg: config.Config{Server: config.Server{RateLimit: config.RateLimit{Burst: ptr(-1)}}}, wantErr: "server.rate_limit: limits must not be negative"},
		{name: "rate limits off", cfg: config.Config{Server: config.Server{RateLimit: config.RateLimit{QuestionsPerMinute: ptr(0), Burst: ptr(0), ConcurrentTurns: ptr(0)}}}},
		{name: "tls_cert without tls_key", cfg: config.Config{Server: config.Server{TLSCert: "/etc/c.pem"}}, wantErr: "server: tls_cert and tls_key go together"},
		{name: "allowed host with a port", cfg: config.Config{Server: config.Server{AllowedHosts: []string{"ok.example", "x.example:8080"}}}, wantErr: `server.allowed_hosts[1]: "x.example:8080" is not a host name`},
		{name: "empty allowed host", cfg: config.Config{Server: config.Server{AllowedHosts: []string{""}}}, wantErr: `server.allowed_hosts[0]: "" is not a host name`},
		{name: "negative conversations keep", cfg: config.Config{Conversations: config.Conversations{Keep: -1}}, wantErr: "conversations: keep must not be negative"},
		{name: "negative audit keep", cfg: config.Config{Audit: config.Audit{Keep: -1}}, wantErr: "audit: keep must not be negative"},
		{name: "access rule without a name", cfg: grant(config.Grant{Name: " "}), wantErr: "access.users[0]: a rule needs a name"},
		{name: "two rules for a user", cfg: config.Config{Access: config.Access{Users: []config.Grant{{Name: "ana"}, {Name: "ana"}}}}, wantErr: `access.users[1]: "ana" has two rules; merge them`},
		{name: "a group in a group", cfg: config.Config{Access: config.Access{Groups: []config.Grant{{Name: "nurses", Groups: []string{"staff"}}}}}, wantErr: "access.groups[0] (nurses): groups do not contain groups"},
		{name: "incomplete mapping", cfg: grant(config.Grant{Name: "ana", Scope: map[string]config.ScopeGrant{"clinic": {Table: "care_team"}}}), wantErr: "access.users[0] (ana): scope of clinic: a mapping needs table, user_column and value_column"},
		{name: "two kinds of scope", cfg: grant(config.Grant{Name: "ana", Scope: map[string]config.ScopeGrant{"clinic": {All: true, Values: []string{"p1"}}}}), wantErr: "access.users[0] (ana): scope of clinic: give exactly one of all, values"},
		{name: "no kind of scope", cfg: grant(config.Grant{Name: "ana", Scope: map[string]config.ScopeGrant{"clinic": {}}}), wantErr: "access.users[0] (ana): scope of clinic: give exactly one"},
		{name: "a mapping grant", cfg: grant(config.Grant{Name: "ana", Scope: map[string]config.ScopeGrant{"clinic": {Table: "care_team", UserColumn: "clinician", ValueColumn: "patient_id"}}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.cfg.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
				t.Fatalf("Validate = %v, want an error starting %q", err, tc.wantErr)
			}
		})
	}
}

// TestStrictYAML: a key the config does not have is an error naming the
// file, the line and the key, wherever it is; so is a value of the wrong
// type and a second document.
func TestStrictYAML(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, yaml string
		want       []string // each in the message
	}{
		{name: "top level", yaml: "data_dir: /d\nsoucres: []\n", want: []string{"line 2: unknown key \"soucres\" in config"}},
		{name: "in a source", yaml: "sources:\n  - name: a\n    dsn: 'sqlite:a.db'\n    modle: a.yaml\n", want: []string{"line 4: unknown key \"modle\" in source"}},
		{name: "in the server", yaml: "server:\n  addr: ':8080'\n  tls: true\n", want: []string{"line 3: unknown key \"tls\" in server"}},
		{name: "in a rate limit", yaml: "server:\n  rate_limit:\n    per_hour: 3\n", want: []string{"line 3: unknown key \"per_hour\" in ratelimit"}},
		{name: "in an access rule", yaml: "access:\n  users:\n    - name: ana\n      source: [clinic]\n", want: []string{"line 4: unknown key \"source\" in grant"}},
		{name: "wrong type", yaml: "sources:\n  - name: a\n    dsn: 'sqlite:a.db'\n    row_cap: many\n", want: []string{"line 4", "many"}},
		{name: "bad duration", yaml: "conversations:\n  keep: forever\n", want: []string{"line 2", `"forever" is not a duration`}},
		{name: "not YAML", yaml: "sources: [\n", want: []string{"clarify.yaml: "}},
		{name: "two documents", yaml: "data_dir: /a\n---\ndata_dir: /b\n", want: []string{"one YAML document"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Parse("clarify.yaml", []byte(tc.yaml), "/etc/clarify")
			if err == nil {
				t.Fatal("Parse accepted it")
			}
			if !strings.HasPrefix(err.Error(), "clarify.yaml: ") {
				t.Errorf("error %q does not start with the file's name", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestLoadErrors: Load names the file; a missing one is fs.ErrNotExist.
func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := config.Load(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file = %v, want fs.ErrNotExist", err)
	}
	path := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(path, []byte("sources: [{name: a}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(path); err == nil || !strings.HasPrefix(err.Error(), path+": sources[0] (a): a source needs a dsn") {
		t.Errorf("Load = %v, want the file's name then the validation error", err)
	}
}

// TestPaths: every relative path in a config file is relative to the
// file's directory, whatever the working directory; absolute paths,
// builtin models and DSNs of servers or of memory are kept.
func TestPaths(t *testing.T) {
	t.Parallel()
	const dir = "/etc/clarify"
	abs := filepath.Join(dir, "data", "x.db") // on this system's separators
	for _, tc := range []struct {
		name, yaml string
		got        func(*config.Config) string
		want       string
	}{
		{name: "data_dir relative", yaml: "data_dir: var/data\n", got: dataDir, want: filepath.Join(dir, "var", "data")},
		{name: "data_dir dot", yaml: "data_dir: .\n", got: dataDir, want: dir},
		{name: "data_dir up", yaml: "data_dir: ../shared\n", got: dataDir, want: filepath.Join(filepath.Dir(dir), "shared")},
		{name: "data_dir absolute", yaml: "data_dir: /var/lib/clarify\n", got: dataDir, want: "/var/lib/clarify"},
		{name: "model relative", yaml: srcYAML("sqlite:/d/a.db", "models/a.yaml"), got: model, want: filepath.Join(dir, "models", "a.yaml")},
		{name: "model absolute", yaml: srcYAML("sqlite:/d/a.db", "/srv/a.yaml"), got: model, want: "/srv/a.yaml"},
		{name: "model builtin", yaml: srcYAML("sqlite:/d/a.db", "builtin:clinic"), got: model, want: "builtin:clinic"},
		{name: "model empty: drafted", yaml: srcYAML("sqlite:/d/a.db", ""), got: model, want: ""},
		{name: "sqlite relative", yaml: srcYAML("sqlite:data/x.db", ""), got: dsn, want: "sqlite:" + abs},
		{name: "sqlite// relative", yaml: srcYAML("sqlite://data/x.db", ""), got: dsn, want: "sqlite:" + abs},
		{name: "sqlite absolute", yaml: srcYAML("sqlite:/srv/x.db", ""), got: dsn, want: "sqlite:/srv/x.db"},
		{name: "sqlite/// absolute", yaml: srcYAML("sqlite:///srv/x.db", ""), got: dsn, want: "sqlite:///srv/x.db"},
		{name: "bare .db relative", yaml: srcYAML("data/x.db", ""), got: dsn, want: abs},
		{name: "bare .sqlite3 relative", yaml: srcYAML("x.sqlite3", ""), got: dsn, want: filepath.Join(dir, "x.sqlite3")},
		{name: "bare absolute", yaml: srcYAML("/srv/x.sqlite", ""), got: dsn, want: "/srv/x.sqlite"},
		{name: "file URI relative", yaml: srcYAML("sqlite:file:data/x.db?mode=ro", ""), got: dsn, want: "sqlite:file:" + filepath.ToSlash(abs) + "?mode=ro"},
		{name: "file URI absolute", yaml: srcYAML("sqlite:file:/srv/x.db", ""), got: dsn, want: "sqlite:file:/srv/x.db"},
		{name: "file URI with authority", yaml: srcYAML("sqlite:file:///srv/x.db", ""), got: dsn, want: "sqlite:file:///srv/x.db"},
		{name: "memory", yaml: srcYAML("sqlite::memory:", ""), got: dsn, want: "sqlite::memory:"},
		{name: "memory URI", yaml: srcYAML("sqlite:file:m?mode=memory", ""), got: dsn, want: "sqlite:file:m?mode=memory"},
		{name: "postgres", yaml: srcYAML("postgres://u@db:5432/shop.db", ""), got: dsn, want: "postgres://u@db:5432/shop.db"},
		{name: "mysql URL", yaml: srcYAML("mysql://u@db/shop.db", ""), got: dsn, want: "mysql://u@db/shop.db"},
		{name: "mysql DSN", yaml: srcYAML("mysql:u@tcp(db:3306)/shop.db", ""), got: dsn, want: "mysql:u@tcp(db:3306)/shop.db"},
		{name: "store relative", yaml: "server: {store: 'sqlite:state/clarify.db'}\n", got: store, want: "sqlite:" + filepath.Join(dir, "state", "clarify.db")},
		{name: "store absolute", yaml: "server: {store: 'sqlite:/var/clarify.db'}\n", got: store, want: "sqlite:/var/clarify.db"},
		{name: "store postgres", yaml: "server: {store: 'postgres://c@db/clarify'}\n", got: store, want: "postgres://c@db/clarify"},
		{name: "tls relative", yaml: "server: {tls_cert: tls/c.pem, tls_key: tls/k.pem}\n", got: tls, want: filepath.Join(dir, "tls", "c.pem") + " " + filepath.Join(dir, "tls", "k.pem")},
		{name: "tls absolute", yaml: "server: {tls_cert: /c.pem, tls_key: /k.pem}\n", got: tls, want: "/c.pem /k.pem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Parse("clarify.yaml", []byte(tc.yaml), dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.got(c); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func srcYAML(dsn, model string) string {
	s := "sources:\n  - name: a\n    dsn: '" + dsn + "'\n"
	if model != "" {
		s += "    model: '" + model + "'\n"
	}
	return s
}

func dataDir(c *config.Config) string { return c.DataDir }
func model(c *config.Config) string   { return c.Sources[0].Model }
func dsn(c *config.Config) string     { return c.Sources[0].DSN }
func store(c *config.Config) string   { return c.Server.Store }
func tls(c *config.Config) string     { return c.Server.TLSCert + " " + c.Server.TLSKey }

// TestLoadPathsAgainstFile: Load resolves against the file's directory
// even when the file is named relative to the working directory, and the
// result does not depend on the working directory afterwards.
func TestLoadPathsAgainstFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // not parallel: the working directory is the process's
	if err := os.MkdirAll(filepath.Join(dir, "conf"), 0o700); err != nil {
		t.Fatal(err)
	}
	yaml := "data_dir: data\nsources:\n  - {name: a, dsn: 'sqlite:a.db', model: a.yaml}\nserver: {store: 'sqlite:clarify.db'}\n"
	if err := os.WriteFile(filepath.Join(dir, "conf", "clarify.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(filepath.Join("conf", "clarify.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "conf")
	want := []string{filepath.Join(conf, "data"), "sqlite:" + filepath.Join(conf, "a.db"), filepath.Join(conf, "a.yaml"), "sqlite:" + filepath.Join(conf, "clarify.db")}
	got := []string{c.DataDir, c.Sources[0].DSN, c.Sources[0].Model, c.Server.Store}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("paths (-want +got):\n%s", d)
	}
	// data_dir from the file wins over nothing, and stays the file's
	t.Setenv("CLARIFY_DATA_DIR", "")
	if d, err := config.ResolveDataDir("", c); err != nil || d != want[0] {
		t.Errorf("ResolveDataDir = %q, %v; want %q", d, err, want[0])
	}
}

// TestParseWorkingDirectory: with no file, relative paths are relative to
// the working directory.
func TestParseWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	wd, err := os.Getwd() // dir with symbolic links resolved as the OS reports it
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse("flags", []byte("data_dir: d\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wd, "d"); c.DataDir != want {
		t.Errorf("data_dir = %q, want %q", c.DataDir, want)
	}
}

// TestResolveDataDir: flag, then CLARIFY_DATA_DIR (both relative to the
// working directory), then the config, then XDG_DATA_HOME/clarify.
func TestResolveDataDir(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{DataDir: "/from/config"}
	for _, tc := range []struct {
		name, flag, env, xdg string
		cfg                  *config.Config
		want                 string
	}{
		{name: "flag first", flag: "/from/flag", env: "/from/env", cfg: cfg, want: "/from/flag"},
		{name: "relative flag", flag: "rel", env: "/from/env", cfg: cfg, want: filepath.Join(wd, "rel")},
		{name: "environment next", env: "/from/env", cfg: cfg, want: "/from/env"},
		{name: "relative environment", env: "rel", cfg: cfg, want: filepath.Join(wd, "rel")},
		{name: "config next", cfg: cfg, xdg: "/xdg", want: "/from/config"},
		{name: "config without data_dir", cfg: &config.Config{}, xdg: "/xdg", want: filepath.Join("/xdg", "clarify")},
		{name: "no config", xdg: "/xdg", want: filepath.Join("/xdg", "clarify")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CLARIFY_DATA_DIR", tc.env)
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			got, err := config.ResolveDataDir(tc.flag, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEnvInDSN: ${VAR} in a source's DSN and in server.store is the
// variable's value (an unset one is empty), so passwords stay out of the
// file.
func TestEnvInDSN(t *testing.T) {
	t.Setenv("CLARIFY_TEST_PW", "s3cret")
	t.Setenv("CLARIFY_TEST_DB", "shop.db")
	yaml := "sources:\n  - {name: a, dsn: 'postgres://u:${CLARIFY_TEST_PW}@db/shop${CLARIFY_TEST_UNSET}'}\n" +
		"  - {name: b, dsn: 'sqlite:${CLARIFY_TEST_DB}'}\n" +
		"server: {store: 'postgres://c:${CLARIFY_TEST_PW}@db/clarify'}\n"
	c, err := config.Parse("clarify.yaml", []byte(yaml), "/etc/clarify")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"postgres://u:s3cret@db/shop", "sqlite:" + filepath.Join("/etc/clarify", "shop.db"), "postgres://c:s3cret@db/clarify"}
	if d := cmp.Diff(want, []string{c.Sources[0].DSN, c.Sources[1].DSN, c.Server.Store}); d != "" {
		t.Errorf("DSNs (-want +got):\n%s", d)
	}
}
