package registry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/models"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// Drafter drafts model YAML for a database that has none (package
// introspect; wired by the caller to keep this package small).
type Drafter func(ctx context.Context, db *sql.DB, d model.Dialect, name string) ([]byte, error)

// Options tune a registry.
type Options struct {
	// UseAsOf sets each source's clock to the as_of date stored in its
	// clarify_meta table, when it has one (the evaluation harness does).
	UseAsOf bool
	// DemoAsOf is the date demo data is generated for (default today).
	DemoAsOf time.Time
	// Draft drafts a model for a database configured without one.
	Draft Drafter
	// Source tunes every opened source.
	Source source.Options
	// OpenTimeout bounds the opening of one source (default 1m). An open
	// does not stop when the request that started it is cancelled: other
	// requests wait for the same open, and a success is kept.
	OpenTimeout time.Duration
	// LLM is the language model endpoint read from the environment
	// (llm.FromEnv): its non-empty fields override every source's llm:.
	LLM llm.Config
	// Getenv reads the variable a source's llm.api_key_env names (default
	// os.Getenv).
	Getenv func(string) string
}

// UnknownSourceError reports a source name that is not configured.
type UnknownSourceError struct {
	Name  string
	Known []string
}

// UnknownSource tells package conversation that the name is not configured
// (rather than the source failing to open).
func (e *UnknownSourceError) UnknownSource() bool { return true }

func (e *UnknownSourceError) Error() string {
	return fmt.Sprintf("unknown source %q (known: %s)", e.Name, strings.Join(e.Known, ", "))
}

// Registry is the set of configured sources, opened on first use.
type Registry struct {
	dataDir string
	sources []config.Source
	demo    bool
	opt     Options

	mu      sync.Mutex
	engines map[string]*entry
}

// entry is one source: opened at most once successfully, by one caller at
// a time. A failed open is not kept, so the next caller tries again.
type entry struct {
	mu      sync.Mutex
	opening chan struct{} // closed when the open under way ends; nil when none is
	eng     *engine.Engine
	info    Info
	err     error // of the last open, for the callers that waited for it
}

// Info describes an opened source.
type Info struct {
	Name    string `json:"name"`
	Dialect string `json:"dialect"`
	DSN     string `json:"dsn"`
	Model   string `json:"model"`
	// Drafted is set when the model was drafted from the database.
	Drafted bool `json:"drafted,omitempty"`
	// Now is the fixed clock date, if any.
	Now string `json:"now,omitempty"`
	// Description of the model.
	Description string `json:"description,omitempty"`
	// Engine answers the source's questions when a request names none
	// (engine.EngineRules, EngineLLM or EngineHybrid).
	Engine string `json:"engine,omitempty"`
	// Engines a request may choose for the source: rules always, llm and
	// hybrid when a language model endpoint is configured for it.
	Engines []string `json:"engines,omitempty"`
}

// New builds a registry: the config's sources, or the four demo sources
// under dataDir/demo when the config has none. Of sources with the same
// name (config.Validate refuses them) the first is kept.
func New(cfg *config.Config, dataDir string, opt Options) *Registry {
	r := &Registry{dataDir: dataDir, opt: opt, engines: map[string]*entry{}}
	if cfg != nil && len(cfg.Sources) > 0 {
		for _, s := range cfg.Sources {
			if !slices.ContainsFunc(r.sources, func(o config.Source) bool { return o.Name == s.Name }) {
				r.sources = append(r.sources, s)
			}
		}
		return r
	}
	r.demo = true
	for _, n := range demo.Names() {
		r.sources = append(r.sources, config.Source{Name: n, DSN: "sqlite:" + filepath.Join(dataDir, "demo", n+".db"), Model: "builtin:" + n})
	}
	return r
}

// Names lists the sources in configuration order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.sources))
	for i, s := range r.sources {
		out[i] = s.Name
	}
	return out
}

// Default is the name of the first source.
func (r *Registry) Default() string {
	if len(r.sources) == 0 {
		return ""
	}
	return r.sources[0].Name
}

// EnsureDemo generates missing demo databases; a no-op for configured
// sources.
func (r *Registry) EnsureDemo(ctx context.Context) error {
	if !r.demo {
		return nil
	}
	asOf := r.opt.DemoAsOf
	if asOf.IsZero() {
		asOf = time.Now()
	}
	if _, err := demo.EnsureSQLite(ctx, filepath.Join(r.dataDir, "demo"), demo.Options{AsOf: asOf}); err != nil {
		return fmt.Errorf("generate demo data in %s: %w", r.dataDir, err)
	}
	return nil
}

// Engine returns the engine of a source, opening it on first use.
func (r *Registry) Engine(ctx context.Context, name string) (*engine.Engine, Info, error) {
	var cfg *config.Source
	for i := range r.sources {
		if r.sources[i].Name == name {
			cfg = &r.sources[i]
			break
		}
	}
	if cfg == nil {
		return nil, Info{}, &UnknownSourceError{Name: name, Known: r.Names()}
	}
	r.mu.Lock()
	e := r.engines[name]
	if e == nil {
		e = &entry{}
		r.engines[name] = e
	}
	r.mu.Unlock()
	for {
		e.mu.Lock()
		if e.eng != nil {
			e.mu.Unlock()
			return e.eng, e.info, nil
		}
		if wait := e.opening; wait != nil {
			e.mu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
				return nil, Info{}, ctx.Err()
			}
			e.mu.Lock()
			eng, info, err := e.eng, e.info, e.err
			e.mu.Unlock()
			if eng != nil || !isContextErr(err) {
				return eng, info, err
			}
			continue // the open ran out of time: try again
		}
		e.opening = make(chan struct{})
		e.mu.Unlock()
		eng, info, err := r.open(ctx, *cfg)
		e.mu.Lock()
		e.eng, e.info, e.err = eng, info, err
		close(e.opening)
		e.opening = nil
		e.mu.Unlock()
		return eng, info, err
	}
}

// open opens a source for Engine. The open outlives the cancellation of
// the request that started it — a page reloaded at start-up must not
// leave the source failing — but not OpenTimeout.
func (r *Registry) open(ctx context.Context, cfg config.Source) (*engine.Engine, Info, error) {
	d := r.opt.OpenTimeout
	if d <= 0 {
		d = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	defer cancel()
	if r.demo {
		if err := r.EnsureDemo(ctx); err != nil {
			return nil, Info{}, err
		}
	}
	return Open(ctx, cfg, r.opt)
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Info describes a source, opening it if needed.
func (r *Registry) Info(ctx context.Context, name string) (Info, error) {
	_, info, err := r.Engine(ctx, name)
	return info, err
}

// Engines adapts the registry to package conversation's Engines.
type Engines struct{ *Registry }

// Engine returns the engine of a source.
func (e Engines) Engine(ctx context.Context, name string) (*engine.Engine, error) {
	en, _, err := e.Registry.Engine(ctx, name)
	return en, err
}

// Close closes every opened source.
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	names := make([]string, 0, len(r.engines))
	for n := range r.engines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := r.engines[n]
		e.mu.Lock()
		if e.eng != nil {
			if err := e.eng.Source().Close(); err != nil {
				errs = append(errs, fmt.Errorf("close source %s: %w", n, err))
			}
		}
		e.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Open opens one source: its database, its model (a file, a builtin demo
// model, or a draft), checked against the database.
func Open(ctx context.Context, cfg config.Source, opt Options) (*engine.Engine, Info, error) {
	t, err := source.ParseDSN(cfg.DSN)
	if err != nil {
		return nil, Info{}, fmt.Errorf("source %s: %w", cfg.Name, err)
	}
	db, err := source.OpenDB(ctx, t)
	if err != nil {
		return nil, Info{}, fmt.Errorf("source %s: %w", cfg.Name, err)
	}
	info := Info{Name: cfg.Name, Dialect: string(t.Dialect), DSN: t.Display, Model: cfg.Model}
	m, drafted, err := loadModel(ctx, cfg, db, t, opt)
	if err != nil {
		db.Close()
		return nil, Info{}, err
	}
	// the model's SQL fragments pass the guard now, not when a question
	// first uses one
	if err := guard.CheckModel(m); err != nil {
		db.Close()
		return nil, Info{}, fmt.Errorf("source %s: %w", cfg.Name, err)
	}
	info.Drafted = drafted
	info.Description = m.Description
	sopt := opt.Source
	if cfg.QueryTimeout > 0 {
		sopt.QueryTimeout = cfg.QueryTimeout
	}
	if cfg.RowCap > 0 {
		sopt.RowCap = cfg.RowCap
	}
	sopt.Concurrency = source.ConfiguredConcurrency(cfg.MaxConcurrent, cfg.HeavyConcurrent, cfg.HeavyAfter)
	src := source.New(cfg.Name, t, db, m, sopt)
	if err := src.CheckSchema(ctx); err != nil {
		src.Close()
		return nil, Info{}, fmt.Errorf("source %s: the model does not match the database: %w", cfg.Name, err)
	}
	var eopt engine.Options
	eopt.Engine = cfg.Engine
	if eopt.LLM, err = llmClient(cfg, opt); err != nil {
		src.Close()
		return nil, Info{}, err
	}
	if d, ok := config.ParseNow(cfg.Now); ok {
		eopt.Now = fixed(d)
		info.Now = cfg.Now
	} else if opt.UseAsOf {
		if d, ok := asOf(ctx, src); ok {
			eopt.Now = fixed(d)
			info.Now = d.Format(time.DateOnly)
		}
	}
	eng := engine.New(src, eopt)
	info.Engine, info.Engines = EngineChoice(eng, cfg.Engine)
	return eng, info, nil
}

// EngineChoice is what a source offers: the engine its questions get when
// a request names none (configured, else rules), and the engines a request
// may choose — those the engine accepts (rules always; llm and hybrid with
// a model endpoint).
func EngineChoice(eng *engine.Engine, configured string) (string, []string) {
	if configured == "" {
		configured = engine.EngineRules
	}
	var usable []string
	for _, n := range []string{engine.EngineRules, engine.EngineLLM, engine.EngineHybrid} {
		if eng.CheckEngine(n) == nil {
			usable = append(usable, n)
		}
	}
	return configured, usable
}

// llmClient builds the source's model client from its llm: and the
// environment's override; nil when neither names an endpoint.
func llmClient(cfg config.Source, opt Options) (*llm.Client, error) {
	var c llm.Config
	if l := cfg.LLM; l != nil {
		c.BaseURL, c.Model = l.BaseURL, l.Model
		if l.APIKeyEnv != "" {
			get := opt.Getenv
			if get == nil {
				get = os.Getenv
			}
			c.APIKey = strings.TrimSpace(get(l.APIKeyEnv))
		}
	}
	env := opt.LLM
	for _, f := range []struct{ to, from *string }{{&c.BaseURL, &env.BaseURL}, {&c.Model, &env.Model}, {&c.APIKey, &env.APIKey}} {
		if *f.from != "" {
			*f.to = *f.from
		}
	}
	if c.BaseURL == "" && c.Model == "" {
		return nil, nil
	}
	// the rest of the environment's config (timeouts, hooks) applies too
	env.BaseURL, env.Model, env.APIKey = c.BaseURL, c.Model, c.APIKey
	cl, err := llm.New(env)
	if err != nil {
		return nil, fmt.Errorf("source %s: language model endpoint: %w", cfg.Name, err)
	}
	return cl, nil
}

func fixed(d time.Time) func() time.Time { return func() time.Time { return d } }

// asOf reads the as_of date of a demo-style database.
func asOf(ctx context.Context, src *source.Source) (time.Time, bool) {
	q := "SELECT value FROM clarify_meta WHERE " + map[bool]string{true: "`key`", false: `"key"`}[src.Dialect() == model.MySQL] + " = 'as_of'"
	res, err := src.Query(ctx, q, nil, 1)
	if err != nil || len(res.Rows) != 1 {
		return time.Time{}, false
	}
	d, err := time.Parse(time.DateOnly, fmt.Sprint(res.Rows[0][0]))
	return d, err == nil
}

func loadModel(ctx context.Context, cfg config.Source, db *sql.DB, t source.Target, opt Options) (*model.Model, bool, error) {
	switch {
	case strings.HasPrefix(cfg.Model, "builtin:"):
		name := strings.TrimPrefix(cfg.Model, "builtin:")
		data, err := models.Get(name)
		if err != nil {
			return nil, false, err
		}
		m, err := model.Parse("builtin:"+name+".yaml", data)
		return m, false, err
	case cfg.Model != "":
		m, err := model.Load(cfg.Model)
		return m, false, err
	case opt.Draft != nil:
		data, err := opt.Draft(ctx, db, t.Dialect, cfg.Name)
		if err != nil {
			return nil, false, fmt.Errorf("source %s: draft a model: %w", cfg.Name, err)
		}
		m, err := model.Parse("drafted:"+cfg.Name+".yaml", data)
		return m, true, err
	}
	return nil, false, fmt.Errorf("source %s has no model (set model: in the config)", cfg.Name)
}

// ModelBeside returns the model file next to a database file (NAME.yaml
// or NAME.model.yaml for NAME.db), or "".
func ModelBeside(dbPath string) string {
	base := strings.TrimSuffix(dbPath, filepath.Ext(dbPath))
	for _, p := range []string{base + ".yaml", base + ".model.yaml", base + ".yml"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
