package sqlfmt_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/sqlfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden lays out every testdata/NAME.sql and compares it with
// testdata/NAME.golden (go test -update rewrites them).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sql")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := sqlfmt.Format(string(in))
			golden := strings.TrimSuffix(file, ".sql") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if diff := cmp.Diff(strings.TrimSuffix(string(want), "\n"), got); diff != "" {
				t.Errorf("Format(%s) (-want +got):\n%s", file, diff)
			}
			checkSame(t, string(in), got)
		})
	}
}

// TestFormat covers what the golden files show less plainly.
func TestFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"only whitespace", " \n\t ", ""},
		{"one item stays on the SELECT line", "SELECT COUNT(*) FROM t", "SELECT COUNT(*)\nFROM t"},
		{"lower case keywords keep their case", "select a, b from t", "select\n  a,\n  b\nfrom t"},
		{"no space is added inside a word", "SELECT a FROM t WHERE x=1AND y=2", "SELECT a\nFROM t\nWHERE x=1AND y=2"},
		{"a line comment keeps its line break", "SELECT a -- x\nFROM t", "SELECT a -- x\nFROM t"},
		{"a comment at the end", "SELECT 1 -- done\n", "SELECT 1 -- done"},
		{"an unterminated string is kept whole", "SELECT 'a   b", "SELECT 'a   b"},
		{"an unterminated comment is kept whole", "SELECT 1 /* a   \n", "SELECT 1 /* a   \n"},
		{"a backslash in a string: unchanged", "SELECT  'a\\'  ,  b  FROM t", "SELECT  'a\\'  ,  b  FROM t"},
		{"brackets: unchanged", "SELECT  [a  b]  FROM t", "SELECT  [a  b]  FROM t"},
		{"a nested comment: unchanged", "SELECT /* a /* b */ 'c  d' */  1", "SELECT /* a /* b */ 'c  d' */  1"},
		{"minus minus is not a comment made", "SELECT 5 - -1 FROM t", "SELECT 5 - -1\nFROM t"},
		{"a closing parenthesis before a clause", "SELECT (1)FROM t", "SELECT (1)\nFROM t"},
		{"unbalanced parentheses", "SELECT a) FROM (t", "SELECT a)\nFROM (t"},
		{"two statements", "SELECT 1; SELECT 2", "SELECT 1;\nSELECT 2"},
		{"a dollar-quoted string: unchanged", "SELECT  $$ a  b $$  FROM t", "SELECT  $$ a  b $$  FROM t"},
		{"a parameter called like a function: unchanged", "SELECT  $a( x)  FROM t", "SELECT  $a( x)  FROM t"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sqlfmt.Format(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Format(%q) (-want +got):\n%s", tc.in, diff)
			}
			checkSame(t, tc.in, got)
		})
	}
}

// checkSame fails unless out has the tokens of in, whitespace aside, and
// laying it out again changes nothing.
func checkSame(t *testing.T, in, out string) {
	t.Helper()
	if a, b := strip(in), strip(out); a != b {
		t.Errorf("Format changed more than whitespace:\n in: %q\nout: %q", a, b)
	}
	inToks, _ := sqlfmt.Tokens(in)
	outToks, _ := sqlfmt.Tokens(out)
	if diff := cmp.Diff(inToks, outToks); diff != "" {
		t.Errorf("Format changed the tokens of %q (-in +out):\n%s", in, diff)
	}
	if again := sqlfmt.Format(out); again != out {
		t.Errorf("Format is not stable on %q:\nonce:  %q\ntwice: %q", in, out, again)
	}
}

// strip removes every whitespace character.
func strip(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			return -1
		}
		return r
	}, s)
}

func BenchmarkFormat(b *testing.B) {
	in, err := os.ReadFile(filepath.Join("testdata", "exists_subquery.sql"))
	if err != nil {
		b.Fatal(err)
	}
	sql := string(in)
	b.ReportAllocs()
	b.SetBytes(int64(len(sql)))
	for b.Loop() {
		sqlfmt.Format(sql)
	}
}
