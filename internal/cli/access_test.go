package cli_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/auth"
	"github.com/clarify-sql/clarify/internal/cli"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// The labs demo's patients: L1 Ivan Petrov, L2 John Doe, L3 Maria
// Rodriguez. Alice may see L1 and L2, Bob only L3.
// Alice has a salted key, bob a legacy one; carol comes through a trusted
// proxy in the ward group, whose patients a mapping table in the labs
// database names (carol: L1 only).
const twoUsers = `access:
  users:
    - {name: alice, sources: [labs], scope: {labs: {values: [L1, L2]}}}
    - {name: bob, sources: [labs], scope: {labs: {values: [L3]}}}
  groups:
    - {name: ward, sources: [labs], scope: {labs: {table: care_team, user_column: clinician, value_column: patient_id}}}
server:
  api_keys:
    - {user: alice, id: %s, hash: '%s'}
    - {user: bob, sha256: %s}
  trusted_proxy: {from: [127.0.0.1], user_header: X-Forwarded-User, groups_header: X-Forwarded-Groups}
`

func sha(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// twoUserConfig writes the config and returns it with alice's key.
func twoUserConfig(t *testing.T) (cfg, aliceKey string) {
	t.Helper()
	aliceKey, k, err := auth.NewKey("alice", time.Time{}, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	cfg = filepath.Join(t.TempDir(), "clarify.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(twoUsers, k.ID, k.Hash, sha("bob-key"))), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, aliceKey
}

// withCareTeam copies the demo data and adds the ward's mapping table to
// its labs database.
func withCareTeam(t *testing.T) string {
	t.Helper()
	dir := dataDir(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, "demo", "labs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE care_team (clinician TEXT, patient_id TEXT); INSERT INTO care_team VALUES ('carol', 'L1')"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// api is one user's client of a running server.
type api struct {
	t        *testing.T
	url, key string
	headers  map[string]string
}

func (a api) do(method, path string, body any) (int, map[string]any) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, a.url+path, rd)
	if a.key != "" {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	for k, v := range a.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"raw": string(raw)}
	}
	return resp.StatusCode, out
}

func errCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// TestTwoUsersAPI: through the API, on a SQLite and a PostgreSQL store,
// neither user can see or pick the other's patients.
func TestTwoUsersAPI(t *testing.T) {
	stores := map[string]func(t *testing.T) string{
		"sqlite": func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "store.db") },
		"postgres": func(t *testing.T) string {
			_, _, dsn := testdb.PostgresSchema(t, "access_store")
			return dsn
		},
	}
	for name, storeDSN := range stores {
		t.Run(name, func(t *testing.T) {
			cfg, aliceKey := twoUserConfig(t)
			url := serveInBackground(t, "--config", cfg, "--data-dir", withCareTeam(t), "--addr", "127.0.0.1:0", "--store", storeDSN(t))
			alice, bob := api{t, url, aliceKey, nil}, api{t, url, "bob-key", nil}
			carol := api{t, url, "", map[string]string{"X-Forwarded-User": "carol", "X-Forwarded-Groups": "ward"}}

			// carol, through the proxy, is answered for her ward's one patient
			code, out := carol.do("POST", "/v1/conversations", map[string]any{"question": "show my lab results", "source": "labs", "interactive": false})
			if ans, _ := out["answer"].(map[string]any); code/100 != 2 || ans == nil || !strings.Contains(fmt.Sprint(ans["params"]), "L1") {
				t.Errorf("carol: %d %v, want an answer for L1", code, out)
			}
			// the same user without the group: no rule, no source
			if code, out := (api{t, url, "", map[string]string{"X-Forwarded-User": "carol"}}).do("POST", "/v1/conversations", map[string]any{"question": "show my lab results", "source": "labs"}); code != 403 {
				t.Errorf("carol without her group: %d %v, want 403", code, out)
			}
			if code, _ := (api{t, url, "not-a-key", nil}).do("GET", "/v1/sources", nil); code != 401 {
				t.Errorf("a wrong key: %d, want 401", code)
			}

			// sources: only those granted
			if code, out := bob.do("GET", "/v1/sources", nil); code != 200 || fmt.Sprint(out["sources"]) == "" || strings.Contains(fmt.Sprint(out["sources"]), "clinic") {
				t.Errorf("bob's sources: %d %v, want labs only", code, out["sources"])
			}
			if code, out := bob.do("POST", "/v1/conversations", map[string]any{"question": "how many wounds", "source": "clinic"}); code != 403 || errCode(out) != "SOURCE_FORBIDDEN" {
				t.Errorf("bob on clinic: %d %v, want 403 SOURCE_FORBIDDEN", code, out)
			}

			// alice is asked which patient, among hers only
			code, out = alice.do("POST", "/v1/conversations", map[string]any{"question": "show my lab results", "source": "labs"})
			cl, _ := out["clarification"].(map[string]any)
			if code/100 != 2 || cl == nil || cl["slot"] != "scope" {
				t.Fatalf("alice: %d %v, want the scope asked", code, out)
			}
			var ids []string
			for _, o := range cl["options"].([]any) {
				ids = append(ids, o.(map[string]any)["id"].(string))
			}
			if strings.Join(ids, ",") != "L1,L2" || strings.Contains(fmt.Sprint(out), "Maria") {
				t.Errorf("alice was offered %v (%v), want L1,L2 only", ids, cl["options"])
			}
			// picking bob's patient by id is refused; nothing is answered
			conv := out["conversation_id"].(string)
			code, out = alice.do("POST", "/v1/conversations/"+conv+"/messages", map[string]any{"answer": map[string]any{"clarification_id": cl["id"], "option_id": "L3"}})
			if code < 400 || out["answer"] != nil {
				t.Errorf("alice picked L3: %d %v, want a refusal", code, out)
			}
			// nor by name
			code, out = alice.do("POST", "/v1/conversations", map[string]any{"question": "lab results for Maria Rodriguez", "source": "labs"})
			if code != 403 || errCode(out) != "SCOPE_FORBIDDEN" || strings.Contains(fmt.Sprint(out), "Maria") {
				t.Errorf("alice named Maria: %d %v, want 403 SCOPE_FORBIDDEN", code, out)
			}
			// bob is answered for his only patient; his answer holds L3's rows
			code, out = bob.do("POST", "/v1/conversations", map[string]any{"question": "show my lab results", "source": "labs", "interactive": false})
			ans, _ := out["answer"].(map[string]any)
			if code/100 != 2 || ans == nil || fmt.Sprint(ans["params"]) != "[]" && !strings.Contains(fmt.Sprint(ans["params"]), "L3") {
				t.Fatalf("bob: %d %v, want an answer for L3", code, out)
			}
			if s := fmt.Sprint(ans); strings.Contains(s, "L1") || strings.Contains(s, "L2") {
				t.Errorf("bob's answer mentions another patient: %v", ans["params"])
			}
			// and cannot read alice's conversation
			if code, _ := bob.do("GET", "/v1/conversations/"+conv, nil); code != 404 {
				t.Errorf("bob read alice's conversation: %d", code)
			}
		})
	}
}

// TestTwoUsersAsk: clarify ask applies the same rules for --user.
func TestTwoUsersAsk(t *testing.T) {
	cfg, _ := twoUserConfig(t)
	dir := dataDir(t)
	ask := func(user, stdin string, args ...string) (int, string) {
		var out, errb strings.Builder
		code := cli.Run(context.Background(), append([]string{"ask", "--config", cfg, "--data-dir", dir, "--source", "labs", "--user", user}, args...),
			strings.NewReader(stdin), &out, &errb)
		return code, out.String() + errb.String()
	}
	code, out := ask("alice", "", "show lab results for Maria Rodriguez")
	if code == 0 || !strings.Contains(out, "SCOPE_FORBIDDEN") && !strings.Contains(out, "may not see") {
		t.Errorf("alice named Maria: exit %d\n%s", code, out)
	}
	code, out = ask("alice", "1\n", "show my lab results")
	if strings.Contains(out, "Maria") || !strings.Contains(out, "Ivan") {
		t.Errorf("alice's choice: exit %d\n%s", code, out)
	}
	code, out = ask("bob", "", "--json", "--no-ask", "show my lab results")
	if code != 0 || !strings.Contains(out, `"L3"`) || strings.Contains(out, "Ivan") || strings.Contains(out, "John Doe") {
		t.Errorf("bob: exit %d\n%s", code, out)
	}
	if code, out = ask("mallory", "", "show my lab results"); code == 0 || !strings.Contains(out, "may not use") {
		t.Errorf("a user with no rule: exit %d\n%s", code, out)
	}
}
