package cli

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// benchScaleQuestions are the questions bench scale asks by default.
//
//go:embed benchdata/trades.yaml
var benchScaleQuestions []byte

// benchScaleAsOf is the date the scaled data is generated for, and the
// source's clock: the same data and the same windows on every run.
var benchScaleAsOf = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// scaleQuestions is a bench scale question file (benchdata/trades.yaml).
type scaleQuestions struct {
	Answer  []string `yaml:"answer"`
	Clarify []string `yaml:"clarify"`
}

// scaleReport is what bench scale measured; its JSON names are stable so
// runs can be compared.
type scaleReport struct {
	Date       string        `json:"date"`
	GoVersion  string        `json:"go_version"`
	CPUs       int           `json:"cpus"`
	Dialect    string        `json:"dialect"`
	Factor     int           `json:"factor"`
	Rounds     int           `json:"rounds"`
	Trades     int64         `json:"trades"`
	Quotes     int64         `json:"quotes"`
	Reused     bool          `json:"reused"`
	BuildMS    float64       `json:"build_ms"`
	Answering  []answerFigs  `json:"answering"`
	Clarifying []clarifyFigs `json:"clarifying"`
	ColdStart  coldStartFigs `json:"cold_start"`
	Where      string        `json:"where"`
	// Load is the machine's load average over a minute before and after
	// the run (Linux; 0 elsewhere): figures taken under load are slower
	// and spread wider.
	Load [2]float64 `json:"load_avg"`
}

// spread is the median and range of a set of timings, in milliseconds.
type spread struct {
	P50 float64 `json:"p50"`
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

type answerFigs struct {
	Question string `json:"question"`
	// FirstMS is the warm-up turn: the first time the question is asked
	// on the source (after the cold start's question).
	FirstMS float64 `json:"first_ms"`
	// Turn is the whole turn, as a user waits for it.
	Turn spread `json:"turn_ms"`
	// Exec is the turn's own execution of its statement (timings_ms.execute).
	Exec spread `json:"exec_ms"`
	// Raw is the statement the turn ran, run directly with database/sql.
	Raw   spread  `json:"raw_ms"`
	Ratio float64 `json:"turn_over_raw"`
	Rows  int     `json:"rows"`
}

type clarifyFigs struct {
	Question string `json:"question"`
	// FirstMS is the warm-up turn, the first time the question is asked,
	// and PreviewsFirst the options it showed with a preview figure.
	FirstMS       float64 `json:"first_ms"`
	PreviewsFirst int     `json:"previews_first"`
	Turn          spread  `json:"turn_ms"`
	Kind          string  `json:"kind"`
	Options       int     `json:"options"`
	// Previewable is whether the engine previews options of this kind.
	Previewable bool `json:"previewable"`
	// PreviewsMin and PreviewsMax are the fewest and most options shown
	// with a preview figure in a timed round: the others missed the
	// budget (no preview, or one marked not counted).
	PreviewsMin int `json:"previews_min"`
	PreviewsMax int `json:"previews_max"`
}

type coldStartFigs struct {
	Question string `json:"question"`
	// OpenMS is the source's opening; FirstMS its first answer; WarmMS
	// the median of the same question asked again at the end of the run.
	OpenMS  float64 `json:"open_ms"`
	FirstMS float64 `json:"first_ms"`
	WarmMS  float64 `json:"warm_ms"`
	Ratio   float64 `json:"first_over_warm"`
	// FirstExecMS and WarmExecMS are the database's part of those (the
	// answer's statement, as the engine timed it): a cold database's
	// caches slow the statement itself, which no part of Clarify can
	// change; Clarify's own part is the time less it (warm, well under a
	// millisecond, so a ratio of the two says little).
	FirstExecMS float64 `json:"first_exec_ms"`
	WarmExecMS  float64 `json:"warm_exec_ms"`
	// DirectFirstMS and DirectAgainMS are the same statement run
	// directly, without Clarify, on a new connection of a plain pool
	// with the execution path's settings: its first run and a second on
	// that connection. A new PostgreSQL server process's first statement
	// is slower whoever sends it (it maps the shared buffers it touches),
	// so these are the database's own cold start to set the answer's
	// against.
	DirectFirstMS float64 `json:"direct_first_ms"`
	DirectAgainMS float64 `json:"direct_again_ms"`
}

// previewKinds are the clarification kinds whose options the engine
// previews (engine.previewKinds).
var previewKinds = map[string]bool{understand.KindVague: true, understand.KindValue: true, understand.KindTimeWindow: true, understand.KindScope: true}

// benchScale builds the trades source at --factor times its size on SQLite
// or PostgreSQL and times answering and clarifying turns on it, answers
// against their statements run directly (docs/bench.md).
func (e *env) benchScale(ctx context.Context, args []string) error {
	fs := newFlagSet("bench scale", e)
	var c common
	c.register(fs)
	factor := fs.Int("factor", 10, "how many times the demo's trades and quotes")
	dialect := fs.String("dialect", "sqlite", "database: sqlite (a file under DATA_DIR/bench) or postgres (--postgres)")
	pg := fs.String("postgres", "", "PostgreSQL DSN for --dialect postgres; the data goes to its own schema there")
	schema := fs.String("schema", "", "PostgreSQL schema for the data (default clarify_bench_trades_xFACTOR)")
	qfile := fs.String("questions", "", "YAML file with answer: and clarify: lists of questions (default the built-in ten and ten)")
	rounds := fs.Int("rounds", 5, "timed rounds per question, after one warm-up")
	keep := fs.Bool("keep", false, "keep the scaled data for the next run (removed otherwise)")
	rebuild := fs.Bool("rebuild", false, "build the data again even when a kept copy at this factor exists")
	asJSON := fs.Bool("json", false, "print a JSON document instead of the table")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("bench scale takes no arguments, got %q", pos[0])
	}
	if *factor < 1 || *rounds < 1 {
		return usagef("--factor and --rounds must be at least 1")
	}
	qs, err := loadScaleQuestions(*qfile)
	if err != nil {
		return err
	}
	_, dataDir, err := c.load()
	if err != nil {
		return err
	}
	data, err := e.scaledData(ctx, *dialect, *pg, *schema, dataDir, *factor, *rebuild)
	if err != nil {
		return err
	}
	defer data.finish(context.WithoutCancel(ctx), *keep)
	rep := &scaleReport{
		Date: time.Now().UTC().Format(time.RFC3339), GoVersion: runtime.Version(), CPUs: runtime.NumCPU(),
		Dialect: *dialect, Factor: *factor, Rounds: *rounds, Reused: data.reused, BuildMS: ms(data.build), Where: data.display,
	}
	rep.Load[0] = loadAvg()
	if err := e.measureScale(ctx, data, qs, rep); err != nil {
		return err
	}
	rep.Load[1] = loadAvg()
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	printScaleReport(e.stdout, rep)
	return nil
}

// loadScaleQuestions reads a question file, or the built-in questions.
func loadScaleQuestions(path string) (*scaleQuestions, error) {
	data, name := benchScaleQuestions, "built-in questions"
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("read questions: %w", err)
		}
		name = path
	}
	var qs scaleQuestions
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&qs); err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	if len(qs.Answer) == 0 {
		return nil, usagef("%s: no answer: questions (the first is also timed cold)", name)
	}
	return &qs, nil
}

// scaledData is the scaled trades database a run measures.
type scaledData struct {
	dsn     string // the source's DSN
	display string // where it is, without a password
	reused  bool
	build   time.Duration
	// finish removes the data unless it is kept, and closes what the
	// build opened.
	finish func(ctx context.Context, keep bool)
}

// scaledData builds the scaled trades database, or finds the one a
// previous run kept.
func (e *env) scaledData(ctx context.Context, dialect, pg, schema, dataDir string, factor int, rebuild bool) (*scaledData, error) {
	opt := demo.Options{AsOf: benchScaleAsOf}
	switch dialect {
	case "sqlite":
		if pg != "" || schema != "" {
			return nil, usagef("--postgres and --schema go with --dialect postgres")
		}
		return e.scaledSQLite(ctx, dataDir, opt, factor, rebuild)
	case "postgres":
		if pg == "" {
			return nil, usagef("--dialect postgres needs --postgres DSN")
		}
		if schema == "" {
			schema = "clarify_bench_trades_x" + strconv.Itoa(factor)
		}
		if slices.Contains(demo.Names(), schema) || schema == "public" {
			return nil, usagef("--schema %s would replace the demo's or the default schema: choose another", schema)
		}
		return e.scaledPostgres(ctx, pg, schema, opt, factor, rebuild)
	}
	return nil, usagef("--dialect must be sqlite or postgres, got %q", dialect)
}

func (e *env) scaledSQLite(ctx context.Context, dataDir string, opt demo.Options, factor int, rebuild bool) (*scaledData, error) {
	dir := filepath.Join(dataDir, "bench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, fmt.Sprintf("trades-x%d.db", factor))
	d := &scaledData{dsn: "sqlite:" + path, display: path, finish: func(_ context.Context, keep bool) {
		if !keep {
			_ = os.Remove(path)
		}
	}}
	if !rebuild && sqliteBuilt(ctx, path, factor) {
		d.reused = true
		return d, nil
	}
	fmt.Fprintf(e.stderr, "building trades ×%d in %s …\n", factor, path)
	start := time.Now()
	if err := demo.WriteScaledSQLite(ctx, path, opt, factor); err != nil {
		return nil, err
	}
	d.build = time.Since(start)
	return d, nil
}

// sqliteBuilt reports whether path holds the trades data at factor, for
// the bench's date.
func sqliteBuilt(ctx context.Context, path string, factor int) bool {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false
	}
	db, err := source.OpenDB(ctx, source.Target{Dialect: model.SQLite, Driver: "sqlite", DSN: path, Display: path})
	if err != nil {
		return false
	}
	defer db.Close()
	return built(ctx, db, model.SQLite, "", factor)
}

// built reports whether db (ns of it) holds the trades data at factor
// for the bench's date.
func built(ctx context.Context, db *sql.DB, d model.Dialect, ns string, factor int) bool {
	n, err := demo.ScaleFactor(ctx, db, d, ns)
	if err != nil || n != factor {
		return false
	}
	q := "SELECT value FROM clarify_meta WHERE key = 'as_of'"
	if ns != "" {
		q = "SELECT value FROM " + d.QuoteIdent(ns) + ".clarify_meta WHERE key = 'as_of'"
	}
	var asOf string
	return db.QueryRowContext(ctx, q).Scan(&asOf) == nil && asOf == benchScaleAsOf.Format(time.DateOnly)
}

func (e *env) scaledPostgres(ctx context.Context, dsn, schema string, opt demo.Options, factor int, rebuild bool) (*scaledData, error) {
	t, err := source.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if t.Dialect != model.Postgres {
		return nil, usagef("--postgres must be a postgres:// DSN")
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, usagef("--postgres: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	admin, err := openWritable(ctx, t)
	if err != nil {
		return nil, err
	}
	d := &scaledData{dsn: u.String(), display: t.Display + " schema " + schema, finish: func(ctx context.Context, keep bool) {
		defer admin.Close()
		if !keep {
			_, _ = admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+model.Postgres.QuoteIdent(schema)+" CASCADE")
		}
	}}
	if !rebuild && built(ctx, admin, model.Postgres, schema, factor) {
		d.reused = true
		return d, nil
	}
	fmt.Fprintf(e.stderr, "building trades ×%d in %s …\n", factor, d.display)
	start := time.Now()
	if err := demo.LoadScaledPostgres(ctx, admin, schema, opt, factor); err != nil {
		admin.Close()
		return nil, err
	}
	d.build = time.Since(start)
	return d, nil
}

// measureScale opens the source as the product does and times the turns,
// cold first, then warm, each answer against its statement run directly.
func (e *env) measureScale(ctx context.Context, data *scaledData, qs *scaleQuestions, rep *scaleReport) error {
	cfg := &config.Config{Sources: []config.Source{{Name: "trades", DSN: data.dsn, Model: "builtin:trades", Now: benchScaleAsOf.Format(time.DateOnly)}}}
	reg := registry.New(cfg, "", e.registryOptions())
	defer reg.Close()
	start := time.Now()
	eng, _, err := reg.Engine(ctx, "trades")
	if err != nil {
		return err
	}
	rep.ColdStart = coldStartFigs{Question: qs.Answer[0], OpenMS: ms(time.Since(start))}
	start = time.Now()
	a, err := answerTurn(ctx, eng, qs.Answer[0])
	if err != nil {
		return err
	}
	rep.ColdStart.FirstMS = ms(time.Since(start))
	rep.ColdStart.FirstExecMS = a.TimingsMS["execute"]
	t, err := source.ParseDSN(data.dsn)
	if err != nil {
		return err
	}
	raw, err := source.OpenDB(ctx, rawTarget(t))
	if err != nil {
		return err
	}
	defer raw.Close()
	if t.Dialect == model.SQLite {
		// The driver's SQLite keeps the page caches of every connection
		// of the process in one group: a direct-run connection kept open
		// takes the pages the source's connections read and leaves them
		// reading every page again (source/open.go, sqliteIdle), which no
		// user's process has. Each direct run gets a fresh connection,
		// closed after it (docs/bench.md).
		raw.SetMaxIdleConns(0)
	}
	for _, c := range []struct {
		table string
		n     *int64
	}{{"trades", &rep.Trades}, {"quotes", &rep.Quotes}} {
		if err := raw.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+c.table).Scan(c.n); err != nil {
			return fmt.Errorf("count %s: %w", c.table, err)
		}
	}
	for i, q := range qs.Answer {
		e.progress(fmt.Sprintf("answering %d/%d", i+1, len(qs.Answer)), q)
		f, err := timeAnswer(ctx, eng, raw, q, rep.Rounds)
		if err != nil {
			return err
		}
		rep.Answering = append(rep.Answering, f)
	}
	for i, q := range qs.Clarify {
		e.progress(fmt.Sprintf("clarifying %d/%d", i+1, len(qs.Clarify)), q)
		f, err := timeClarify(ctx, eng, q, rep.Rounds)
		if err != nil {
			return err
		}
		rep.Clarifying = append(rep.Clarifying, f)
	}
	// warm: asked again last, when the work the cold start set going in
	// the background (loading values) is long done
	e.progress("cold start, warm again", qs.Answer[0])
	var warm, warmExec []time.Duration
	for range rep.Rounds {
		start := time.Now()
		a, err := answerTurn(ctx, eng, qs.Answer[0])
		if err != nil {
			return err
		}
		warm = append(warm, time.Since(start))
		warmExec = append(warmExec, time.Duration(a.TimingsMS["execute"]*float64(time.Millisecond)))
	}
	cs := &rep.ColdStart
	cs.WarmMS, cs.WarmExecMS = spreadOf(warm).P50, spreadOf(warmExec).P50
	cs.Ratio = ratio(cs.FirstMS, cs.WarmMS)
	// last, when nothing runs beside it: right after the cold answer the
	// value loads it let start run too
	return directColdStart(ctx, t, a.Ran.SQL, a.Ran.Args, cs)
}

// loadAvg reads the one-minute load average (Linux), 0 when it cannot.
func loadAvg() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(data) + " 0")[0], 64)
	return f
}

// progress says on standard error what the run is at.
func (e *env) progress(step, question string) {
	fmt.Fprintf(e.stderr, "%s: %s\n", step, question)
}

func turnRequest(q string) engine.Request {
	return engine.Request{Question: q, Resolved: map[string]understand.Resolution{}, Interactive: true}
}

// answerTurn runs q, which must be answered at once.
func answerTurn(ctx context.Context, eng *engine.Engine, q string) (*engine.Answer, error) {
	out, err := eng.Turn(ctx, turnRequest(q))
	if err != nil {
		return nil, fmt.Errorf("%q: %s", q, message(err))
	}
	if out.Status != engine.StatusAnswered {
		return nil, fmt.Errorf("%q asked %q instead of answering: answer: lists questions answered at once", q, out.Clarification.Question)
	}
	return out.Answer, nil
}

// timeAnswer times the turns of q and the statement they ran, run
// directly on raw: a warm-up of each, then rounds of one turn and one
// direct run, so that a change in the machine's load falls on both.
func timeAnswer(ctx context.Context, eng *engine.Engine, raw *sql.DB, q string, rounds int) (answerFigs, error) {
	f := answerFigs{Question: q}
	var turn, exec, direct []time.Duration
	for r := 0; r <= rounds; r++ {
		start := time.Now()
		a, err := answerTurn(ctx, eng, q)
		if err != nil {
			return f, err
		}
		took := time.Since(start)
		start = time.Now()
		if _, err := runRaw(ctx, raw, a.Ran.SQL, a.Ran.Args); err != nil {
			return f, fmt.Errorf("%q run directly: %w", q, err)
		}
		tookRaw := time.Since(start)
		if r == 0 {
			f.FirstMS, f.Rows = ms(took), a.RowCount
			continue
		}
		turn = append(turn, took)
		exec = append(exec, time.Duration(a.TimingsMS["execute"]*float64(time.Millisecond)))
		direct = append(direct, tookRaw)
	}
	f.Turn, f.Exec, f.Raw = spreadOf(turn), spreadOf(exec), spreadOf(direct)
	f.Ratio = ratio(f.Turn.P50, f.Raw.P50)
	return f, nil
}

// rawTarget is t for the statements run directly: on PostgreSQL with
// pgx's default mode, which prepares each text once per connection (the
// source's metadata pools describe it and run it unnamed, source/open.go),
// as a plain client of the database would.
func rawTarget(t source.Target) source.Target {
	if t.Dialect == model.Postgres && !strings.Contains(t.DSN, "default_query_exec_mode") {
		sep := "?" // a URL
		switch {
		case !strings.Contains(t.DSN, "://"):
			sep = " " // keyword/value pairs
		case strings.Contains(t.DSN, "?"):
			sep = "&"
		}
		t.DSN += sep + "default_query_exec_mode=cache_statement"
	}
	return t
}

// directColdStart runs the cold start's statement twice on the one
// connection of a new plain pool (OpenDB's ping opened it and ran nothing
// else), on PostgreSQL with the settings of the execution path's
// connections (JIT compiling took longer than the statement, and varied).
func directColdStart(ctx context.Context, t source.Target, q string, args []any, cs *coldStartFigs) error {
	raw, err := source.OpenDB(ctx, rawTarget(t))
	if err != nil {
		return err
	}
	defer raw.Close()
	conn, err := raw.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if t.Dialect == model.Postgres {
		for name, value := range source.PostgresSettings(time.Minute) {
			// a setting the role may not change (temp_file_limit needs
			// superuser) is left out, as the execution path leaves it out
			_, _ = conn.ExecContext(ctx, "SELECT set_config($1, $2, false)", name, value)
		}
	}
	for _, into := range []*float64{&cs.DirectFirstMS, &cs.DirectAgainMS} {
		start := time.Now()
		if _, err := runRaw(ctx, conn, q, args); err != nil {
			return fmt.Errorf("%q run directly: %w", cs.Question, err)
		}
		*into = ms(time.Since(start))
	}
	return nil
}

// queryer is a *sql.DB or a *sql.Conn.
type queryer interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// runRaw runs a statement with plain database/sql and reads every row.
func runRaw(ctx context.Context, db queryer, q string, args []any) (int, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// timeClarify times the turns of q, which must ask, and counts the options
// shown with a preview.
func timeClarify(ctx context.Context, eng *engine.Engine, q string, rounds int) (clarifyFigs, error) {
	f := clarifyFigs{Question: q, PreviewsMin: -1}
	var turn []time.Duration
	for r := 0; r <= rounds; r++ {
		start := time.Now()
		out, err := eng.Turn(ctx, turnRequest(q))
		took := time.Since(start)
		if err != nil {
			return f, fmt.Errorf("%q: %s", q, message(err))
		}
		if out.Status != engine.StatusNeedsQuestion {
			return f, fmt.Errorf("%q was answered at once: clarify: lists questions that ask first", q)
		}
		c := out.Clarification
		f.Kind, f.Options, f.Previewable = c.Kind, len(c.Options), previewKinds[c.Kind]
		shown := 0
		for _, o := range c.Options {
			// a preview whose count missed the budget says "not counted in
			// time" instead of a figure: it does not count
			if o.Preview != nil && !o.Preview.NotCounted {
				shown++
			}
		}
		if r == 0 {
			f.FirstMS, f.PreviewsFirst = ms(took), shown
			continue
		}
		turn = append(turn, took)
		if f.PreviewsMin < 0 || shown < f.PreviewsMin {
			f.PreviewsMin = shown
		}
		f.PreviewsMax = max(f.PreviewsMax, shown)
	}
	f.Turn = spreadOf(turn)
	return f, nil
}

func spreadOf(ds []time.Duration) spread {
	if len(ds) == 0 {
		return spread{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	mid := s[len(s)/2]
	if len(s)%2 == 0 {
		mid = (s[len(s)/2-1] + mid) / 2
	}
	return spread{P50: ms(mid), Min: ms(s[0]), Max: ms(s[len(s)-1])}
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// printScaleReport prints the figures as tables.
func printScaleReport(w io.Writer, r *scaleReport) {
	built := fmt.Sprintf("built in %s", time.Duration(r.BuildMS*float64(time.Millisecond)).Round(100*time.Millisecond))
	if r.Reused {
		built = "kept from an earlier run"
	}
	fmt.Fprintf(w, "trades ×%d on %s: %s trades, %s quotes (%s; %s)\n", r.Factor, r.Dialect, thousands(r.Trades), thousands(r.Quotes), r.Where, built)
	fmt.Fprintf(w, "%s, %s, %d CPUs, load %.1f then %.1f; %d timed rounds per question after one warm-up; times in ms\n\n",
		r.Date, r.GoVersion, r.CPUs, r.Load[0], r.Load[1], r.Rounds)
	width := 0
	for _, a := range r.Answering {
		width = max(width, utf8.RuneCountInString(a.Question))
	}
	for _, c := range r.Clarifying {
		width = max(width, utf8.RuneCountInString(c.Question))
	}
	q := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)) }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tfirst\tturn p50\tturn min–max\texec p50\traw p50\traw min–max\tturn/raw\trows\t\n", q("answering"))
	for _, a := range r.Answering {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f×\t%d\t\n", q(a.Question), msCell(a.FirstMS), msCell(a.Turn.P50), rangeCell(a.Turn),
			msCell(a.Exec.P50), msCell(a.Raw.P50), rangeCell(a.Raw), a.Ratio, a.Rows)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t\t\t")
	fmt.Fprintf(tw, "%s\tfirst\tturn p50\tturn min–max\tkind\toptions\tpreviews first\tpreviews warm\t\n", q("clarifying"))
	for _, c := range r.Clarifying {
		first := "n/a"
		if c.Previewable {
			first = fmt.Sprintf("%d of %d", c.PreviewsFirst, c.Options)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t\n", q(c.Question), msCell(c.FirstMS), msCell(c.Turn.P50), rangeCell(c.Turn),
			c.Kind, c.Options, first, previewCell(c))
	}
	tw.Flush()
	cs := r.ColdStart
	fmt.Fprintf(w, "\ncold start: %q on a freshly opened source (open %s ms) %s ms, warm p50 (asked again at the end) %s ms: %.1f×\n",
		cs.Question, msCell(cs.OpenMS), msCell(cs.FirstMS), msCell(cs.WarmMS), cs.Ratio)
	fmt.Fprintf(w, "  of which the statement: cold %s ms, warm %s ms; Clarify's own: cold %s ms, warm %s ms\n",
		msCell(cs.FirstExecMS), msCell(cs.WarmExecMS), msCell(cs.FirstMS-cs.FirstExecMS), msCell(cs.WarmMS-cs.WarmExecMS))
	fmt.Fprintf(w, "  the statement run directly on a new connection: first %s ms, again %s ms: %.1f× (the database's own cold start)\n",
		msCell(cs.DirectFirstMS), msCell(cs.DirectAgainMS), ratio(cs.DirectFirstMS, cs.DirectAgainMS))
}

// msCell writes milliseconds with three significant digits or more.
func msCell(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// thousands writes n with thousands separators: 2,000,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func rangeCell(s spread) string { return msCell(s.Min) + "–" + msCell(s.Max) }

// previewCell says how many options were shown with their preview: "k of
// n", "j–k of n" when the rounds differ, "n/a" for a kind never previewed.
func previewCell(c clarifyFigs) string {
	switch {
	case !c.Previewable:
		return "n/a"
	case c.PreviewsMin == c.PreviewsMax:
		return fmt.Sprintf("%d of %d", c.PreviewsMin, c.Options)
	}
	return fmt.Sprintf("%d–%d of %d", c.PreviewsMin, c.PreviewsMax, c.Options)
}
