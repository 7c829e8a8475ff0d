// Package corpustest reads the guard's statement corpora
// (internal/guard/testdata/corpus/DIALECT/KIND.sql: legit, hostile,
// contained, oracle) for the tests that run them — the guard's own, and
// the engine's, which sends them as a language model's output. It is
// imported only from _test.go files.
package corpustest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Entry is one statement of a corpus. An entry starts with "-- name: N",
// followed by optional "-- model: M", "-- scope: VALUE|none|both",
// "-- args: a|#2" and "-- code: CODE" lines, then the statement up to the
// next entry.
type Entry struct {
	Name string
	// Model is the demo model it is checked against (default labs).
	Model string
	// Scope is "" (not given), "none", "both" or a scope value.
	Scope string
	// Args are the bound arguments ("#2" reads as the integer 2); nil
	// when the entry binds none.
	Args []any
	Code string
	SQL  string
	// Line is the line of its "-- name:".
	Line int
}

// Path is the file of a dialect's corpus of a kind.
func Path(dialect, kind string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "testdata", "corpus", dialect, kind+".sql")
}

// Read reads one corpus file; a file without entries is an error.
func Read(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	var cur *Entry
	var body []string
	header := false
	flush := func() {
		if cur != nil {
			cur.SQL = strings.TrimSpace(strings.Join(body, "\n"))
			out = append(out, *cur)
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "-- name: "); ok {
			flush()
			cur, body, header = &Entry{Name: name, Model: "labs", Line: n}, nil, true
			continue
		}
		if cur == nil {
			continue
		}
		if header && readHeader(cur, line) {
			continue
		}
		header = false
		body = append(body, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	flush()
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no entries", path)
	}
	return out, nil
}

// readHeader reads one header line into e; false when line is not one.
func readHeader(e *Entry, line string) bool {
	key, v, ok := strings.Cut(strings.TrimPrefix(line, "-- "), ": ")
	if !ok || !strings.HasPrefix(line, "-- ") {
		return false
	}
	switch key {
	case "model":
		e.Model = v
	case "scope":
		e.Scope = v
	case "code":
		e.Code = v
	case "args":
		for _, a := range strings.Split(v, "|") {
			if n, isInt := strings.CutPrefix(a, "#"); isInt {
				i, _ := strconv.Atoi(n)
				e.Args = append(e.Args, int64(i))
				continue
			}
			e.Args = append(e.Args, a)
		}
	default:
		return false
	}
	return true
}
