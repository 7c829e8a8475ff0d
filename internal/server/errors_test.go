package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/server"
)

// The places outside this package that must name every code.
const (
	apiDoc = "../../docs/api.md"        // the "Errors" table clients read
	webJS  = "../web/static/js/main.js" // the page's plain-language titles
)

// TestEveryCodeMapped: each code of package apperr has an HTTP status in
// the server's table, a row with the same status in docs/api.md, and a
// plain-language title in the web page; and the page documents no code
// that does not exist.
func TestEveryCodeMapped(t *testing.T) {
	t.Parallel()
	docs := apiErrorTable(t)
	plain := webPlainTable(t)
	known := map[apperr.Code]bool{}
	for _, code := range apperr.Codes() {
		known[code] = true
		t.Run(string(code), func(t *testing.T) {
			t.Parallel()
			status, ok := server.StatusOf(code)
			if !ok {
				t.Errorf("the server has no HTTP status for %s (internal/server/errors.go, statuses)", code)
			}
			switch doc, ok := docs[code]; {
			case !ok:
				t.Errorf("%s has no row in the error table of %s", code, apiDoc)
			case doc != status:
				t.Errorf("%s: %s says %d, the server answers %d", code, apiDoc, doc, status)
			}
			if !plain[string(code)] {
				t.Errorf("%s has no plain-language title in the PLAIN table of %s", code, webJS)
			}
		})
	}
	for code := range docs {
		if !known[code] {
			t.Errorf("%s documents %s, which is not a code of package apperr", apiDoc, code)
		}
	}
}

var apiRow = regexp.MustCompile("^\\| `([A-Z_]+)` \\| ([0-9]{3}) \\|")

// apiErrorTable reads the code and status of each row of the table under
// "## Errors" in docs/api.md.
func apiErrorTable(t *testing.T) map[apperr.Code]int {
	t.Helper()
	data, err := os.ReadFile(apiDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Errors\n")
	if !ok {
		t.Fatalf("%s has no \"## Errors\" section", apiDoc)
	}
	rows := map[apperr.Code]int{}
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "#") {
			break // the next section
		}
		m := apiRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		code := apperr.Code(m[1])
		if _, dup := rows[code]; dup {
			t.Errorf("%s lists %s twice", apiDoc, code)
		}
		rows[code], _ = strconv.Atoi(m[2])
	}
	if len(rows) == 0 {
		t.Fatalf("found no rows in the error table of %s", apiDoc)
	}
	return rows
}

var plainKey = regexp.MustCompile(`(?m)^\s*([A-Z_]+):`)

// webPlainTable reads the keys of the web page's PLAIN object.
func webPlainTable(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(webJS)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "const PLAIN = {")
	if !ok {
		t.Fatalf("%s has no `const PLAIN = {`", webJS)
	}
	body, _, ok := strings.Cut(rest, "\n};")
	if !ok {
		t.Fatalf("the PLAIN table of %s does not end", webJS)
	}
	keys := map[string]bool{}
	for _, m := range plainKey.FindAllStringSubmatch(body, -1) {
		keys[m[1]] = true
	}
	if len(keys) == 0 {
		t.Fatalf("found no keys in the PLAIN table of %s", webJS)
	}
	return keys
}

// TestFailShowsOnlyTheSafeMessage: a failed request's body carries the
// code and the safe message of the coded error in its chain, however
// deeply wrapped, and never the cause; an error without a code, or
// INTERNAL, is "internal error" with the cause in the log alone.
func TestFailShowsOnlyTheSafeMessage(t *testing.T) {
	t.Parallel()
	const secret = `pq: password authentication failed for user "clarify" at 10.1.2.3:5432; SELECT ssn FROM patients`
	cause := errors.New(secret)
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantCode   apperr.Code
		wantMsg    string
		wantLogged bool
	}{
		{"coded", &apperr.Error{Code: apperr.CodeDB, Message: "the database could not run the query", Err: cause},
			http.StatusBadGateway, apperr.CodeDB, "the database could not run the query", false},
		{"wrapped", fmt.Errorf("ask: %w", &apperr.Error{Code: apperr.CodeSourceUnavailable, Message: `the source "clinic" cannot be reached; try again later`, Err: cause}),
			http.StatusServiceUnavailable, apperr.CodeSourceUnavailable, `the source "clinic" cannot be reached; try again later`, false},
		{"a code over another", &apperr.Error{Code: apperr.CodeBadRequest, Message: "unknown engine \"magic\"", Err: &apperr.Error{Code: apperr.CodeInternal, Message: "inner", Err: cause}},
			http.StatusBadRequest, apperr.CodeBadRequest, "unknown engine \"magic\"", false},
		{"internal", &apperr.Error{Code: apperr.CodeInternal, Message: "could not save the conversation", Err: cause},
			http.StatusInternalServerError, apperr.CodeInternal, "internal error", true},
		{"no code", fmt.Errorf("read state: %w", cause),
			http.StatusInternalServerError, apperr.CodeInternal, "internal error", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var logged bytes.Buffer
			w := httptest.NewRecorder()
			server.Fail(slog.New(slog.NewTextHandler(&logged, nil)), w, httptest.NewRequest(http.MethodGet, "/", nil), tc.err)
			if w.Code != tc.wantStatus {
				t.Errorf("status %d, want %d", w.Code, tc.wantStatus)
			}
			if strings.Contains(w.Body.String(), "10.1.2.3") || strings.Contains(w.Body.String(), "ssn") {
				t.Errorf("the body shows the cause: %s", w.Body)
			}
			var body struct {
				Error struct {
					Code    apperr.Code `json:"code"`
					Message string      `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", w.Body, err)
			}
			if body.Error.Code != tc.wantCode || body.Error.Message != tc.wantMsg {
				t.Errorf("body %+v, want code %s and message %q", body.Error, tc.wantCode, tc.wantMsg)
			}
			if got := strings.Contains(logged.String(), "10.1.2.3"); got != tc.wantLogged {
				t.Errorf("cause logged: %v, want %v (log: %q)", got, tc.wantLogged, logged.String())
			}
		})
	}
}
