package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/web"
)

func TestHandler(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(web.Handler())
	t.Cleanup(ts.Close)
	tests := []struct {
		name, method, path string
		status             int
		ctype, contains    string
	}{
		{"page", "GET", "/", 200, "text/html", `<script type="module" src="/js/main.js">`},
		{"page by name", "GET", "/index.html", 200, "text/html", "<title>Clarify</title>"},
		{"style", "GET", "/app.css", 200, "text/css", ":focus-visible"},
		{"module", "GET", "/js/main.js", 200, "text/javascript", "import"},
		{"icon", "GET", "/favicon.svg", 200, "image/svg+xml", "<svg"},
		{"head", "HEAD", "/", 200, "text/html", ""},
		{"unknown", "GET", "/nothing.js", 404, "", ""},
		{"directory", "GET", "/js/", 404, "", ""},
		{"post", "POST", "/", 405, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, ts.URL+tc.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != 200 {
				return
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.ctype) {
				t.Errorf("Content-Type %q, want %s", ct, tc.ctype)
			}
			if !strings.Contains(string(body), tc.contains) {
				t.Errorf("body lacks %q", tc.contains)
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("ETag") == "" {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}
}

func TestRevalidation(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(web.Handler())
	t.Cleanup(ts.Close)
	resp, err := http.Get(ts.URL + "/js/api.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest("GET", ts.URL+"/js/api.js", nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	again, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	again.Body.Close()
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("a known ETag gave %d, want 304", again.StatusCode)
	}
}

// TestSelfContained keeps the page free of anything from elsewhere (no
// CDN, no web font, no build step) and of markup built from strings.
func TestSelfContained(t *testing.T) {
	t.Parallel()
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/|@import|url\(\s*['"]?(https?:|//)`)
	err := filepath.WalkDir("static", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(b)
		if strings.HasSuffix(p, ".svg") {
			text = strings.ReplaceAll(text, "http://www.w3.org/2000/svg", "")
		}
		text = strings.ReplaceAll(text, `"http://www.w3.org/2000/svg"`, "")
		if m := external.FindString(text); m != "" {
			t.Errorf("%s refers to %q: the page must load nothing from elsewhere", p, m)
		}
		for _, bad := range []string{"innerHTML", "outerHTML =", "insertAdjacentHTML", "document.write", "eval("} {
			if strings.Contains(text, bad) {
				t.Errorf("%s uses %s: text from the API must never become markup", p, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
