package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/user"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/understand"
)

func (e *env) ask(ctx context.Context, args []string) error {
	fs := newFlagSet("ask", e)
	var c common
	c.register(fs)
	src := fs.String("source", "", "source name (default: the first configured)")
	db := fs.String("db", "", "database DSN (sqlite:PATH, postgres://…, mysql://…) instead of a configured source")
	modelFile := fs.String("model", "", "model file for --db (default: drafted from the database)")
	noAsk := fs.Bool("no-ask", false, "answer at once, stating assumptions instead of asking")
	asJSON := fs.Bool("json", false, "print one JSON document per turn")
	explain := fs.Bool("explain", false, "print how the question was understood")
	asUser := fs.String("user", "", "apply the config's access rules for this user (env CLARIFY_USER; default the login name)")
	engineName := fs.String("engine", "", "engine: rules, llm or hybrid (default: the source's; llm and hybrid need CLARIFY_LLM_BASE_URL and CLARIFY_LLM_MODEL)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("ask needs exactly one question in quotes")
	}
	err = checkConflicts(fs, dbConflicts()...)
	if err == nil {
		err = checkConflicts(fs,
			conflict{"db", "user", "access rules apply to configured sources, --db opens a database directly"},
			conflict{"json", "explain", "--explain prints the interpretation as text, --json prints only JSON"})
	}
	if err != nil {
		return err
	}
	eng, closeFn, err := e.openEngine(ctx, c, *src, *db, *modelFile)
	if err != nil {
		return err
	}
	defer closeFn()
	if err := eng.CheckEngine(*engineName); err != nil {
		return err
	}
	var lim *understand.ScopeLimit
	if *db == "" {
		if lim, err = e.rights(ctx, c, eng, *asUser); err != nil {
			return err
		}
	}
	t := &turns{e: e, eng: eng, json: *asJSON, explain: *explain, in: bufio.NewReader(e.stdin), scope: lim, engine: *engineName}
	return t.run(ctx, pos[0], !*noAsk)
}

// dbConflicts are the flags that cannot go with --db, which opens a
// database directly instead of a configured source.
func dbConflicts() []conflict {
	return []conflict{
		{"source", "db", "--source names a configured source, --db opens a database directly"},
		{"config", "db", "--db opens a database directly, without the config's sources"},
		{"data-dir", "db", "--db opens a database directly, without the demo sources of the data directory"},
	}
}

// openEngine opens the engine of a configured source or of --db/--model.
func (e *env) openEngine(ctx context.Context, c common, name, dsn, modelFile string) (*engine.Engine, func(), error) {
	if dsn != "" {
		if name == "" {
			name = "db"
		}
		eng, _, err := registry.Open(ctx, config.Source{Name: name, DSN: dsn, Model: modelFile}, e.registryOptions())
		if err != nil {
			return nil, nil, err
		}
		return eng, func() { eng.Source().Close() }, nil
	}
	if modelFile != "" {
		return nil, nil, usagef("--model goes with --db")
	}
	cfg, dir, err := c.load()
	if err != nil {
		return nil, nil, err
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	if err := e.ensureDemo(ctx, reg, cfg, dir); err != nil {
		reg.Close()
		return nil, nil, err
	}
	if name == "" {
		name = reg.Default()
	}
	eng, _, err := reg.Engine(ctx, name)
	if err != nil {
		reg.Close()
		return nil, nil, err
	}
	return eng, func() { reg.Close() }, nil
}

// turns runs a question to its answer, asking on the terminal.
type turns struct {
	e       *env
	eng     *engine.Engine
	json    bool
	explain bool
	in      *bufio.Reader
	// scope limits the turns to the scope values the user may see.
	scope *understand.ScopeLimit
	// engine is the engine asked for ("" = the source's).
	engine string
}

func (t *turns) run(ctx context.Context, question string, interactive bool) error {
	req := engine.Request{Question: question, Resolved: map[string]understand.Resolution{}, Interactive: interactive, Scope: t.scope, Engine: t.engine}
	for {
		words := &wordsOut{w: t.e.stdout}
		if !t.json {
			req.Text = words.write // the language model's words as they come
		}
		out, err := t.eng.Turn(ctx, req)
		words.end()
		if err != nil {
			if t.json {
				t.printJSON(map[string]any{"status": engine.StatusFailed, "error": map[string]string{"code": string(apperr.CodeOf(err)), "message": message(err)}})
			}
			return err
		}
		if t.explain && !t.json {
			fmt.Fprint(t.e.stdout, understand.Describe(out.Interpretation), "\n")
		}
		if out.Status == engine.StatusAnswered {
			if t.json {
				t.printJSON(out)
			} else {
				printAnswer(t.e.stdout, out.Answer, true)
			}
			return nil
		}
		if t.json {
			t.printJSON(out)
		} else {
			printClarification(t.e.stdout, out.Clarification)
		}
		reply, ok := t.readReply()
		if !ok {
			// nobody to answer: finish with best guesses
			req.Interactive = false
			continue
		}
		if clarify.LooksLikeQuestion(reply) && clarify.Interpret(reply, out.Slot).FreeText != "" {
			req = engine.Request{Question: reply, Resolved: map[string]understand.Resolution{}, Interactive: interactive, Scope: t.scope, Engine: t.engine}
			continue
		}
		req.Resolved[out.Slot.Key] = engine.Resolve(out.Slot, clarify.Interpret(reply, out.Slot))
		req.Rounds++
	}
}

// wordsOut prints the language model's words as they stream, and ends
// them with a blank line before what follows.
type wordsOut struct {
	w    io.Writer
	last string
}

func (o *wordsOut) write(s string) {
	fmt.Fprint(o.w, s)
	o.last = s
}

func (o *wordsOut) end() {
	switch {
	case o.last == "":
	case strings.HasSuffix(o.last, "\n\n"):
	case strings.HasSuffix(o.last, "\n"):
		fmt.Fprintln(o.w)
	default:
		fmt.Fprint(o.w, "\n\n")
	}
}

func (t *turns) readReply() (string, bool) {
	if !t.json {
		fmt.Fprint(t.e.stdout, "> ")
	}
	line, err := t.in.ReadString('\n')
	line = strings.TrimSpace(line)
	if line == "" && err != nil {
		if !t.json {
			fmt.Fprintln(t.e.stdout, "(no answer: using best guesses)")
		}
		return "", false
	}
	return line, true
}

func (t *turns) printJSON(v any) {
	enc := json.NewEncoder(t.e.stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func printClarification(w io.Writer, c *engine.Clarification) {
	fmt.Fprintf(w, "? %s\n", c.Question)
	if c.Context != "" {
		fmt.Fprintf(w, "  %s\n", c.Context)
	}
	if c.Note != "" {
		fmt.Fprintf(w, "  (%s)\n", c.Note)
	}
	for i, o := range c.Options {
		line := fmt.Sprintf("  %d) %s", i+1, o.Label)
		if o.BestGuess {
			line += "  [best guess]"
		}
		if o.Preview != nil && o.Preview.Text != "" {
			line += "  — " + o.Preview.Text
		}
		fmt.Fprintln(w, line)
	}
	if c.AllowSkip {
		fmt.Fprintln(w, "  s) I don't know — use your best judgment")
	}
	if c.AllowFreeText {
		fmt.Fprintln(w, "  or type your own answer")
	}
}

func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		// exact: the shortest text that reads back as the same number
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// rights applies the config's access rules, when it has any, for the user
// named by --user, CLARIFY_USER or the login name: the source must be one
// they may use, and the turns are limited to the scope values they may
// see. The command line is as trusted as the config file it reads; this
// shows an operator what a user sees, the server is what separates users.
func (e *env) rights(ctx context.Context, c common, eng *engine.Engine, flagUser string) (*understand.ScopeLimit, error) {
	cfg, _, err := c.load()
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		return nil, nil // no config file: the demo, no rules
	}
	p := access.New(cfg.Access)
	if !p.Restricts() {
		return nil, nil
	}
	name := first(flagUser, getenv("CLARIFY_USER"))
	if name == "" {
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
	}
	if name == "" {
		return nil, usagef("the config has access rules: say who is asking with --user or CLARIFY_USER")
	}
	who := access.Who{User: name}
	src := eng.Source()
	if !p.MaySee(who, src.Name) {
		return nil, &apperr.Error{Code: apperr.CodeSourceForbidden, Message: fmt.Sprintf("%s may not use the source %q", name, src.Name)}
	}
	if src.Model.Scope == nil {
		return nil, nil
	}
	keys, all, err := p.Scope(ctx, who, src.Name, src)
	if err != nil {
		return nil, err
	}
	if all {
		return nil, nil
	}
	return understand.NewScopeLimit(keys), nil
}
