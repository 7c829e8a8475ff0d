package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/models"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/review"
	"github.com/clarify-sql/clarify/internal/store"
)

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// modelReview reviews a source's query log and answers (and eval results)
// and proposes model additions as a YAML patch (docs/review.md).
func (e *env) modelReview(ctx context.Context, args []string) error {
	fs := newFlagSet("model review", e)
	var c common
	c.register(fs)
	src := fs.String("source", "", "source to review (default: the first configured)")
	modelFile := fs.String("model", "", "propose against this model file (default: the source's model)")
	storeDSN := fs.String("store", "", "store: sqlite:PATH or postgres://… (env CLARIFY_STORE, default sqlite:DATA_DIR/clarify.db)")
	since := fs.String("since", "", "only the records of this last period: a duration (72h) or days (30d) (default: all)")
	var evalFiles stringList
	fs.Var(&evalFiles, "eval", "results written by clarify eval --json (repeatable)")
	out := fs.String("out", "", "write the YAML patch to this file (default: printed after the report)")
	force := fs.Bool("force", false, "overwrite the --out file if it exists")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("model review takes no arguments, got %q", pos[0])
	}
	if *force && *out == "" {
		return usagef("--force goes with --out: it overwrites that file")
	}
	if _, err := os.Stat(*out); *out != "" && !*force && err == nil {
		return existsError(*out) // said before the work, not after
	}
	var from time.Time
	if *since != "" {
		d, err := parseSince(*since)
		if err != nil {
			return usagef("--since: %v", err)
		}
		from = time.Now().Add(-d)
	}
	suites, err := readEvalResults(evalFiles)
	if err != nil {
		return err
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	name, m, err := e.reviewModel(ctx, cfg, dir, *src, *modelFile)
	if err != nil {
		return err
	}
	dsn := *storeDSN
	if dsn == "" {
		dsn = getenv("CLARIFY_STORE")
	}
	if dsn == "" && cfg != nil {
		dsn = cfg.Server.Store
	}
	if dsn == "" {
		dsn = "sqlite:" + filepath.Join(dir, "clarify.db")
	}
	in := review.Input{Source: name, Model: m, Since: from, Evals: suites}
	if in.Queries, in.Answers, err = readStore(ctx, dsn, name, from); err != nil {
		return err
	}
	r := review.Build(in)
	return e.writeReview(r, *out, *force, *asJSON)
}

// writeReview prints the report and writes (or prints) the patch.
func (e *env) writeReview(r *review.Report, out string, force, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else if err := review.Text(e.stdout, r); err != nil {
		return err
	}
	var patch bytes.Buffer
	if err := review.Patch(&patch, r); err != nil {
		return err
	}
	switch {
	case out != "":
		if err := writeModel(out, patch.Bytes(), force); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %d proposal(s) to %s\n", len(r.Proposals), out)
	case asJSON:
		if len(r.Proposals) > 0 {
			fmt.Fprintln(e.stderr, "the YAML patch was not written: add --out FILE")
		}
	default:
		fmt.Fprint(e.stdout, "\nYAML patch (--out FILE writes it to a file):\n\n")
		_, err := e.stdout.Write(patch.Bytes())
		return err
	}
	return nil
}

// reviewModel returns the store name and the model of the source to
// review: --model's file, or the configured source's model, read without
// opening its database unless the model must be drafted from it.
func (e *env) reviewModel(ctx context.Context, cfg *config.Config, dir, name, file string) (string, *model.Model, error) {
	if file != "" {
		m, err := model.Load(file)
		if err != nil {
			return "", nil, err
		}
		if name == "" {
			name = m.Source
		}
		return name, m, nil
	}
	sources := reviewSources(cfg)
	if name == "" && len(sources) > 0 {
		name = sources[0].Name
	}
	var known []string
	for _, s := range sources {
		known = append(known, s.Name)
		if s.Name != name {
			continue
		}
		switch {
		case strings.HasPrefix(s.Model, "builtin:"):
			data, err := models.Get(strings.TrimPrefix(s.Model, "builtin:"))
			if err != nil {
				return "", nil, err
			}
			m, err := model.Parse(s.Model+".yaml", data)
			return name, m, err
		case s.Model != "":
			m, err := model.Load(s.Model)
			return name, m, err
		}
		// no model file: the one drafted from the database
		reg := registry.New(cfg, dir, e.registryOptions())
		defer reg.Close()
		eng, _, err := reg.Engine(ctx, name)
		if err != nil {
			return "", nil, err
		}
		return name, eng.Source().Model, nil
	}
	return "", nil, &registry.UnknownSourceError{Name: name, Known: known}
}

// reviewSources lists the configured sources, or the demo sources (with
// their built-in models) when none are configured, as the registry does.
func reviewSources(cfg *config.Config) []config.Source {
	if cfg != nil && len(cfg.Sources) > 0 {
		return cfg.Sources
	}
	var out []config.Source
	for _, n := range demo.Names() {
		out = append(out, config.Source{Name: n, Model: "builtin:" + n})
	}
	return out
}

// readStore reads a source's query log and answers since a time. A SQLite
// store that does not exist is an error, not a new empty store.
func readStore(ctx context.Context, dsn, source string, since time.Time) ([]store.QueryRecord, []store.Answer, error) {
	if p, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		p = strings.TrimPrefix(p, "//")
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("no store at %s: clarify serve keeps one there as users ask; name another with --store", p)
		}
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	queries, err := st.QueryLog(ctx, source, since)
	if err != nil {
		return nil, nil, err
	}
	answers, err := st.Answers(ctx, source, since)
	if err != nil {
		return nil, nil, err
	}
	return queries, answers, nil
}

// readEvalResults reads the files clarify eval --json wrote; one that
// cannot be read is a usage error.
func readEvalResults(files []string) ([]eval.SuiteResult, error) {
	var out []eval.SuiteResult
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, usagef("--eval: %v", err)
		}
		suites, err := review.ParseEval(data)
		if err != nil {
			return nil, usagef("--eval %s: %v", f, err)
		}
		out = append(out, suites...)
	}
	return out, nil
}

// parseSince reads a period: a Go duration ("72h", "90m") or whole days
// ("30d").
func parseSince(s string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (e.g. 72h or 30d)", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("%q is not a duration (e.g. 72h or 30d)", s)
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q is not a positive duration", s)
	}
	return d, nil
}
