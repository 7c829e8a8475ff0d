package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/testdb"
)

var build struct {
	once sync.Once
	path string
	err  error
}

// binary builds clarify once per test run.
func binary(t *testing.T) string {
	t.Helper()
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "clarify-bin-")
		if err != nil {
			build.err = err
			return
		}
		build.path = filepath.Join(dir, "clarify")
		out, err := exec.Command("go", "build", "-o", build.path, ".").CombinedOutput()
		if err != nil {
			build.err = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

// dataDir holds copies of the demo databases, as a first start leaves them.
func dataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "demo"), 0o755)
	for _, n := range []string{"clinic", "labs", "trades", "retail"} {
		data, err := os.ReadFile(demotest.Path(t, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "demo", n+".db"), data, 0o644)
	}
	return dir
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type proc struct {
	cmd  *exec.Cmd
	addr string
	logs *bytes.Buffer
}

// serve starts `clarify serve` and waits until it is ready.
func serve(t *testing.T, data, store string) *proc {
	t.Helper()
	p := &proc{addr: freeAddr(t), logs: &bytes.Buffer{}}
	p.cmd = exec.Command(binary(t), "serve", "--addr", p.addr, "--data-dir", data, "--store", store)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + p.addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("clarify serve did not become ready:\n%s", p.logs)
	return nil
}

func (p *proc) kill9(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
}

type clarification struct {
	ID      string `json:"id"`
	Options []struct {
		ID, Label string
	} `json:"options"`
}

type turnResult struct {
	ConversationID string         `json:"conversation_id"`
	Status         string         `json:"status"`
	Clarification  *clarification `json:"clarification"`
	Answer         *struct {
		RowCount int `json:"row_count"`
	} `json:"answer"`
}

func post(t *testing.T, addr, path string, body any) (int, turnResult) {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post("http://"+addr+path, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r turnResult
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &r)
	return resp.StatusCode, r
}

func infectedOption(t *testing.T, c *clarification) string {
	t.Helper()
	for _, o := range c.Options {
		if strings.Contains(strings.ToLower(o.Label), "infect") {
			return o.ID
		}
	}
	t.Fatalf("no infected option in %+v", c)
	return ""
}

func infectedPatients(t *testing.T) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+demotest.Path(t, "clinic")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// pgStore returns a PostgreSQL store DSN in a fresh schema.
func pgStore(t *testing.T) string {
	t.Helper()
	_, _, dsn := testdb.PostgresSchema(t, "t_store")
	return dsn
}

// TestCrashSafety kills the server with SIGKILL between the clarification
// and the answer; after a restart the answer is accepted and right.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	stores := map[string]func(t *testing.T, data string) string{
		"sqlite":   func(t *testing.T, data string) string { return "sqlite:" + filepath.Join(data, "store.db") },
		"postgres": func(t *testing.T, _ string) string { return pgStore(t) },
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			data := dataDir(t)
			store := mk(t, data)
			a := serve(t, data, store)
			code, r := post(t, a.addr, "/v1/conversations", map[string]any{"question": "Which patients have severe wounds?", "source": "clinic"})
			if code != 202 || r.Clarification == nil {
				t.Fatalf("ask: %d %+v\n%s", code, r, a.logs)
			}
			a.kill9(t)
			b := serve(t, data, store)
			code, ans := post(t, b.addr, "/v1/conversations/"+r.ConversationID+"/messages", map[string]any{
				"answer": map[string]any{"clarification_id": r.Clarification.ID, "option_id": infectedOption(t, r.Clarification)}})
			if code != 200 || ans.Answer == nil {
				t.Fatalf("answer after restart: %d %+v\n%s", code, ans, b.logs)
			}
			if want := infectedPatients(t); ans.Answer.RowCount != want {
				t.Errorf("%d rows, want %d", ans.Answer.RowCount, want)
			}
		})
	}
}

// TestTwoInstances asks on A, answers on B and streams the answer on A,
// both serving one PostgreSQL store.
func TestTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	store := pgStore(t)
	data := dataDir(t)
	a := serve(t, data, store)
	b := serve(t, data, store)
	code, r := post(t, a.addr, "/v1/conversations", map[string]any{"question": "Which patients have severe wounds?", "source": "clinic"})
	if code != 202 {
		t.Fatalf("ask on A: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+a.addr+"/v1/conversations/"+r.ConversationID+"/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				events <- ev
			}
		}
		close(events)
	}()
	// the replay of the first turn ends with done
	for ev := range events {
		if ev == "done" {
			break
		}
	}
	code, ans := post(t, b.addr, "/v1/conversations/"+r.ConversationID+"/messages", map[string]any{
		"answer": map[string]any{"clarification_id": r.Clarification.ID, "option_id": infectedOption(t, r.Clarification)}})
	if code != 200 {
		t.Fatalf("answer on B: %d\n%s", code, b.logs)
	}
	var seen []string
	for ev := range events {
		seen = append(seen, ev)
		if ev == "done" {
			break
		}
	}
	if len(seen) < 3 || seen[len(seen)-2] != "result" || seen[0] != "answer" {
		t.Fatalf("stream on A saw %v, want B's answer through result and done", seen)
	}
	if ans.Answer.RowCount != infectedPatients(t) {
		t.Errorf("answer on B: %d rows", ans.Answer.RowCount)
	}
}
