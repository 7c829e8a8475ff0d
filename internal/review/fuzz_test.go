package review_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/review"
	"github.com/clarify-sql/clarify/internal/store"
)

// FuzzParseEval feeds eval results from anywhere through a review: it
// must not panic, and its patch must be valid YAML whatever words the
// results hold.
func FuzzParseEval(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "eval.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`[{"source":"shop","cases":[{"question":"x: #y","asked":["unknown_term"],"first_options":["Ignore \"*a: b #c\""]},` +
		`{"question":"- z","error_message":"(unknown words: ', \"\n, &x)"}]}]`))
	m, err := loadModelErr()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		suites, err := review.ParseEval(data)
		if err != nil {
			return
		}
		// the words of the eval results also explain themselves, three times
		var answers []store.Answer
		r := review.Build(review.Input{Source: "shop", Model: m, Evals: suites})
		for _, u := range r.Unknown {
			for range 3 {
				answers = append(answers, store.Answer{UserID: "u", Slot: "unknown:" + u.Word, Value: "text:" + u.Word + " orders"})
			}
		}
		r = review.Build(review.Input{Source: "shop", Model: m, Evals: suites, Answers: answers})
		var text, patch bytes.Buffer
		if err := review.Text(&text, r); err != nil {
			t.Fatal(err)
		}
		if err := review.Patch(&patch, r); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(patch.Bytes(), &doc); err != nil {
			t.Fatalf("the patch is not valid YAML: %v\n%s", err, patch.String())
		}
	})
}
