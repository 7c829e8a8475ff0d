package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheck runs the checks on synthetic trees: each case adds files to a
// tree that holds a go.mod, an API page with the headings "Errors" and
// "Rate limits" and two testdata files of a package x, and lists the
// problems it must produce, or none.
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "links that resolve",
			files: map[string]string{
				"README.md": "See [api](docs/api.md), [errors](docs/api.md#errors), [limits](docs/api.md#rate-limits), " +
					"![x](internal/x/testdata/in.txt) and [the web](https://example.org/a/../b).\n",
				"docs/eval.md": "[api](api.md#errors) · [back](../README.md) · [here](#scores)\n\n## Scores\n",
			},
		},
		{
			name:  "a link to a missing page",
			files: map[string]string{"docs/eval.md": "intro\n\nSee [format](format.md).\n"},
			want:  []string{"docs/eval.md:3: link format.md: docs/format.md does not exist"},
		},
		{
			name:  "a link to a missing heading",
			files: map[string]string{"docs/eval.md": "[codes](api.md#codes)\n"},
			want:  []string{"docs/eval.md:1: link api.md#codes: docs/api.md has no heading #codes"},
		},
		{
			name:  "a link that leaves the repository",
			files: map[string]string{"README.md": "the [format](../shared/spec/eval-format.md)\n"},
			want: []string{
				`README.md:1: "spec/eval-format.md" cites a document that is not in the repository`,
				"README.md:1: ../shared/spec/eval-format.md leaves the repository",
			},
		},
		{
			name:  "a path in code that leaves the repository",
			files: map[string]string{"docs/eval.md": "```sh\nclarify eval ../../other/eval/*.yaml\n```\n"},
			want:  []string{"docs/eval.md:2: ../../other/eval/*.yaml leaves the repository"},
		},
		{
			name:  "a heading inside a code block is no anchor",
			files: map[string]string{"docs/eval.md": "[x](#run-it)\n\n```sh\n# run it\n```\n"},
			want:  []string{"docs/eval.md:1: link #run-it: docs/eval.md has no heading #run-it"},
		},
		{
			name:  "citations of outside documents in a page",
			files: map[string]string{"docs/eval.md": "as ARCHITECTURE §4 says, and spec/api.md, and seeds/000.txt\n"},
			want: []string{
				`docs/eval.md:1: "ARCHITECTURE §" cites a document that is not in the repository`,
				`docs/eval.md:1: "seeds/" cites a document that is not in the repository`,
				`docs/eval.md:1: "spec/api.md" cites a document that is not in the repository`,
			},
		},
		{
			name: "Go comments that resolve",
			files: map[string]string{"internal/x/x.go": "// Package x reads testdata/in.txt and testdata/NAME.txt\n" +
				"// (docs/api.md, section \"Rate\n// limits\"; api.md; internal/x/...).\npackage x\n"},
		},
		{
			name: "Go comments that cite what a clone lacks",
			files: map[string]string{"internal/x/x.go": "package x\n\n// F follows ARCHITECTURE §4 and spec/api.md.\nfunc F() {}\n\n" +
				"/* G reads ../../../shared/eval and docs/gone.md and eval-format.md. */\nfunc G() {}\n\n" +
				"// H is docs/api.md, section \"Codes\".\nfunc H() {}\n"},
			want: []string{
				`internal/x/x.go:3: "ARCHITECTURE §" cites a document that is not in the repository`,
				`internal/x/x.go:3: "spec/api.md" cites a document that is not in the repository`,
				"internal/x/x.go:6: ../../../shared/eval leaves the repository",
				"internal/x/x.go:6: docs/gone.md does not exist",
				"internal/x/x.go:6: eval-format.md names a page that does not exist",
				`internal/x/x.go:9: docs/api.md has no section "Codes"`,
			},
		},
		{
			name:  "a Go file that does not compile is still read",
			files: map[string]string{"internal/x/broken.go": "package x\n\nfunc {\n// see docs/gone.md\n"},
			want:  []string{"internal/x/broken.go:4: docs/gone.md does not exist"},
		},
		{
			name: "testdata and hidden folders are not checked",
			files: map[string]string{
				"internal/x/testdata/page.md": "[x](../../../../outside.md)\n",
				".git/notes.md":               "[x](gone.md)\n",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			files := map[string]string{
				"go.mod":                      "module example.com/x\n",
				"docs/api.md":                 "# API\n\n## Errors\n\n### Rate limits\n",
				"internal/x/testdata/in.txt":  "in\n",
				"internal/x/testdata/out.txt": "out\n",
			}
			for name, text := range tc.files {
				files[name] = text
			}
			for name, text := range files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := check(root)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for title, want := range map[string]string{
		"Rate limits":                        "rate-limits",
		"Databases and benchmarks (issue 8)": "databases-and-benchmarks-issue-8",
		"Measured (2 cores, 2026-11-25)":     "measured-2-cores-2026-11-25",
		"How `model init` drafts":            "how-model-init-drafts",
		"Что нового":                         "что-нового",
	} {
		if got := slug(title); got != want {
			t.Errorf("slug(%q) = %q, want %q", title, got, want)
		}
	}
	if strings.Contains(slug("a/b"), "/") {
		t.Error("slug keeps a slash")
	}
}
