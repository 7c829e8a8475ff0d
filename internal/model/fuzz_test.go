package model_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/models"
	"github.com/clarify-sql/clarify/internal/model"
)

// FuzzModelYAML: any bytes give a model or a *model.Error whose problems
// each name the file; never a panic. A model that loads renders with
// Marshal to YAML that loads again and renders the same.
func FuzzModelYAML(f *testing.F) {
	seeds := [][]byte{[]byte(""), []byte("entities: []\n"), []byte("a: &a [*a, *a]\n")}
	if b, err := os.ReadFile("testdata/valid.yaml"); err == nil {
		seeds = append(seeds, b)
	} else {
		f.Fatal(err)
	}
	for _, n := range []string{"clinic", "labs", "trades", "retail"} {
		b, err := models.Get(n)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := model.Parse("m.yaml", data)
		if err != nil {
			var me *model.Error
			if !errors.As(err, &me) || len(me.Problems) == 0 {
				t.Fatalf("error %v is not a *model.Error with problems", err)
			}
			for _, p := range me.Problems {
				if p.File != "m.yaml" {
					t.Fatalf("problem %q does not name the file", p)
				}
			}
			return
		}
		out, err := model.Marshal(m)
		if err != nil {
			t.Fatalf("a loaded model does not marshal: %v", err)
		}
		m2, err := model.Parse("again.yaml", out)
		if err != nil {
			t.Fatalf("the marshalled model does not load: %v\n%s", err, out)
		}
		out2, err := model.Marshal(m2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("marshal is not stable:\nfirst:\n%s\nsecond:\n%s", out, out2)
		}
	})
}
