// Package cli is the clarify command: every subcommand runs in-process
// through Run, so tests call it like a user would.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/source"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and the answer is "no" (error, threshold, rejected)
	exitUsage = 2 // bad usage or malformed input files
)

const usage = `clarify — ask a SQL database questions in plain language

Usage:
  clarify serve [--addr HOST:PORT] [--store sqlite:PATH|postgres://…]
  clarify ask "QUESTION" [--source NAME | --db DSN --model FILE] [--no-ask] [--json] [--engine rules|llm|hybrid]
  clarify chat [--source NAME] [--store sqlite:PATH|postgres://…] [--no-ask]   a conversation with follow-ups
  clarify eval SUITE.yaml… [--engine rules|llm|hybrid] [--json FILE] [--min-accuracy X] [--max-false-ask X] [--max-missed-ask X] [--min-error-match X]
  clarify model check FILE [--db DSN]
  clarify model init --db DSN [--out FILE] [--name NAME]
  clarify model review [--source NAME] [--store DSN] [--since DURATION] [--eval FILE.json]… [--out PATCH.yaml] [--json]
  clarify demo [--dir D] [--as-of YYYY-MM-DD] [--seed N] [--postgres DSN] [--mysql DSN]
  clarify sources
  clarify bench serve [--conversations N] [--store DSN]   a bounded load run against a child server
  clarify bench fairness [--heavy N] [--heavy-question Q] [--light-question Q] [--source NAME] [--duration D]   light-question latency with and without N heavy clients
  clarify bench flood [--clients N] [--duration D] [--question Q] [--source NAME] [--polite-every D]   one user floods, another asks politely: what the rate limits let through
  clarify guard 'SQL'… [--source NAME] [--scope VALUE] [--dialect D] [--run] [--json]
  clarify doctor [--source NAME] [--json]
  clarify audit [--user U] [--source NAME] [--since 30d|TIME] [--until TIME] [--limit N] [--before ID] [--store DSN] [--json]
  clarify key new --user NAME [--expires 90d|YYYY-MM-DD] [--admin] [--group G]…   an API key, printed once, and its config lines
  clarify llm check [--base-url URL] [--model NAME]   what an OpenAI-compatible endpoint supports (env CLARIFY_LLM_BASE_URL, CLARIFY_LLM_MODEL, CLARIFY_LLM_API_KEY)

Common flags: --data-dir D (env CLARIFY_DATA_DIR), --config FILE (env CLARIFY_CONFIG).
Demo data is generated into the data directory on first use.
`

// env is what a command runs with.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// Run runs the clarify command with args and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "ask":
		err = e.ask(ctx, args[1:])
	case "chat":
		err = e.chat(ctx, args[1:])
	case "eval":
		err = e.eval(ctx, args[1:])
	case "model":
		err = e.model(ctx, args[1:])
	case "demo":
		err = e.demo(ctx, args[1:])
	case "sources":
		err = e.sources(ctx, args[1:])
	case "serve":
		err = e.serve(ctx, args[1:])
	case "bench":
		err = e.bench(ctx, args[1:])
	case "guard":
		err = e.guardCmd(ctx, args[1:])
	case "doctor":
		err = e.doctor(ctx, args[1:])
	case "audit":
		err = e.audit(ctx, args[1:])
	case "key":
		err = e.key(ctx, args[1:])
	case "llm":
		err = e.llmCmd(ctx, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "clarify: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintln(stderr, "clarify: "+message(err))
	return exitCode(err)
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// failure is a command that ran but whose result is a "no" (thresholds not
// met, statements rejected); its message is already printed.
type failure struct{ msg string }

func (e *failure) Error() string { return e.msg }

// exitCode maps an error to the process exit code — the one place this
// mapping lives.
func exitCode(err error) int {
	var ue *usageError
	var se *eval.SuiteError
	var me *model.Error
	switch {
	case errors.As(err, &ue), errors.As(err, &se):
		return exitUsage
	case errors.As(err, &me):
		return exitFail
	}
	return exitFail
}

// message renders an error for people: engine errors with their code.
func message(err error) string {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return ee.Code + ": " + ee.Message
	}
	return err.Error()
}

// common flags shared by commands that open sources.
type common struct {
	dataDir string
	config  string
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dataDir, "data-dir", "", "data directory (env CLARIFY_DATA_DIR)")
	fs.StringVar(&c.config, "config", "", "config file (env CLARIFY_CONFIG)")
}

// load resolves the config and data directory.
func (c *common) load() (*config.Config, string, error) {
	path := c.config
	if path == "" {
		path = getenv("CLARIFY_CONFIG")
	}
	var cfg *config.Config
	if path != "" {
		var err error
		if cfg, err = config.Load(path); err != nil {
			return nil, "", err
		}
	}
	dir, err := config.ResolveDataDir(c.dataDir, cfg)
	if err != nil {
		return nil, "", err
	}
	return cfg, dir, nil
}

// parse parses flags that may come before or after positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func newFlagSet(name string, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

func (e *env) sources(ctx context.Context, args []string) error {
	fs := newFlagSet("sources", e)
	var c common
	c.register(fs)
	if _, err := parse(fs, args); err != nil {
		return usagef("%v", err)
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	defer reg.Close()
	for _, n := range reg.Names() {
		_, info, err := reg.Engine(ctx, n)
		if err != nil {
			fmt.Fprintf(e.stdout, "%s\tERROR %s\n", n, message(err))
			continue
		}
		fmt.Fprintf(e.stdout, "%s\t%s\t%s\t%s\n", n, info.Dialect, info.DSN, strings.TrimSpace(info.Description))
	}
	return nil
}

func (e *env) registryOptions() registry.Options {
	// CLARIFY_LLM_* set or override every source's language model endpoint
	return registry.Options{Draft: draftModel, Source: source.Options{}, LLM: llm.FromEnv()}
}
