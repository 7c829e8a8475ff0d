package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the whole configuration. The zero value means defaults.
type Config struct {
	// DataDir holds generated demo data and the default store (default:
	// $CLARIFY_DATA_DIR, else the user's data directory + /clarify);
	// relative to the config file.
	DataDir string `yaml:"data_dir,omitempty"`
	// Sources are the databases served; with none, the four demo sources.
	Sources []Source `yaml:"sources,omitempty"`
	// Server configures clarify serve.
	Server Server `yaml:"server,omitempty"`
	// Conversations configures how long conversations are kept.
	Conversations Conversations `yaml:"conversations,omitempty"`
	// Audit configures how long the audit log is kept.
	Audit Audit `yaml:"audit,omitempty"`
	// Access says which sources and scope values each user and group may
	// see; empty, every user sees everything (docs/access.md).
	Access Access `yaml:"access,omitempty"`

	file string
}

// Source is one database with its semantic model.
type Source struct {
	// Name identifies the source in questions (--source, "source" in the API).
	Name string `yaml:"name"`
	// DSN: sqlite:PATH (PATH relative to the config file), postgres://… or
	// mysql://…. Passwords belong in the environment: ${VAR} is replaced
	// by the variable's value.
	DSN string `yaml:"dsn"`
	// Model is the path of the model YAML (relative to the config file),
	// or builtin:NAME for a demo model; empty means a model drafted from
	// the database.
	Model string `yaml:"model,omitempty"`
	// Now fixes the source's clock to a date (YYYY-MM-DD); default real time.
	Now string `yaml:"now,omitempty"`
	// QueryTimeout bounds each statement (default 15s).
	QueryTimeout time.Duration `yaml:"query_timeout,omitempty"`
	// RowCap bounds the rows of an answer (default 1000).
	RowCap int `yaml:"row_cap,omitempty"`
	// MaxConcurrent caps the statements running at once on the source,
	// shared fairly between users (default 8, 3 for SQLite; 0 turns the
	// cap off).
	MaxConcurrent *int `yaml:"max_concurrent,omitempty"`
	// HeavyConcurrent caps the statements of heavy shapes running at once,
	// beside max_concurrent (default 1; 0: no separate lane).
	HeavyConcurrent *int `yaml:"heavy_concurrent,omitempty"`
	// HeavyAfter is the mean duration of a statement shape's recent runs
	// from which it is heavy (default 100ms).
	HeavyAfter time.Duration `yaml:"heavy_after,omitempty"`
	// Engine answers the source's questions: rules (default; the semantic
	// model alone, offline), llm (a language model, through the guard) or
	// hybrid (the rules first, the model only for what they cannot link).
	// llm and hybrid need an endpoint: LLM, or the CLARIFY_LLM_* variables.
	Engine string `yaml:"engine,omitempty"`
	// LLM is the source's model endpoint (default none). The variables
	// CLARIFY_LLM_BASE_URL, CLARIFY_LLM_MODEL and CLARIFY_LLM_API_KEY, when
	// set, override it.
	LLM *LLM `yaml:"llm,omitempty"`
}

// engines are the names a source's engine may have.
var engines = []string{"rules", "llm", "hybrid"}

// LLM is an OpenAI-compatible endpoint (docs/llm.md).
type LLM struct {
	// BaseURL is the API root, e.g. http://localhost:11434/v1.
	BaseURL string `yaml:"base_url,omitempty"`
	// Model is the model name the endpoint knows.
	Model string `yaml:"model,omitempty"`
	// APIKeyEnv names the environment variable holding the key (default
	// none); keys are never written in the config.
	APIKeyEnv string `yaml:"api_key_env,omitempty"`
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Server configures clarify serve.
type Server struct {
	// Addr is the listen address (default 127.0.0.1:8080; env CLARIFY_ADDR).
	Addr string `yaml:"addr,omitempty"`
	// Store is sqlite:PATH (PATH relative to the config file) or
	// postgres://…, with ${VAR} replaced as in a source's DSN (default
	// sqlite:DATA_DIR/clarify.db; env CLARIFY_STORE).
	Store string `yaml:"store,omitempty"`
	// APIKeys map keys (as salted hashes, never in clear) to users; with
	// no authentication at all (no keys, oidc or trusted_proxy) the server
	// listens on loopback only, for one local user.
	APIKeys []APIKey `yaml:"api_keys,omitempty"`
	// OIDC accepts bearer JWTs from an OpenID Connect provider (default
	// off).
	OIDC *OIDC `yaml:"oidc,omitempty"`
	// TrustedProxy accepts identity headers from a reverse proxy (default
	// off).
	TrustedProxy *TrustedProxy `yaml:"trusted_proxy,omitempty"`
	// AllowedOrigins enables CORS for these origins (default none).
	AllowedOrigins []string `yaml:"allowed_origins,omitempty"`
	// AllowedHosts are the names requests may carry in Host besides
	// loopback names and IP addresses (default none; flag --allowed-host).
	AllowedHosts []string `yaml:"allowed_hosts,omitempty"`
	// TLSCert and TLSKey are PEM files, relative to the config file; with
	// both, serve speaks HTTPS (default plain HTTP; flags --tls-cert,
	// --tls-key).
	TLSCert string `yaml:"tls_cert,omitempty"`
	TLSKey  string `yaml:"tls_key,omitempty"`
	// AllowInsecureHTTP lets API keys travel over plain HTTP beyond
	// loopback, as behind a proxy that terminates TLS (default false: serve
	// refuses to start; flag --allow-insecure-keys).
	AllowInsecureHTTP bool `yaml:"allow_insecure_http,omitempty"`
	// ClarificationTTL (default 24h) and MessageLimit (default 20).
	ClarificationTTL time.Duration `yaml:"clarification_ttl,omitempty"`
	MessageLimit     int           `yaml:"message_limit,omitempty"`
	// LeaseTTL is how long a conversation's lease outlives the last renewal
	// by the instance running its turn (renewed every LeaseTTL/3): a turn
	// whose instance died is resumed by another about LeaseTTL later
	// (default 10s, at least 1s).
	LeaseTTL time.Duration `yaml:"lease_ttl,omitempty"`
	// RateLimit bounds each user's questions; see RateLimit.
	RateLimit RateLimit `yaml:"rate_limit,omitempty"`
}

// RateLimit bounds the turns each user starts (questions, answers to
// clarifications, assumption changes). An absent field keeps its default;
// 0 turns that limit off.
type RateLimit struct {
	// QuestionsPerMinute refills each user's bucket (default 30).
	QuestionsPerMinute *int `yaml:"questions_per_minute,omitempty"`
	// Burst is the bucket's size (default 10).
	Burst *int `yaml:"burst,omitempty"`
	// ConcurrentTurns bounds a user's turns running at once (default 4).
	ConcurrentTurns *int `yaml:"concurrent_turns,omitempty"`
}

// Conversations configures the retention of conversations.
type Conversations struct {
	// Keep deletes the conversations last updated more than Keep ago, with
	// their events and query log rows ("30d", "12h"; default 0: keep
	// forever). Active and leased conversations are never deleted.
	Keep Duration `yaml:"keep,omitempty"`
}

// Audit configures the retention of the audit log, apart from the
// conversations': deleting conversations never deletes audit records.
type Audit struct {
	// Keep deletes the audit records older than Keep ("365d"; default 0:
	// keep forever).
	Keep Duration `yaml:"keep,omitempty"`
}

// Access holds the rights of users and groups. With no rules every user
// sees every source and every scope value; with rules, a user sees only
// what their own rule and their groups' rules grant (nothing when none
// names them).
type Access struct {
	Users  []Grant `yaml:"users,omitempty"`
	Groups []Grant `yaml:"groups,omitempty"`
}

// Grant is what one user or group may see.
type Grant struct {
	// Name is the user (as authentication names them) or the group.
	Name string `yaml:"name"`
	// Groups (users only) adds the user to groups, besides those their
	// identity (a token's groups claim, the proxy's groups header) brings.
	Groups []string `yaml:"groups,omitempty"`
	// Sources are the sources granted ("*": every source); omitted, the
	// sources its scope names.
	Sources []string `yaml:"sources,omitempty"`
	// Scope grants, per scoped source, the scope values (patients,
	// customers) granted; a scoped source not listed grants none.
	Scope map[string]ScopeGrant `yaml:"scope,omitempty"`
}

// ScopeGrant is one of: every value, a list of values, or a mapping table
// in the source's own database whose rows pair users with values
// (care_team: clinician → patient_id).
type ScopeGrant struct {
	All         bool     `yaml:"all,omitempty"`
	Values      []string `yaml:"values,omitempty"`
	Table       string   `yaml:"table,omitempty"`
	UserColumn  string   `yaml:"user_column,omitempty"`
	ValueColumn string   `yaml:"value_column,omitempty"`
}

// APIKey maps an API key to a user id. Keys made by `clarify key new`
// have an id and a salted hash; SHA256 (the unsalted hex SHA-256 of the
// whole key) is the legacy form, still accepted.
type APIKey struct {
	User   string `yaml:"user"`
	ID     string `yaml:"id,omitempty"`
	Hash   string `yaml:"hash,omitempty"`
	SHA256 string `yaml:"sha256,omitempty"`
	// Expires is YYYY-MM-DD (midnight UTC starting that day) or RFC 3339;
	// empty: never.
	Expires string `yaml:"expires,omitempty"`
	// Groups the key's user belongs to.
	Groups []string `yaml:"groups,omitempty"`
	// Admin lets the user read every user's statistics.
	Admin bool `yaml:"admin,omitempty"`
}

// Load reads the config file at path with Parse, relative paths being
// relative to the file's directory.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	c, err := Parse(path, data, filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	c.file = path
	return c, nil
}

// Parse decodes one YAML document of configuration strictly (unknown keys
// are errors naming the line), replaces ${VAR} in DSNs by the variable's
// value, makes every relative path absolute against dir (see
// resolvePaths; "" is the working directory) and validates the result.
// name (the file) prefixes its errors. An empty document is the zero
// Config.
func Parse(name string, data []byte, dir string) (*Config, error) {
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", name, yamlMessage(err))
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: a config file holds one YAML document", name)
	}
	expand := func(m string) string { return os.Getenv(m[2 : len(m)-1]) }
	for i := range c.Sources {
		c.Sources[i].DSN = envRef.ReplaceAllStringFunc(c.Sources[i].DSN, expand)
	}
	c.Server.Store = envRef.ReplaceAllStringFunc(c.Server.Store, expand)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("%s: resolve relative paths: %w", name, err)
		}
		dir = wd
	}
	c.resolvePaths(dir)
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// yamlMessage renders a decoding error for people: every problem, an
// unknown key as "line N: unknown key "k" in source".
func yamlMessage(err error) string {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for i, m := range msgs {
		if sm := unknownField.FindStringSubmatch(m); sm != nil {
			msgs[i] = fmt.Sprintf("%sunknown key %q in %s", sm[1], sm[2], strings.ToLower(sm[3]))
		}
	}
	return strings.Join(msgs, "; ")
}

var unknownField = regexp.MustCompile(`^(line \d+: )field (.*) not found in type config\.(\w+)$`)

// Validate checks the configuration.
func (c *Config) Validate() error {
	seen := map[string]bool{}
	for i, s := range c.Sources {
		switch {
		case s.Name == "":
			return fmt.Errorf("sources[%d]: a source needs a name", i)
		case seen[s.Name]:
			return fmt.Errorf("sources[%d]: duplicate source %q", i, s.Name)
		case s.DSN == "":
			return fmt.Errorf("sources[%d] (%s): a source needs a dsn", i, s.Name)
		}
		seen[s.Name] = true
		if s.Now != "" {
			if _, err := time.Parse(time.DateOnly, s.Now); err != nil {
				return fmt.Errorf("sources[%d] (%s): now must be YYYY-MM-DD, got %q", i, s.Name, s.Now)
			}
		}
		if s.Engine != "" && !slices.Contains(engines, s.Engine) {
			return fmt.Errorf("sources[%d] (%s): engine must be one of %s, got %q", i, s.Name, strings.Join(engines, ", "), s.Engine)
		}
		if s.RowCap < 0 || s.QueryTimeout < 0 {
			return fmt.Errorf("sources[%d] (%s): row_cap and query_timeout must not be negative", i, s.Name)
		}
		if s.MaxConcurrent != nil && *s.MaxConcurrent < 0 || s.HeavyConcurrent != nil && *s.HeavyConcurrent < 0 || s.HeavyAfter < 0 {
			return fmt.Errorf("sources[%d] (%s): max_concurrent, heavy_concurrent and heavy_after must not be negative (0 turns a cap off)", i, s.Name)
		}
	}
	if err := c.Server.validateAuth(); err != nil {
		return err
	}
	if c.Server.LeaseTTL != 0 && c.Server.LeaseTTL < time.Second {
		return fmt.Errorf("server: lease_ttl must be at least 1s, got %s", c.Server.LeaseTTL)
	}
	if c.Server.MessageLimit < 0 || c.Server.ClarificationTTL < 0 {
		return fmt.Errorf("server: message_limit and clarification_ttl must not be negative")
	}
	rl := c.Server.RateLimit
	for _, v := range []*int{rl.QuestionsPerMinute, rl.Burst, rl.ConcurrentTurns} {
		if v != nil && *v < 0 {
			return fmt.Errorf("server.rate_limit: limits must not be negative (0 turns a limit off)")
		}
	}
	if err := c.Access.validate(); err != nil {
		return err
	}
	if c.Conversations.Keep < 0 {
		return fmt.Errorf("conversations: keep must not be negative")
	}
	if c.Audit.Keep < 0 {
		return fmt.Errorf("audit: keep must not be negative")
	}
	if (c.Server.TLSCert == "") != (c.Server.TLSKey == "") {
		return fmt.Errorf("server: tls_cert and tls_key go together")
	}
	for i, h := range c.Server.AllowedHosts {
		if h == "" || strings.ContainsAny(h, ":/ ") {
			return fmt.Errorf("server.allowed_hosts[%d]: %q is not a host name (no scheme, port or path)", i, h)
		}
	}
	return nil
}

// File returns the path the config was loaded from.
func (c *Config) File() string { return c.file }

// ResolveDataDir applies the precedence flag → CLARIFY_DATA_DIR → config →
// the user's data directory. The flag and the variable are relative to
// the working directory; the config's data_dir was made absolute against
// its file by Load.
func ResolveDataDir(flag string, c *Config) (string, error) {
	switch {
	case flag != "":
		return filepath.Abs(flag)
	case os.Getenv("CLARIFY_DATA_DIR") != "":
		return filepath.Abs(os.Getenv("CLARIFY_DATA_DIR"))
	case c != nil && c.DataDir != "":
		return filepath.Abs(c.DataDir)
	}
	return userDataDir()
}

// userDataDir is $XDG_DATA_HOME/clarify, ~/.local/share/clarify,
// ~/Library/Application Support/clarify or %LocalAppData%\clarify.
func userDataDir() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "clarify"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find a data directory (set --data-dir or CLARIFY_DATA_DIR): %w", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "clarify"), nil
	case "windows":
		if l := os.Getenv("LocalAppData"); l != "" {
			return filepath.Join(l, "clarify"), nil
		}
	}
	return filepath.Join(home, ".local", "share", "clarify"), nil
}

// ParseNow parses a source's fixed date.
func ParseNow(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

// validate checks the access rules: named once each, and each scope grant
// one of all, values or a complete mapping table.
func (a Access) validate() error {
	for _, list := range []struct {
		what   string
		grants []Grant
	}{{"access.users", a.Users}, {"access.groups", a.Groups}} {
		seen := map[string]bool{}
		for i, g := range list.grants {
			switch {
			case strings.TrimSpace(g.Name) == "":
				return fmt.Errorf("%s[%d]: a rule needs a name", list.what, i)
			case seen[g.Name]:
				return fmt.Errorf("%s[%d]: %q has two rules; merge them", list.what, i, g.Name)
			case list.what == "access.groups" && len(g.Groups) > 0:
				return fmt.Errorf("%s[%d] (%s): groups do not contain groups", list.what, i, g.Name)
			}
			seen[g.Name] = true
			for src, sg := range g.Scope {
				kinds := 0
				if sg.All {
					kinds++
				}
				if len(sg.Values) > 0 {
					kinds++
				}
				if sg.Table != "" || sg.UserColumn != "" || sg.ValueColumn != "" {
					kinds++
					if sg.Table == "" || sg.UserColumn == "" || sg.ValueColumn == "" {
						return fmt.Errorf("%s[%d] (%s): scope of %s: a mapping needs table, user_column and value_column", list.what, i, g.Name, src)
					}
				}
				if kinds != 1 {
					return fmt.Errorf("%s[%d] (%s): scope of %s: give exactly one of all, values, or a mapping table", list.what, i, g.Name, src)
				}
			}
		}
	}
	return nil
}
