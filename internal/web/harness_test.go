package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/testdb"
	"github.com/clarify-sql/clarify/internal/web"
)

// EnvChromium names the browser binary the tests drive (default: chromium
// on the PATH, or /usr/bin/chromium).
const EnvChromium = "CLARIFY_CHROMIUM"

// engines serves the demo engines, clock at the data's as_of.
type engines struct {
	m     map[string]*engine.Engine
	descr map[string]string
	// configured is each source's engine: as config's sources[].engine
	configured map[string]string
}

func (e engines) Engine(_ context.Context, s string) (*engine.Engine, error) {
	if en, ok := e.m[s]; ok {
		return en, nil
	}
	return nil, &registry.UnknownSourceError{Name: s}
}
func (e engines) Default() string { return "clinic" }
func (e engines) Names() []string { return []string{"clinic", "labs"} }
func (e engines) Info(_ context.Context, n string) (registry.Info, error) {
	info := registry.Info{Name: n, Dialect: "sqlite", Description: e.descr[n]}
	if en, ok := e.m[n]; ok {
		info.Engine, info.Engines = registry.EngineChoice(en, e.configured[n])
	}
	return info, nil
}

// site is a real Clarify server over loopback, with the chat mounted at /
// and a tap in front that records and can break event streams.
type site struct {
	t   *testing.T
	url string
	tap *tap
}

// startSite serves the page and the API with the default rate limits,
// which a person clicking through the page must never meet.
func startSite(t *testing.T, keys ...server.Key) *site {
	t.Helper()
	return startSiteLimited(t, nil, keys...)
}

// startSiteLimited is startSite with the rate limit rl (nil: defaults).
func startSiteLimited(t *testing.T, rl *server.RateLimit, keys ...server.Key) *site {
	t.Helper()
	return startSiteWith(t, rl, nil, keys...)
}

// startSiteWith is startSite with the rate limit rl (nil: defaults) and
// the access rules pol (nil: none).
func startSiteWith(t *testing.T, rl *server.RateLimit, pol *access.Policy, keys ...server.Key) *site {
	t.Helper()
	return startSiteStore(t, "sqlite:"+filepath.Join(t.TempDir(), "store.db"), rl, pol, keys...)
}

// startSiteStore is startSiteWith on the store dsn.
func startSiteStore(t *testing.T, dsn string, rl *server.RateLimit, pol *access.Policy, keys ...server.Key) *site {
	t.Helper()
	browserContext(t) // no browser, no point: skip (or fail in CI) at once
	en := engines{
		m:     map[string]*engine.Engine{"clinic": demotest.Engine(t, "clinic"), "labs": demotest.Engine(t, "labs")},
		descr: map[string]string{"clinic": demotest.Model(t, "clinic").Description, "labs": demotest.Model(t, "labs").Description},
	}
	return startSiteOn(t, en, dsn, rl, pol, keys...)
}

// startSiteOn is startSiteStore over the engines en.
func startSiteOn(t *testing.T, en engines, dsn string, rl *server.RateLimit, pol *access.Policy, keys ...server.Key) *site {
	t.Helper()
	browserContext(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := conversation.New(en, st, conversation.Options{PollInterval: 50 * time.Millisecond, Log: quiet, Access: pol})
	t.Cleanup(svc.Close)
	srv := server.New(svc, en, st.Ping, server.Config{Web: web.Handler(), Keys: keys, Heartbeat: 2 * time.Second,
		RateLimit: rl, Access: pol, Log: quiet})
	tp := &tap{}
	ts := httptest.NewServer(tp.wrap(srv.Handler()))
	t.Cleanup(func() {
		srv.Shutdown(context.Background())
		ts.Close()
	})
	return &site{t: t, url: ts.URL, tap: tp}
}

// count runs a COUNT query on a demo database.
func count(t *testing.T, src, query string) int {
	t.Helper()
	res, err := demotest.Source(t, src, source.Options{}).Query(context.Background(), query, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	return int(res.Rows[0][0].(int64))
}

// tap watches requests: it records the Last-Event-ID of every replay, and
// can cut the next streamed POST after a number of events — the client
// sees the stream end early, as when a proxy drops it, while the turn
// runs on and is stored.
type tap struct {
	mu      sync.Mutex
	cut     int
	drop    int
	fail    int
	replays []string
	auth    []string
}

// failNext answers the next n API requests with 503, as a proxy in
// front of a restarting server would.
func (tp *tap) failNext(n int) {
	tp.mu.Lock()
	tp.fail = n
	tp.mu.Unlock()
}

func (tp *tap) authorizations() []string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]string(nil), tp.auth...)
}

func (tp *tap) cutNextStream(after int) {
	tp.mu.Lock()
	tp.cut = after
	tp.mu.Unlock()
}

// dropNextStream makes the next streamed POST end after a number of
// events as a client that goes away does: its request's context is
// cancelled, so the turn stops ("interrupted") and runs again for the
// next follower.
func (tp *tap) dropNextStream(after int) {
	tp.mu.Lock()
	tp.drop = after
	tp.mu.Unlock()
}

func (tp *tap) replayIDs() []string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]string(nil), tp.replays...)
}

func (tp *tap) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		streamed := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
		tp.mu.Lock()
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/events") {
			tp.replays = append(tp.replays, r.Header.Get("Last-Event-ID"))
		}
		if strings.HasPrefix(r.URL.Path, "/v1/") {
			tp.auth = append(tp.auth, r.Header.Get("Authorization"))
		}
		cut, drop := 0, 0
		if r.Method == http.MethodPost && streamed && tp.cut > 0 {
			cut, tp.cut = tp.cut, 0
		}
		if r.Method == http.MethodPost && streamed && tp.drop > 0 {
			drop, tp.drop = tp.drop, 0
		}
		fail := tp.fail > 0 && r.Method == http.MethodPost
		if fail {
			tp.fail--
		}
		tp.mu.Unlock()
		if fail {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"error":{"code":"UNAVAILABLE","message":"the server is restarting"}}`)
			return
		}
		if cut > 0 {
			w = &cutWriter{ResponseWriter: w, left: cut}
		}
		if drop > 0 {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			r = r.WithContext(ctx)
			w = &cutWriter{ResponseWriter: w, left: drop, gone: cancel}
		}
		next.ServeHTTP(w, r)
	})
}

// cutWriter passes the first writes (one event each) and swallows the
// rest; with gone, it calls gone after the last write it passes.
type cutWriter struct {
	http.ResponseWriter
	left int
	gone func()
}

func (c *cutWriter) Write(b []byte) (int, error) {
	if c.left <= 0 {
		return len(b), nil
	}
	c.left--
	n, err := c.ResponseWriter.Write(b)
	if c.left == 0 && c.gone != nil {
		_ = http.NewResponseController(c.ResponseWriter).Flush()
		c.gone()
	}
	return n, err
}

func (c *cutWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// --- the browser -----------------------------------------------------------

var browser struct {
	sync.Mutex
	ctx    context.Context
	cancel func()
	err    error
}

func chromiumPath() string {
	if p := os.Getenv(EnvChromium); p != "" {
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// browserContext returns the context of one headless Chromium shared by
// the tests of this binary (each test opens its own tab on its own
// server, so nothing is shared between tests but the process).
func browserContext(t *testing.T) context.Context {
	t.Helper()
	browser.Lock()
	defer browser.Unlock()
	if browser.ctx != nil || browser.err != nil {
		if browser.err != nil {
			t.Fatal(browser.err)
		}
		return browser.ctx
	}
	path := chromiumPath()
	if path == "" {
		testdb.Skip(t, "browser tests need Chromium: apt-get install -y chromium (or set "+EnvChromium+" to its path)")
	}
	dir, err := os.MkdirTemp("", "clarify-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(ctx); err != nil {
		cancelCtx()
		cancelAlloc()
		os.RemoveAll(dir)
		browser.err = fmt.Errorf("start %s: %w", path, err)
		t.Fatal(browser.err)
	}
	browser.ctx = ctx
	browser.cancel = func() {
		cancelCtx()
		cancelAlloc()
		os.RemoveAll(dir)
	}
	return ctx
}

func TestMain(m *testing.M) {
	code := demotest.Run(m)
	browser.Lock()
	if browser.cancel != nil {
		browser.cancel()
	}
	browser.Unlock()
	os.Exit(code)
}

// page is one tab on a site, with the console watched: any error or
// uncaught exception fails the test.
type page struct {
	t    *testing.T
	ctx  context.Context
	site *site

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
	// expected is how many failed requests the browser may log (it logs
	// every 4xx/5xx response; the page itself must log nothing)
	expected int
}

// expectFailedRequests allows n failed-request entries in the console.
func (p *page) expectFailedRequests(n int) {
	p.mu.Lock()
	p.expected += n
	p.mu.Unlock()
}

func openPage(t *testing.T, s *site) *page {
	t.Helper()
	tab, cancelTab := chromedp.NewContext(browserContext(t))
	if err := chromedp.Do(tab); err != nil {
		cancelTab()
		t.Fatal(err)
	}
	// no motion: nothing slides under a click; light colours for screenshots
	_, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
		{Name: "prefers-reduced-motion", Value: "reduce"}, {Name: "prefers-color-scheme", Value: "light"}}})
	if err != nil {
		cancelTab()
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(tab, 90*time.Second)
	p := &page{t: t, ctx: ctx, site: s}
	messages := chromedp.Console(tab)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m)
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		cancelTab()
		<-done
		p.mu.Lock()
		defer p.mu.Unlock()
		allowed := p.expected
		for _, m := range p.console {
			if m.Type == chromedp.ConsoleError && m.Source == "network" && allowed > 0 {
				allowed--
				continue
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				t.Errorf("console %s (%s %s:%d)", m, m.Source, m.URL, m.Line+1)
			}
		}
	})
	return p
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.fail("%v", err)
	}
}

// fail stops the test with the page's visible text, to see what went wrong.
func (p *page) fail(format string, args ...any) {
	p.t.Helper()
	text, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(-3000) : ""`))
	p.t.Fatalf(format+"\n--- page text ---\n%s", append(args, text)...)
}

// evalJS evaluates a JavaScript expression and decodes its value.
func evalJS[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.fail("evaluate %s: %v", js, err)
	}
	return v
}

// wait polls a JavaScript expression until it is truthy.
func (p *page) wait(what, js string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		p.fail("waiting for %s: %v", what, err)
	}
}

func (p *page) open(path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.site.url + path))
	p.wait("the sources", `document.querySelector("#source option[value=clinic]") !== null`)
}

// selectSource picks a source in the picker as a user would.
func (p *page) selectSource(name string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { const s = document.getElementById("source"); s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, name))
}

// ask types a question and clicks Send.
func (p *page) ask(q string) {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.ID("question"), q), chromedp.Click(chromedp.ID("send")))
}

const (
	openCard    = `document.querySelector(".turn:last-of-type form.clarify:not(.locked)")`
	answerCount = `document.querySelectorAll(".card.answer").length`
)

// waitClarification waits for an open clarification card and returns its kind.
func (p *page) waitClarification() string {
	p.t.Helper()
	p.wait("a clarification", `!document.body.classList.contains("busy") && `+openCard+` !== null`)
	return evalJS[string](p, openCard+`.dataset.kind`)
}

// rememberLarge asks for the large wounds, answers with the 10 cm choice
// ticked to be remembered, opens the preferences and returns what the
// remembered choice reads there.
func (p *page) rememberLarge() string {
	p.t.Helper()
	p.ask("Show the large wounds")
	p.waitClarification()
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type form.clarify input[name=remember]`)))
	p.choose(`/10 cm/`)
	p.waitAnswer(1)
	p.do(chromedp.Click(chromedp.ID("prefs-open")))
	p.wait("the remembered choice", `document.querySelector("#prefs[open] .pref") !== null`)
	return evalJS[string](p, `document.querySelector("#prefs .pref").textContent`)
}

// choose clicks the option of the open card whose text matches re (a JS
// regular expression), then Continue.
func (p *page) choose(re string) {
	p.t.Helper()
	id := evalJS[string](p, fmt.Sprintf(`(() => { const o = [...%s.querySelectorAll(".option")].find((o) => %s.test(o.textContent)); return o ? o.querySelector("input").id : ""; })()`, openCard, re))
	if id == "" {
		p.fail("no option matches %s", re)
	}
	p.do(chromedp.Click(chromedp.ID(id)))
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type form.clarify:not(.locked) button[type=submit]`)))
}

// waitAnswer waits for answer card number n (1-based) and returns its row count.
func (p *page) waitAnswer(n int) int {
	p.t.Helper()
	p.wait(fmt.Sprintf("answer %d", n), fmt.Sprintf(`!document.body.classList.contains("busy") && %s >= %d`, answerCount, n))
	return p.rowCount()
}

// rowCount reads the row count the last answer shows ("17 rows").
func (p *page) rowCount() int {
	p.t.Helper()
	text := evalJS[string](p, `[...document.querySelectorAll(".card.answer")].pop().querySelector(".row-count").textContent`)
	var n int
	if _, err := fmt.Sscanf(strings.ReplaceAll(text, ",", ""), "%d", &n); err != nil {
		p.fail("row count %q: %v", text, err)
	}
	return n
}

// question returns a public suite's question by case id (read at run
// time: the suites' words stay out of the repository), or fallback when
// the suites are not there.
func question(t *testing.T, suite, id, fallback string) string {
	t.Helper()
	for _, f := range demotest.SuiteFiles(t) {
		if filepath.Base(f) != suite+".yaml" || !strings.Contains(f, string(filepath.Separator)+"shared"+string(filepath.Separator)) {
			continue
		}
		s, err := eval.LoadSuite(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Cases {
			if c.ID == id {
				return c.Question
			}
		}
	}
	t.Logf("public case %s/%s not found; asking %q", suite, id, fallback)
	return fallback
}

// jsonString quotes s for JavaScript.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
