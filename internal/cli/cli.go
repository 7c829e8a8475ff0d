// Package cli is the clarify command: every subcommand runs in-process
// through Run, so tests call it like a user would.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/config"
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
  clarify serve [--addr HOST:PORT] [--store sqlite:PATH|postgres://…] [--tls-cert FILE --tls-key FILE]
        [--allow-insecure-keys] [--allowed-host NAME]…
        the web chat, the HTTP API and metrics
  clarify ask "QUESTION" [--source NAME | --db DSN [--model FILE]] [--no-ask] [--json | --explain]
        [--engine rules|llm|hybrid] [--user NAME]
        answer one question, asking when it must
  clarify chat [--source NAME] [--store sqlite:PATH|postgres://…] [--no-ask]
        a conversation with follow-ups
  clarify eval SUITE.yaml… [--engine rules|llm|hybrid] [--json FILE] [-v] [--min-accuracy X]
        [--max-false-ask X] [--max-missed-ask X] [--min-error-match X]
        run evaluation suites and score them
  clarify model check FILE [--db DSN]
        validate a model (and check it against a database)
  clarify model init --db DSN [--out FILE [--force]] [--name NAME]
        draft a model from a database
  clarify model review [--source NAME] [--model FILE] [--store DSN] [--since DURATION] [--eval FILE.json]…
        [--out PATCH.yaml [--force]] [--json]
        propose model additions from the query log
  clarify demo [--dir D | --data-dir D] [--as-of YYYY-MM-DD] [--seed N] [--postgres DSN] [--mysql DSN]
        (re)generate the demo databases
  clarify sources
        list the configured sources
  clarify guard 'SQL'… [--source NAME | --db DSN [--model FILE]] [--scope VALUE] [--dialect D] [--run] [--json]
        vet statements with the guard every query passes
  clarify doctor [--source NAME] [--json]
        check what each source's database account may do beyond reading
  clarify audit [--user U] [--source NAME] [--since 30d|TIME] [--until TIME] [--limit N] [--before ID]
        [--store DSN] [--json]
        print the audit log, newest first
  clarify key new --user NAME [--expires 90d|YYYY-MM-DD] [--admin] [--group G]…
        an API key, printed once, and its config lines
  clarify llm check [--base-url URL] [--model NAME] [--timeout D]
        what an OpenAI-compatible endpoint supports (env CLARIFY_LLM_BASE_URL, CLARIFY_LLM_MODEL, CLARIFY_LLM_API_KEY)
  clarify bench serve [--conversations N] [--question Q] [--source NAME] [--store DSN]
        a bounded load run against a child server
  clarify bench fairness [--heavy N] [--light N] [--heavy-question Q] [--light-question Q] [--source NAME]
        [--store DSN] [--duration D]
        light-question latency with and without N heavy clients
  clarify bench flood [--clients N] [--duration D] [--question Q] [--source NAME] [--polite-every D] [--store DSN]
        one user floods, another asks politely: what the rate limits let through
  clarify bench scale [--factor N] [--dialect sqlite|postgres] [--postgres DSN] [--schema NAME] [--questions FILE]
        [--rounds N] [--keep] [--rebuild] [--json]
        the trades source at N times its size: answering and clarifying turns, against the raw SQL (docs/bench.md)
  clarify version
        the version, commit and Go version of this binary
  clarify help [COMMAND]
        this text, or a command's with all its flags (as COMMAND --help)

Commands that read sources or a store also take --data-dir D (env CLARIFY_DATA_DIR)
and --config FILE (env CLARIFY_CONFIG).
On first use the demo databases are generated into DATA_DIR/demo.
`

// env is what a command runs with.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// sawFlags, when set, is called with every flag set a command parses
	// (tests check each command's help against its flags).
	sawFlags func(*flag.FlagSet)
}

// command is one of clarify's commands: its name and what runs it, or,
// for a group such as model, its subcommands.
type command struct {
	name string
	run  func(e *env, ctx context.Context, args []string) error
	subs []command
}

// commands lists clarify's commands; Run dispatches through it, and help
// and the tests walk it.
func commands() []command {
	return []command{
		{name: "serve", run: (*env).serve},
		{name: "ask", run: (*env).ask},
		{name: "chat", run: (*env).chat},
		{name: "eval", run: (*env).eval},
		{name: "model", subs: []command{
			{name: "check", run: (*env).modelCheck},
			{name: "init", run: (*env).modelInit},
			{name: "review", run: (*env).modelReview},
		}},
		{name: "demo", run: (*env).demo},
		{name: "sources", run: (*env).sources},
		{name: "guard", run: (*env).guardCmd},
		{name: "doctor", run: (*env).doctor},
		{name: "audit", run: (*env).audit},
		{name: "key", subs: []command{{name: "new", run: (*env).keyNew}}},
		{name: "llm", subs: []command{{name: "check", run: (*env).llmCheck}}},
		{name: "bench", subs: []command{
			{name: "serve", run: (*env).benchServe},
			{name: "fairness", run: (*env).benchFairness},
			{name: "flood", run: (*env).benchFlood},
			{name: "scale", run: (*env).benchScale},
		}},
		{name: "version", run: (*env).version},
	}
}

// Run runs the clarify command with args and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	return e.run(ctx, args)
}

func (e *env) run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			// clarify help model init: as clarify model init --help
			return e.run(ctx, append(slices.Clone(args[1:]), "--help"))
		}
		fmt.Fprint(e.stdout, usage)
		return exitOK
	case "-version", "--version":
		args = []string{"version"}
	}
	err := e.dispatch(ctx, commands(), nil, args)
	if err == nil {
		return exitOK
	}
	var h *helpText
	if errors.As(err, &h) {
		fmt.Fprint(e.stdout, h.text)
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) && ue.help != "" {
		fmt.Fprintf(e.stderr, "clarify: %s\n\n%s", ue.msg, ue.help)
		return exitUsage
	}
	fmt.Fprintln(e.stderr, "clarify: "+message(err))
	return exitCode(err)
}

// dispatch runs the command args name among cmds; path is the names of
// the groups it is in.
func (e *env) dispatch(ctx context.Context, cmds []command, path []string, args []string) error {
	group := strings.Join(path, " ")
	if len(args) == 0 {
		return &usageError{msg: group + " needs a subcommand", help: groupHelp(group, cmds)}
	}
	if len(path) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			return &helpText{groupHelp(group, cmds)}
		}
	}
	for _, c := range cmds {
		if c.name != args[0] {
			continue
		}
		if c.subs != nil {
			return e.dispatch(ctx, c.subs, append(path, c.name), args[1:])
		}
		return c.run(e, ctx, args[1:])
	}
	if len(path) == 0 {
		return &usageError{msg: fmt.Sprintf("unknown command %q", args[0]), help: usage}
	}
	return &usageError{msg: fmt.Sprintf("unknown %s subcommand %q", group, args[0]), help: groupHelp(group, cmds)}
}

// usageError is a mistake in the command line; help, when set, is the
// usage printed under it.
type usageError struct {
	msg  string
	help string
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// failure is a command that ran but whose result is a "no" (thresholds not
// met, statements rejected); its message is already printed.
type failure struct{ msg string }

func (e *failure) Error() string { return e.msg }

// exitCode maps an error to the process exit code — the one place this
// mapping lives. Every apperr code exits exitFail: the command ran and
// its answer is "no"; the code is printed with the message (and is in
// --json output) for scripts that need to tell the codes apart.
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

// message renders an error for people: a coded error as its code and its
// safe message (the cause stays out, as in the server's responses), any
// other error — a file that cannot be read, a flag out of range — as it is.
func message(err error) string {
	if code := apperr.CodeOf(err); code != "" {
		return string(code) + ": " + apperr.MessageOf(err)
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
// -h or --help asks for the command's help (printed by Run to standard
// output, exit 0); a flag it does not know is a usage error with the help.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpText{commandHelp(fs)}
			}
			return nil, &usageError{msg: err.Error(), help: commandHelp(fs)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newFlagSet makes the flag set of the command name ("model init"), whose
// synopsis in usage heads its help. Its errors and help are printed by Run.
func newFlagSet(name string, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if e.sawFlags != nil {
		e.sawFlags(fs)
	}
	return fs
}

func (e *env) sources(ctx context.Context, args []string) error {
	fs := newFlagSet("sources", e)
	var c common
	c.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("sources takes no arguments, got %q", pos[0])
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	defer reg.Close()
	if err := e.ensureDemo(ctx, reg, cfg, dir); err != nil {
		return err
	}
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
