package sqlfmt_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clarify-sql/clarify/internal/sqlfmt"
	"github.com/clarify-sql/clarify/internal/sqlitelex"
)

// FuzzFormat: whatever the text, Format changes only whitespace, keeps
// the token stream, is stable, and leaves SQLite's reading of statements
// and comments as it was.
func FuzzFormat(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.sql"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{"- -1", "'a'\n'b'", "a--b\nc", "$$ x $$", "$1$2", "?1?", "(SELECT(1))", "#\n", "x/*", "E'a\\'b'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := sqlfmt.Format(in)
		checkSame(t, in, out)
		if a, b := sqlitelex.Scan(in), sqlitelex.Scan(out); a != b {
			t.Errorf("SQLite reads %q as %+v but its layout %q as %+v", in, a, out, b)
		}
	})
}
