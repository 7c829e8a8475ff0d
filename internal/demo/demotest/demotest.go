// Package demotest gives tests freshly generated demo databases and
// engines over them, generated once per test binary.
package demotest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/models"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// AsOf is the date the test data is generated for.
var AsOf = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// cache is the one place generated files are remembered in a test binary:
// generating the trades data takes seconds, and every test reads it only.
var cache struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// Path returns the SQLite file of a demo source, generating it on first use.
func Path(t testing.TB, name string) string {
	t.Helper()
	cache.Lock()
	defer cache.Unlock()
	if cache.paths == nil {
		dir, err := os.MkdirTemp("", "clarify-demotest-")
		if err != nil {
			t.Fatal(err)
		}
		cache.dir, cache.paths = dir, map[string]string{}
	}
	if p, ok := cache.paths[name]; ok {
		return p
	}
	p := filepath.Join(cache.dir, name+".db")
	if err := demo.WriteSQLite(context.Background(), name, p, demo.Options{AsOf: AsOf}); err != nil {
		t.Fatalf("generate %s: %v", name, err)
	}
	cache.paths[name] = p
	return p
}

// Run runs a test binary's tests and removes the demo files they
// generated (tens of megabytes a binary, which a machine running CI again
// and again would otherwise keep in its temporary directory). A package
// whose tests call Path, directly or through Source or Engine, calls it
// from TestMain: os.Exit(demotest.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	cache.Lock()
	defer cache.Unlock()
	if cache.dir != "" {
		if err := os.RemoveAll(cache.dir); err != nil {
			fmt.Fprintf(os.Stderr, "demotest: remove %s: %v\n", cache.dir, err)
		}
		cache.dir, cache.paths = "", nil
	}
	return code
}

// Model returns the demo model of a source.
func Model(t testing.TB, name string) *model.Model {
	t.Helper()
	data, err := models.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Parse("builtin:"+name+".yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Source opens a demo source on SQLite; it is closed when the test ends.
func Source(t testing.TB, name string, opt source.Options) *source.Source {
	t.Helper()
	src, err := source.Open(context.Background(), name, "sqlite:"+Path(t, name), Model(t, name), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// Engine returns an engine over a demo source with its clock at AsOf.
// Its preview and suggestion budgets are generous: tests check what they
// compute, which must not depend on how loaded the machine is.
func Engine(t testing.TB, name string) *engine.Engine {
	t.Helper()
	return engine.New(Source(t, name, source.Options{RowCap: 100_000}), engine.Options{Now: func() time.Time { return AsOf },
		PreviewBudget: time.Minute, SuggestBudget: time.Minute})
}

// Root returns the repository root (the directory holding go.mod).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// SuiteFiles lists the evaluation suites: the public ones, which are not
// part of the repository, in $CLARIFY_SHARED/eval (default: the folder
// shared beside the repository), and the project's own in testdata/eval.
func SuiteFiles(t testing.TB) []string {
	t.Helper()
	root := Root(t)
	shared := os.Getenv("CLARIFY_SHARED")
	if shared == "" {
		shared = filepath.Join(root, "..", "shared")
	}
	public, _ := filepath.Glob(filepath.Join(shared, "eval", "*.yaml"))
	own, _ := filepath.Glob(filepath.Join(root, "testdata", "eval", "*.yaml"))
	if len(public) == 0 {
		msg := "public evaluation suites not found in " + shared + "/eval (set CLARIFY_SHARED)"
		if os.Getenv("CLARIFY_TEST_REQUIRE_SERVERS") == "1" {
			t.Fatal(msg)
		}
		t.Log(msg)
	}
	return append(public, own...)
}

// Questions reads testdata/questions/NAME.txt: one question per line.
func Questions(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Root(t), "testdata", "questions", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			qs = append(qs, l)
		}
	}
	return qs
}
