package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/testdb"
)

// resumeBound is how soon after an instance dies mid-answer another must
// have given the answer: the lease's 10 s, a follower's retry and the turn.
const resumeBound = 15 * time.Second

// TestInstanceDiesMidAnswer runs two clarify serve processes on one store.
// A user answers a clarification on the first; its turn's statement is
// held by a lock on the source's table; the first process is killed (-9).
// Following the conversation on the second gives the answer within
// resumeBound of the kill, and the conversation keeps everything: the
// question, the clarification, the user's answer and the answer to it.
func TestInstanceDiesMidAnswer(t *testing.T) {
	bin := buildClarify(t)
	tests := []struct {
		name  string
		store func(t *testing.T) string
	}{
		{"postgres store", func(t *testing.T) string {
			_, _, dsn := testdb.PostgresSchema(t, "recovery_store")
			return dsn
		}},
		{"sqlite store", func(t *testing.T) string {
			return "sqlite:" + filepath.Join(t.TempDir(), "clarify.db")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testInstanceDies(t, bin, tc.store(t))
		})
	}
}

func testInstanceDies(t *testing.T, bin, storeDSN string) {
	admin, ns, srcDSN := testdb.PostgresSchema(t, "recovery_src")
	for _, stmt := range []string{
		"CREATE TABLE " + ns + ".orders (id integer PRIMARY KEY, customer text NOT NULL, amount numeric(10,2) NOT NULL, placed_on date NOT NULL)",
		"INSERT INTO " + ns + ".orders SELECT g, 'customer ' || (g % 7), g * 1.5, date '2026-01-01' + g FROM generate_series(1, 40) g",
	} {
		if _, err := admin.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	cfg := filepath.Join(t.TempDir(), "clarify.yaml")
	yaml := fmt.Sprintf("sources:\n  - name: shop\n    dsn: %q\n", srcDSN)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	one := startServe(t, bin, cfg, storeDSN)
	two := startServe(t, bin, cfg, storeDSN)
	// both instances draft the source's model before its table is locked
	const question = "list the large orders"
	_ = postJSON(t, two.url+"/v1/conversations", map[string]any{"question": question, "source": "shop"})
	r := postJSON(t, one.url+"/v1/conversations", map[string]any{"question": question, "source": "shop"})
	var asked struct {
		ID            string `json:"conversation_id"`
		Status        string `json:"status"`
		Clarification struct {
			ID      string `json:"id"`
			Options []struct {
				ID        string `json:"id"`
				Label     string `json:"label"`
				BestGuess bool   `json:"best_guess"`
				Preview   struct {
					Rows int `json:"rows"`
				} `json:"preview"`
			} `json:"options"`
		} `json:"clarification"`
	}
	if err := json.Unmarshal(r, &asked); err != nil || asked.Status != "needs_clarification" {
		t.Fatalf("asking %q: %v %s, want a clarification", question, err, r)
	}
	chosen := asked.Clarification.Options[0]
	for _, o := range asked.Clarification.Options {
		if o.BestGuess {
			chosen = o
		}
	}

	// hold the source's table: the turn's statement waits for the lock
	ctx, cancel := context.WithTimeout(context.Background(), 2*resumeBound)
	defer cancel()
	conn, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var locker int
	if err := tx.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&locker); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "LOCK TABLE "+ns+".orders IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}

	// answer the clarification on the first instance, streamed: its echo
	// is saved before the turn runs
	answer := map[string]any{"answer": map[string]string{"clarification_id": asked.Clarification.ID, "option_id": chosen.ID}}
	stream := openStream(t, ctx, http.MethodPost, one.url+"/v1/conversations/"+asked.ID+"/messages", answer)
	if ev := stream.until(t, "answer"); ev.typ != "answer" {
		t.Fatalf("the first instance streamed %v, want the answer's echo", ev)
	}
	waitBlocked(t, ctx, admin, locker)

	killed := time.Now()
	if err := one.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = one.cmd.Wait()
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	follow := openStream(t, ctx, http.MethodGet, two.url+"/v1/conversations/"+asked.ID+"/events", nil)
	var evs []sseEvent
	answered := false // the user's answer was followed
	for {
		ev := follow.next(t)
		evs = append(evs, ev)
		answered = answered || ev.typ == "answer"
		if answered && ev.typ == "done" {
			break
		}
	}
	took := time.Since(killed)
	t.Logf("answered by the second instance %s after the first was killed", took.Round(time.Millisecond))
	if took > resumeBound {
		t.Errorf("the answer came %s after the kill, want at most %s", took.Round(time.Millisecond), resumeBound)
	}
	if len(evs) < 2 || evs[len(evs)-2].typ != "result" {
		t.Fatalf("events %v, want a result then done", sseTypes(evs))
	}
	var res struct {
		RowCount int `json:"row_count"`
	}
	if err := json.Unmarshal([]byte(evs[len(evs)-2].data), &res); err != nil {
		t.Fatal(err)
	}
	if res.RowCount != chosen.Preview.Rows {
		t.Errorf("the answer has %d rows, want the %d its option's preview promised", res.RowCount, chosen.Preview.Rows)
	}
	seen := map[string]int{}
	for _, ev := range evs {
		seen[ev.typ]++
	}
	if seen["conversation"] != 1 || seen["clarification"] != 1 || seen["answer"] != 1 || seen["result"] != 1 || seen["done"] != 2 {
		t.Errorf("the conversation's events %v, want the question, its clarification, the answer and one result", sseTypes(evs))
	}

	var view struct {
		Status string `json:"status"`
		Turns  []struct {
			Role, Kind, Text string
		} `json:"turns"`
	}
	if err := json.Unmarshal(getBody(t, two.url+"/v1/conversations/"+asked.ID), &view); err != nil {
		t.Fatal(err)
	}
	want := []string{"user question " + question, "assistant clarification", "user answer " + chosen.Label, "assistant answer"}
	var got []string
	for _, tn := range view.Turns {
		s := tn.Role + " " + tn.Kind
		if tn.Role == "user" {
			s += " " + tn.Text
		}
		got = append(got, s)
	}
	if view.Status != "answered" || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("conversation %s with turns %q, want answered with %q", view.Status, got, want)
	}
}

// buildClarify builds the clarify binary into a temporary directory.
func buildClarify(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "clarify")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/clarify-sql/clarify/cmd/clarify").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// served is a clarify serve process.
type served struct {
	url    string
	cmd    *exec.Cmd
	stderr *syncBuffer
}

// startServe starts clarify serve on a free loopback port with its own
// data directory, and stops it (interrupt, then kill) when the test ends.
func startServe(t *testing.T, bin, cfg, storeDSN string) *served {
	t.Helper()
	s := &served{stderr: &syncBuffer{}}
	s.cmd = exec.Command(bin, "serve", "--config", cfg, "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0", "--store", storeDSN)
	s.cmd.Stderr = s.stderr
	pr, pw := io.Pipe()
	s.cmd.Stdout = pw
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// the announcement is the first line of stdout
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(pr)
		line, _ := r.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, r)
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil { // not killed by the test
			_ = s.cmd.Process.Signal(os.Interrupt)
			timer := time.AfterFunc(5*time.Second, func() { _ = s.cmd.Process.Kill() })
			_ = s.cmd.Wait()
			timer.Stop()
		}
		pw.Close()
		if t.Failed() {
			t.Logf("%s stderr:\n%s", s.url, s.stderr.String())
		}
	})
	select {
	case line := <-lines:
		fields := strings.Fields(line)
		if len(fields) < 4 || fields[1] != "serving" {
			t.Fatalf("serve printed %q: %s", line, s.stderr.String())
		}
		s.url = fields[3]
	case <-time.After(30 * time.Second):
		t.Fatalf("serve announced no address: %s", s.stderr.String())
	}
	return s
}

func postJSON(t *testing.T, url string, body any) []byte {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return out
}

func getBody(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %s", url, resp.StatusCode, err, out)
	}
	return out
}

// waitBlocked waits until a statement waits for a lock that the backend
// locker holds.
func waitBlocked(t *testing.T, ctx context.Context, admin *sql.DB, locker int) {
	t.Helper()
	for {
		var n int
		err := admin.QueryRowContext(ctx, "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", locker).Scan(&n)
		if err != nil {
			t.Fatalf("waiting for the turn's statement to block: %v", err)
		}
		if n > 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("the turn's statement never waited for the table's lock")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sseEvent is one server-sent event.
type sseEvent struct{ typ, data string }

// sseStream reads the events of one response.
type sseStream struct {
	r      *bufio.Reader
	events chan sseEvent
	err    chan error
}

// openStream sends a request for server-sent events (with a JSON body
// unless nil) and reads the events as they come, until ctx ends.
func openStream(t *testing.T, ctx context.Context, method, url string, body any) *sseStream {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	s := &sseStream{r: bufio.NewReader(resp.Body), events: make(chan sseEvent, 256), err: make(chan error, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ev sseEvent
		for {
			line, err := s.r.ReadString('\n')
			if err != nil {
				s.err <- err
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if ev.typ != "" {
					s.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "event:"):
				ev.typ = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:"):
				ev.data = strings.TrimSpace(strings.TrimPrefix(line, "data:"))
			}
		}
	}()
	t.Cleanup(func() {
		resp.Body.Close()
		<-done
	})
	return s
}

// next returns the next event, failing the test if the stream ends first.
func (s *sseStream) next(t *testing.T) sseEvent {
	t.Helper()
	select {
	case ev := <-s.events:
		return ev
	case err := <-s.err:
		t.Fatalf("the event stream ended: %v", err)
	}
	return sseEvent{}
}

// until returns the first event of type typ.
func (s *sseStream) until(t *testing.T, typ string) sseEvent {
	t.Helper()
	for {
		if ev := s.next(t); ev.typ == typ {
			return ev
		}
	}
}

func sseTypes(evs []sseEvent) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.typ
	}
	return out
}
