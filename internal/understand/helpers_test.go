package understand_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

// testModel parses a model a test writes out; a model that does not load
// fails the test.
func testModel(t *testing.T, name, spec string) *model.Model {
	t.Helper()
	m, err := model.Parse(name, []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// describe reads q as of demotest.AsOf with the given answers and returns
// what understand.Describe says of it.
func describe(t *testing.T, an *understand.Analyzer, q string, res map[string]understand.Resolution) string {
	t.Helper()
	in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf, Resolved: res})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return understand.Describe(in)
}
