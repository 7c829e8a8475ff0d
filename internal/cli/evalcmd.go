package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/registry"
)

// floatFlag is an optional float flag.
type floatFlag struct{ v *float64 }

func (f *floatFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f *floatFlag) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	f.v = &x
	return nil
}

func (e *env) eval(ctx context.Context, args []string) error {
	fs := newFlagSet("eval", e)
	var c common
	c.register(fs)
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	eng := fs.String("engine", "", "engine: rules, llm or hybrid (default: each source's; llm and hybrid need CLARIFY_LLM_BASE_URL and CLARIFY_LLM_MODEL)")
	verbose := fs.Bool("v", false, "list passing cases too")
	var minAcc, maxFalse, maxMissed, minErr floatFlag
	fs.Var(&minAcc, "min-accuracy", "fail (exit 1) when a suite's accuracy is lower")
	fs.Var(&maxFalse, "max-false-ask", "fail when a suite's false_ask is higher")
	fs.Var(&maxMissed, "max-missed-ask", "fail when a suite's missed_ask (1 − ask_recall) is higher")
	fs.Var(&minErr, "min-error-match", "fail when a suite's error_match is lower")
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch *eng {
	case "", engine.EngineRules, engine.EngineLLM, engine.EngineHybrid:
	default:
		return usagef("unknown engine %q: use rules, llm or hybrid", *eng)
	}
	if len(files) == 0 {
		return usagef("eval needs at least one suite file")
	}
	var suites []*eval.Suite
	for _, f := range files {
		s, err := eval.LoadSuite(f)
		if err != nil {
			return err
		}
		suites = append(suites, s)
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	opt := e.registryOptions()
	opt.UseAsOf = true
	// answers are compared whole with the gold: no row cap
	opt.Source.RowCap = 10_000_000
	reg := registry.New(cfg, dir, opt)
	defer reg.Close()
	var opened []*engine.Engine
	defer func() {
		for _, o := range opened {
			o.Source().Close()
		}
	}()
	openSuite := func(ctx context.Context, s *eval.Suite) (*engine.Engine, string, error) {
		for _, n := range reg.Names() {
			if n == s.Source {
				if err := e.ensureDemo(ctx, reg, cfg, dir); err != nil {
					return nil, "", err
				}
				en, _, err := reg.Engine(ctx, n)
				return en, "", err
			}
		}
		// a path: a source config, or a database file with or without a model beside it
		p := s.Source
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(s.File), p)
		}
		if ext := filepath.Ext(p); ext == ".yaml" || ext == ".yml" {
			sc, err := config.Load(p)
			if err != nil {
				return nil, "", err
			}
			if len(sc.Sources) == 0 {
				return nil, "", fmt.Errorf("%s configures no source", p)
			}
			en, info, err := registry.Open(ctx, sc.Sources[0], opt)
			if err == nil {
				opened = append(opened, en)
			}
			return en, draftNote(info), err
		}
		if _, err := os.Stat(p); err != nil {
			return nil, "", &registry.UnknownSourceError{Name: s.Source, Known: reg.Names()}
		}
		en, info, err := registry.Open(ctx, config.Source{Name: filepath.Base(p), DSN: "sqlite:" + p, Model: registry.ModelBeside(p)}, opt)
		if err == nil {
			opened = append(opened, en)
		}
		return en, draftNote(info), err
	}
	// cases run on a warm source: a cold one answers at once from part of
	// its stored values, so results would depend on how fast they load
	open := func(ctx context.Context, s *eval.Suite) (*engine.Engine, string, error) {
		en, note, err := openSuite(ctx, s)
		if err == nil {
			err = en.WarmValues(ctx)
		}
		return en, note, err
	}
	var results []*eval.SuiteResult
	for _, s := range suites {
		r, err := eval.Run(ctx, s, open, eval.Options{Engine: *eng})
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	printEval(e.stdout, results, *verbose)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", *jsonOut, err)
		}
	}
	th := eval.Thresholds{MinAccuracy: minAcc.v, MaxFalseAsk: maxFalse.v, MaxMissedAsk: maxMissed.v, MinErrorMatch: minErr.v}
	var misses []string
	for _, r := range results {
		misses = append(misses, th.Check(r)...)
	}
	if len(misses) > 0 {
		for _, m := range misses {
			fmt.Fprintln(e.stdout, "threshold not met: "+m)
		}
		return &failure{msg: fmt.Sprintf("%d threshold(s) not met", len(misses))}
	}
	return nil
}

// evalLegend explains the columns of eval's table (docs/eval.md says more).
const evalLegend = `  accuracy       cases whose answer returns the gold SQL's rows
  ask_recall     of the cases that must ask, the share that asked about the expected thing
  false_ask      of the cases that must answer at once, the share that asked anyway
  ask_precision  of the questions asked, the share that were expected
  q/case         questions asked per case
  error_match    of the cases that must fail, the share that failed with the expected code
  p50/p99 ms     time per case, understanding to result (median, 99th percentile)
  -              nothing to score: no case (or no question) of that kind
`

// printEval prints eval.Print's report with the legend under its table,
// whose header and one line per suite come first.
func printEval(w io.Writer, results []*eval.SuiteResult, verbose bool) {
	var b bytes.Buffer
	eval.Print(&b, results, verbose)
	lines := strings.SplitAfter(b.String(), "\n")
	n := min(1+len(results), len(lines))
	fmt.Fprint(w, strings.Join(lines[:n], ""))
	fmt.Fprint(w, evalLegend)
	if rest := strings.Join(lines[n:], ""); rest != "" {
		fmt.Fprint(w, "\n"+rest)
	}
}

func draftNote(info registry.Info) string {
	if info.Drafted {
		return "no model beside the database: ran on a model drafted by model init on the fly"
	}
	return ""
}
