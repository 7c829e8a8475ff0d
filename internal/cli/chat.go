package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/store"
)

const chatHelp = `Ask a question in plain words; what you type next follows up on the answer
("only the infected ones", "by clinic"). When I ask, Enter takes my best
guess, a number picks a choice, or say it in your own words.
  /new          start a new conversation
  /sql          show the SQL of the last answer
  /source NAME  ask another source (a new conversation)
  /help         this text
  /quit         end (so does end of input)
`

// chat runs a conversation on the terminal with the turns of the web chat:
// the same service, persisted in the same store as serve's (so the
// conversations show in the web chat's history of the local user).
func (e *env) chat(ctx context.Context, args []string) error {
	fs := newFlagSet("chat", e)
	var c common
	c.register(fs)
	src := fs.String("source", "", "source name (default: the first configured)")
	storeDSN := fs.String("store", "", "store: sqlite:PATH or postgres://… (env CLARIFY_STORE, default sqlite:DATA_DIR/clarify.db)")
	noAsk := fs.Bool("no-ask", false, "answer at once, stating assumptions instead of asking")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("chat takes no arguments: type the questions after it starts")
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	defer reg.Close()
	if err := e.ensureDemo(ctx, reg, cfg, dir); err != nil {
		return err
	}
	source := first(*src, reg.Default())
	if !slices.Contains(reg.Names(), source) {
		return &registry.UnknownSourceError{Name: source, Known: reg.Names()}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create data directory %s: %w", dir, err)
	}
	dsn := first(*storeDSN, getenv("CLARIFY_STORE"), cfg.Server.Store, "sqlite:"+filepath.Join(dir, "clarify.db"))
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	svc := conversation.New(registry.Engines{Registry: reg}, st, conversation.Options{
		TTL: cfg.Server.ClarificationTTL, MessageLimit: cfg.Server.MessageLimit, Log: log})
	defer svc.Close()

	typed := isTerminal(e.stdin)
	in := newLines(e.stdin, !typed)
	defer in.close(ctx)
	s := &chatSession{e: e, svc: svc, in: in, names: reg.Names(), source: source, interactive: !*noAsk, echo: !typed}
	return s.run(ctx)
}

// chatSession is one run of clarify chat: the conversation it is in and
// the last answer.
type chatSession struct {
	e           *env
	svc         *conversation.Service
	in          *lines
	names       []string
	source      string
	interactive bool
	// echo writes what was read after its prompt, so that a transcript of
	// scripted input reads like a session.
	echo bool

	id      string                // the conversation; "" before the first question
	pending *engine.Clarification // the question waiting for an answer
	last    *engine.Answer
}

func (s *chatSession) run(ctx context.Context) error {
	w := s.e.stdout
	fmt.Fprintf(w, "Clarify chat on %s (sources: %s). /help lists the commands.\n", s.source, strings.Join(s.names, ", "))
	for {
		prompt := s.source + "> "
		if s.pending != nil {
			prompt = "answer> "
		}
		line, ok := s.read(ctx, prompt)
		if !ok { // end of input, or Ctrl-C: the conversation is saved
			fmt.Fprintln(w)
			return nil
		}
		if strings.HasPrefix(line, "/") {
			if done := s.command(line); done {
				return nil
			}
			continue
		}
		if line == "" && s.pending == nil {
			continue
		}
		res, err := s.turn(ctx, line)
		if ctx.Err() != nil { // Ctrl-C during a turn: it runs again when the conversation is followed
			fmt.Fprintln(w)
			return nil
		}
		if err != nil {
			s.fail(err)
			continue
		}
		s.show(res)
	}
}

// read writes a prompt and reads a line; false at the end of input or
// when ctx ends.
func (s *chatSession) read(ctx context.Context, prompt string) (string, bool) {
	fmt.Fprint(s.e.stdout, prompt)
	line, ok := s.in.next(ctx)
	if ok && s.echo {
		fmt.Fprintln(s.e.stdout, line)
	}
	return strings.TrimSpace(line), ok
}

// command runs a /command; true ends the chat.
func (s *chatSession) command(line string) bool {
	w := s.e.stdout
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	switch strings.ToLower(name) {
	case "quit", "exit", "q":
		return true
	case "new":
		s.id, s.pending, s.last = "", nil, nil
		fmt.Fprintln(w, "(a new conversation)")
	case "sql":
		if s.last == nil {
			fmt.Fprintln(w, "(no answer yet: the SQL comes with an answer)")
			return false
		}
		printSQL(w, s.last)
	case "source":
		arg = strings.TrimSpace(arg)
		if !slices.Contains(s.names, arg) {
			fmt.Fprintf(w, "(no source %q; the sources are %s)\n", arg, strings.Join(s.names, ", "))
			return false
		}
		s.source, s.id, s.pending, s.last = arg, "", nil, nil
		fmt.Fprintf(w, "(a new conversation on %s)\n", arg)
	case "help", "?":
		fmt.Fprint(w, chatHelp)
	default:
		fmt.Fprintf(w, "(unknown command /%s; /help lists them)\n", name)
	}
	return false
}

// turn sends what the user typed: the first question, an answer to the
// pending question, or a follow-up in the conversation.
func (s *chatSession) turn(ctx context.Context, line string) (*conversation.Result, error) {
	if s.id == "" {
		interactive := s.interactive
		return s.svc.Ask(ctx, server.LocalUser, conversation.Ask{Question: line, Source: s.source, Interactive: &interactive}, nil)
	}
	m := conversation.Message{Text: line}
	if p := s.pending; p != nil {
		if a, ok := reply(p, line); ok {
			m = conversation.Message{Answer: a}
		}
	}
	return s.svc.Send(ctx, server.LocalUser, s.id, m, nil)
}

// reply reads an answer to a clarification: Enter for the best guess, a
// choice's number, or s for "use your best judgment". Anything else is
// sent as text, which the service reads as an answer in the user's own
// words (or as a new question).
func reply(c *engine.Clarification, line string) (*conversation.Answer, bool) {
	a := &conversation.Answer{ClarificationID: c.ID}
	switch l := strings.ToLower(line); {
	case l == "":
		for _, o := range c.Options {
			if o.BestGuess {
				a.OptionID = o.ID
				return a, true
			}
		}
		if c.AllowSkip {
			a.Skipped = true
			return a, true
		}
		return nil, false
	case (l == "s" || l == "skip") && c.AllowSkip:
		a.Skipped = true
		return a, true
	}
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(c.Options) {
		a.OptionID = c.Options[n-1].ID
		return a, true
	}
	return nil, false
}

// show prints a turn's outcome and remembers what the next line answers.
func (s *chatSession) show(res *conversation.Result) {
	w := s.e.stdout
	s.id = res.ConversationID
	s.pending = nil
	switch {
	case res.Clarification != nil:
		s.pending = res.Clarification
		printClarification(w, res.Clarification)
		hint := "  Enter takes the best guess · a number picks · or say it in your own words"
		if !hasBestGuess(res.Clarification) {
			hint = "  a number picks · or say it in your own words"
		}
		fmt.Fprintln(w, hint)
	case res.Answer != nil:
		s.last = res.Answer
		printAnswer(w, res.Answer, false)
	case res.Error != nil:
		fmt.Fprintf(w, "I could not answer that (%s): %s\n", res.Error.Code, res.Error.Message)
		fmt.Fprintln(w, "(your next message asks a new question in this conversation)")
	}
}

// fail prints a refused message; the chat goes on.
func (s *chatSession) fail(err error) {
	w := s.e.stdout
	switch code := apperr.CodeOf(err); code {
	case apperr.CodeMessageLimit, apperr.CodeClarificationExpired, apperr.CodeNotFound:
		s.id, s.pending = "", nil
		fmt.Fprintf(w, "%s (your next question starts a new conversation)\n", message(err))
	case "", apperr.CodeInternal:
		fmt.Fprintf(w, "error: %s\n", message(err))
	default:
		fmt.Fprintln(w, message(err))
	}
}

func hasBestGuess(c *engine.Clarification) bool {
	for _, o := range c.Options {
		if o.BestGuess {
			return true
		}
	}
	return false
}

// isTerminal reports whether r is a terminal (input typed by a person).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// lines reads input a line at a time on a goroutine of its own, so that
// waiting for a line can end when ctx does (Ctrl-C at the prompt).
type lines struct {
	ch   chan string
	done chan struct{} // closed by close: the reader stops at its next line
	exit chan struct{} // closed by the reader when it returns
	// wait: close waits for the reader. Not for a terminal: a reader
	// blocked on a terminal cannot be woken, and the process is ending.
	wait bool
}

func newLines(r io.Reader, wait bool) *lines {
	l := &lines{ch: make(chan string), done: make(chan struct{}), exit: make(chan struct{}), wait: wait}
	go func() {
		defer close(l.exit)
		defer close(l.ch)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if line != "" || err == nil {
				select {
				case l.ch <- strings.TrimRight(line, "\r\n"):
				case <-l.done:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return l
}

// next returns the next line; false at the end of input or when ctx ends.
func (l *lines) next(ctx context.Context) (string, bool) {
	select {
	case line, ok := <-l.ch:
		return line, ok
	case <-ctx.Done():
		return "", false
	}
}

// close stops the reader and, unless it reads a terminal, waits for it
// (no longer than ctx): scripted input reaches its end or its next line.
func (l *lines) close(ctx context.Context) {
	close(l.done)
	if !l.wait {
		return
	}
	select {
	case <-l.exit:
	case <-ctx.Done():
	}
}
