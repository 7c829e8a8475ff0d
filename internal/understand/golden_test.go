package understand_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// TestGolden records, per demo source, how each question is understood and
// the SQL it compiles to in all three dialects.
func TestGolden(t *testing.T) {
	for _, name := range []string{"clinic", "labs", "trades", "retail"} {
		t.Run(name, func(t *testing.T) {
			src := demotest.Source(t, name, source.Options{})
			an := understand.New(src.Model, src.Catalog())
			var interp, sqls strings.Builder
			for _, q := range demotest.Questions(t, name) {
				in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
				if err != nil {
					t.Fatalf("%q: %v", q, err)
				}
				interp.WriteString(understand.Describe(in) + "\n")
				sqls.WriteString("-- " + q + "\n")
				for _, d := range model.Dialects() {
					p, err := plan.Compile(src.Model, in.Query, d, plan.Options{Now: demotest.AsOf})
					if err != nil {
						sqls.WriteString(string(d) + ": " + err.Error() + "\n")
						continue
					}
					sqls.WriteString(string(d) + ": " + p.SQL + "\n")
				}
				sqls.WriteString("\n")
			}
			golden(t, filepath.Join("testdata", "golden", name+".txt"), interp.String())
			golden(t, filepath.Join("testdata", "golden", name+".sql"), sqls.String())
		})
	}
}
