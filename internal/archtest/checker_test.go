package archtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// node is a package of a synthetic graph: imports and test imports, each
// "path" or "path@file.go" (file defaults to a.go).
type node struct {
	imports, testImports []string
}

// synthetic builds a graph from nodes keyed by module-relative path.
func synthetic(nodes map[string]node) graph {
	g := graph{}
	fill := func(into map[string][]string, specs []string) {
		for _, s := range specs {
			imp, file, ok := strings.Cut(s, "@")
			if !ok {
				file = "a.go"
			}
			into[imp] = append(into[imp], file)
		}
	}
	for p, n := range nodes {
		q := &pkg{path: p, synopsis: "Package " + filepath.Base(p) + " does " + p + ".", imports: map[string][]string{}, testImports: map[string][]string{}}
		fill(q.imports, n.imports)
		fill(q.testImports, n.testImports)
		g[p] = q
	}
	return g
}

// TestViolations covers the rule checker on synthetic graphs, so each way
// a rule fails is exercised whatever the real code looks like today.
func TestViolations(t *testing.T) {
	guardException := []exception{{from: "internal/guard", imp: "database/sql", files: []string{"verify.go"}, why: "verifier"}}
	tests := []struct {
		name     string
		nodes    map[string]node
		rule     rule
		exc      []exception
		want     []string
		wantUsed []int
	}{
		{
			name:  "a denied standard package",
			nodes: map[string]node{"internal/plan": {imports: []string{"database/sql@sql.go", "strings"}}},
			rule:  rule{from: []string{"internal/plan"}, deny: []string{"database/sql/...", "net/http/..."}},
			want:  []string{"internal/plan imports database/sql (sql.go)"},
		},
		{
			name:  "a pattern with /... denies the packages under it",
			nodes: map[string]node{"internal/plan": {imports: []string{"net/http/httptest"}}},
			rule:  rule{from: []string{"internal/plan"}, deny: []string{"net/http/..."}},
			want:  []string{"internal/plan imports net/http/httptest (a.go)"},
		},
		{
			name:  "a pattern without /... denies that package only",
			nodes: map[string]node{"internal/plan": {imports: []string{"internal/store/storetest"}}, "internal/store/storetest": {}},
			rule:  rule{from: []string{"internal/plan"}, deny: []string{"internal/store"}},
		},
		{
			name: "from with /... covers subpackages",
			nodes: map[string]node{
				"internal/understand/text": {imports: []string{"internal/source"}},
				"internal/source":          {},
			},
			rule: rule{from: []string{"internal/understand/..."}, deny: []string{"internal/source"}},
			want: []string{"internal/understand/text imports internal/source (a.go)"},
		},
		{
			name: "an empty only refuses every module package but not the standard library",
			nodes: map[string]node{
				"internal/model": {imports: []string{"os", "internal/query@load.go"}},
				"internal/query": {},
			},
			rule: rule{from: []string{"internal/model"}, only: []string{}},
			want: []string{"internal/model imports internal/query (load.go)"},
		},
		{
			name: "only lets the listed module packages through",
			nodes: map[string]node{
				"internal/query":      {imports: []string{"internal/model", "internal/understand", "fmt"}},
				"internal/model":      {},
				"internal/understand": {},
			},
			rule: rule{from: []string{"internal/query"}, only: []string{"internal/model"}},
			want: []string{"internal/query imports internal/understand (a.go)"},
		},
		{
			name: "notFrom exempts the one importer allowed",
			nodes: map[string]node{
				"internal/cli":    {imports: []string{"internal/server"}},
				"internal/web":    {imports: []string{"internal/server"}},
				"internal/server": {},
			},
			rule: rule{from: []string{"..."}, notFrom: []string{"internal/cli"}, deny: []string{"internal/server"}},
			want: []string{"internal/web imports internal/server (a.go)"},
		},
		{
			name:  "test files are not held to the rules",
			nodes: map[string]node{"internal/plan": {testImports: []string{"database/sql@plan_test.go"}}},
			rule:  rule{from: []string{"internal/plan"}, deny: []string{"database/sql/..."}},
		},
		{
			name: "a test helper imported by a non-test file",
			nodes: map[string]node{
				"internal/engine": {imports: []string{"internal/testdb@engine.go"}, testImports: []string{"internal/testdb@engine_test.go"}},
				"internal/testdb": {},
			},
			rule: rule{from: []string{"..."}, notFrom: []string{"internal/testdb"}, deny: []string{"internal/testdb"}},
			want: []string{"internal/engine imports internal/testdb (engine.go)"},
		},
		{
			name:     "an exception allows its file",
			nodes:    map[string]node{"internal/guard": {imports: []string{"database/sql@verify.go"}}},
			rule:     rule{from: []string{"internal/guard"}, deny: []string{"database/sql/..."}},
			exc:      guardException,
			wantUsed: []int{0},
		},
		{
			name:     "an exception does not cover the package's other files",
			nodes:    map[string]node{"internal/guard": {imports: []string{"database/sql@verify.go", "database/sql@guard.go"}}},
			rule:     rule{from: []string{"internal/guard"}, deny: []string{"database/sql/..."}},
			exc:      guardException,
			want:     []string{"internal/guard imports database/sql (guard.go)"},
			wantUsed: []int{0},
		},
		{
			name:  "an exception does not cover another package",
			nodes: map[string]node{"internal/plan": {imports: []string{"database/sql@verify.go"}}},
			rule:  rule{from: []string{"internal/plan"}, deny: []string{"database/sql/..."}},
			exc:   guardException,
			want:  []string{"internal/plan imports database/sql (verify.go)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			used := map[int]bool{}
			got := violations(synthetic(tc.nodes), tc.rule, tc.exc, used)
			if !slices.Equal(got, tc.want) {
				t.Errorf("violations:\n got %q\nwant %q", got, tc.want)
			}
			var gotUsed []int
			for i := range tc.exc {
				if used[i] {
					gotUsed = append(gotUsed, i)
				}
			}
			if !slices.Equal(gotUsed, tc.wantUsed) {
				t.Errorf("exceptions used %v, want %v", gotUsed, tc.wantUsed)
			}
		})
	}
}

// TestRulesCatchInjectedImports breaks the real graph on purpose, one
// forbidden import at a time, and checks that the real rule table names
// the break: the failure TestRules exists for, kept in CI.
func TestRulesCatchInjectedImports(t *testing.T) {
	_, real := loadModule(t)
	tests := []struct {
		from, imp, rule string
	}{
		{"internal/model", "internal/query", "model imports no module package"},
		{"internal/understand", "net/http", "the steps of a question read no database and no network"},
		{"internal/understand/valueindex", "database/sql", "the steps of a question read no database and no network"},
		{"internal/plan", "internal/store", "the steps of a question read no database and no network"},
		{"internal/guard", "internal/source", "the steps of a question read no database and no network"},
		{"internal/clarify", "internal/engine", "the steps of a question do not reach up the pipeline"},
		{"internal/plan", "internal/understand", "understanding and planning meet only in query"},
		{"internal/understand", "internal/plan", "understanding does not compile SQL"},
		{"internal/query", "internal/units", "query imports model and timeexpr only"},
		{"internal/understand/text", "internal/model", "text, gazetteer, units and sqlfmt are leaves"},
		{"internal/understand", "internal/access", "rights are enforced below understanding"},
		{"internal/access", "internal/source", "access knows the source only through its Mapper interface"},
		{"internal/engine", "internal/store", "engine is stateless"},
		{"internal/store", "internal/conversation", "the service points down: server → conversation → store"},
		{"internal/web", "internal/server", "only cli imports server"},
		{"internal/server", "internal/cli", "nothing imports cli"},
		{"cmd/clarify", "internal/engine", "cmd/clarify imports only cli"},
		{"internal/engine", "internal/demo/demotest", "test helpers are imported only by tests"},
	}
	for _, tc := range tests {
		t.Run(tc.from+" → "+tc.imp, func(t *testing.T) {
			g := clone(real)
			if g[tc.from] == nil {
				t.Fatalf("no package %s in the module", tc.from)
			}
			g[tc.from].imports[tc.imp] = append(g[tc.from].imports[tc.imp], "injected.go")
			want := tc.from + " imports " + tc.imp
			var broken []string
			for _, r := range rules {
				for _, v := range violations(g, r, exceptions, map[int]bool{}) {
					if strings.HasPrefix(v, want+" ") {
						broken = append(broken, r.name)
					}
				}
			}
			if !slices.Contains(broken, tc.rule) {
				t.Errorf("%s → %s broke %q, want %q among them", tc.from, tc.imp, broken, tc.rule)
			}
		})
	}
}

// clone copies a graph deeply enough to add imports to it.
func clone(g graph) graph {
	out := graph{}
	for k, p := range g {
		q := *p
		q.imports = map[string][]string{}
		for imp, fs := range p.imports {
			q.imports[imp] = slices.Clone(fs)
		}
		out[k] = &q
	}
	return out
}

func TestCycle(t *testing.T) {
	tests := []struct {
		name  string
		nodes map[string]node
		want  []string
	}{
		{"none", map[string]node{"a": {imports: []string{"b"}}, "b": {imports: []string{"c"}}, "c": {}}, nil},
		{"three", map[string]node{"a": {imports: []string{"b"}}, "b": {imports: []string{"c"}}, "c": {imports: []string{"a"}}}, []string{"a", "b", "c", "a"}},
		{"behind an acyclic start", map[string]node{"a": {imports: []string{"b"}}, "b": {imports: []string{"c"}}, "c": {imports: []string{"b"}}}, []string{"b", "c", "b"}},
		{"test imports do not count", map[string]node{"a": {imports: []string{"b"}}, "b": {testImports: []string{"a"}}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cycle(synthetic(tc.nodes)); !slices.Equal(got, tc.want) {
				t.Errorf("cycle %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRender(t *testing.T) {
	g := synthetic(map[string]node{
		"cmd/x":           {imports: []string{"internal/cli", "os"}},
		"internal/cli":    {imports: []string{"internal/model"}, testImports: []string{"internal/testdb"}},
		"internal/model":  {imports: []string{"strings"}},
		"internal/testdb": {},
	})
	g["internal/model"].synopsis = "Package model is the model | the words: what they mean."
	want := "| package | layer | imports (non-test files; `internal/` left out) | what it is for (its package comment) |\n" +
		"|---|---|---|---|\n" +
		"| `cmd/x` | 2 | cli | does cmd/x |\n" +
		"| `internal/cli` | 1 | model | does internal/cli |\n" +
		"| `internal/model` | 0 | — | is the model \\| the words |\n" +
		"| `internal/testdb` (tests only) | 0 | — | does internal/testdb |\n"
	if got := render(g); got != want {
		t.Errorf("render:\n%s\nwant:\n%s", got, want)
	}
}

// TestDocNameErrors runs the page checker over a small tree it writes.
func TestDocNameErrors(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		full := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("internal/x/x.go", "package x\n\ntype T struct{}\n\nfunc (*T) M() {}\n\nfunc F() {}\n\nvar V = 1\n")
	write("internal/x/x_test.go", "package x\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {}\n")
	write("internal/x/app.js", "export function card() {}\n")
	page := "# P\n\nSee `internal/x/x.go` and `internal/gone/`.\n\n" +
		"## Where to change what\n\n" +
		"- `internal/x/x.go`: `F`, `T.M`, `*T`, `V`, `x.go`, and `G`;\n" +
		"  `internal/x/app.js`: `card`, `table`.\n" +
		"- `Unchecked` before any file; `go test ./internal/x -run TestF`,\n" +
		"  `go test ./internal/x -run TestGone`.\n\n" +
		"## Next\n\n- `internal/x/x.go`: `Unchecked` outside the section.\n"
	got := docNameErrors(root, page)
	want := []string{
		archDoc + " names internal/gone/, which does not exist",
		archDoc + ": internal/x/x.go declares no G",
		archDoc + ": internal/x/app.js does not contain table",
		archDoc + `: "go test ./internal/x -run TestGone": no func TestGone in ./internal/x/*_test.go`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n got %q\nwant %q", got, want)
	}
}
