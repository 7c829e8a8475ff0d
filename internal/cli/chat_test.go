package cli_test

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/cli"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/store"
)

var rowCount = regexp.MustCompile(`\((\d+) rows?,`)

// rowCounts returns the row counts of the answers in a transcript, in order.
func rowCounts(t *testing.T, out string) []int {
	t.Helper()
	var n []int
	for _, m := range rowCount.FindAllStringSubmatch(out, -1) {
		k, err := strconv.Atoi(m[1])
		if err != nil {
			t.Fatal(err)
		}
		n = append(n, k)
	}
	return n
}

// TestChat drives clarify chat with scripted input: a clarification
// answered by its number, a follow-up that narrows the answer, the SQL, a
// new conversation whose question is answered with Enter (the best guess).
// Both conversations are in the store, as the web chat's history shows them.
func TestChat(t *testing.T) {
	dir := dataDir(t)
	script := strings.Join([]string{
		"Which patients have severe wounds?",
		"2", // Infected wounds
		"only the ones at Harbor Health",
		"/sql",
		"/new",
		"Which patients have severe wounds?",
		"", // the best guess
		"/frobnicate",
		"/quit",
		"this is never read",
	}, "\n") + "\n"
	code, out, errs := run(t, script, "chat", "--data-dir", dir, "--source", "clinic")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, want := range []string{
		"clinic> Which patients have severe wounds?",
		"  1) Full thickness (Stage 3/4)  [best guess]",
		"  2) Infected wounds",
		"Enter takes the best guess",
		"answer> 2",
		"Patients with at least one infected wound",
		"clinic> only the ones at Harbor Health",
		"SQL:\n  SELECT\n",
		"\n  FROM \"patients\"\n",
		"  params: 'Harbor Health', ",
		"(a new conversation)",
		"\"severe\" = Full thickness (Stage 3/4)",
		"(unknown command /frobnicate",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	if strings.Contains(out, "never read") {
		t.Error("input after /quit was read")
	}
	n := rowCounts(t, out)
	if len(n) != 3 {
		t.Fatalf("want 3 answers, got row counts %v:\n%s", n, out)
	}
	if !(n[1] > 0 && n[1] < n[0]) {
		t.Errorf("the follow-up did not narrow the answer: %d then %d rows", n[0], n[1])
	}
	if i, j := strings.Index(out, "clinic> only the ones"), strings.Index(out, "Harbor Health with at least one infected wound"); i < 0 || j < i {
		t.Errorf("the follow-up's answer does not keep the chosen meaning and add the clinic:\n%s", out)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", out)
	}

	// the same conversations the web chat lists for the local user
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(dir, "clarify.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	list, err := st.Conversations(context.Background(), server.LocalUser, store.Cursor{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Status != store.StatusAnswered || list[1].Status != store.StatusAnswered ||
		!strings.Contains(list[1].Statement, "Harbor Health") || !strings.Contains(list[1].Question, "Harbor Health") {
		t.Errorf("stored conversations: %+v", list)
	}
}

func TestChatEndsAtEndOfInput(t *testing.T) {
	dir := dataDir(t)
	code, out, errs := run(t, "How many open wounds per clinic?\n/sql", "chat", "--data-dir", dir, "--source", "clinic", "--no-ask")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := rowCounts(t, out); len(n) != 1 || !strings.Contains(out, "GROUP BY") {
		t.Errorf("want one answer and its SQL:\n%s", out)
	}
	code, _, errs = run(t, "", "chat", "--data-dir", dir, "--source", "nope")
	if code != 1 || !strings.Contains(errs, `unknown source "nope"`) {
		t.Errorf("unknown source: exit %d, %s", code, errs)
	}
	code, _, errs = run(t, "", "chat", "--data-dir", dir, "what is this")
	if code != 2 || !strings.Contains(errs, "no arguments") {
		t.Errorf("a question as an argument: exit %d, %s", code, errs)
	}
}

// TestChatInterrupt: Ctrl-C at the prompt ends the chat at once, as a
// normal end, though no line ever comes.
func TestChatInterrupt(t *testing.T) {
	dir := dataDir(t)
	in, feed := io.Pipe()
	defer feed.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(ctx, []string{"chat", "--data-dir", dir, "--source", "clinic"}, in, &out, &errb)
	}()
	for !strings.Contains(out.String(), "clinic> ") {
		select {
		case code := <-done:
			t.Fatalf("chat ended (%d) before its prompt: %s %s", code, out.String(), errb.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after Ctrl-C: %s", code, errb.String())
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
