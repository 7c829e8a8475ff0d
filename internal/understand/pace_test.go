package understand_test

import (
	"context"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/understand"
)

// TestRebuildPaced: when the catalog's values change again right after a
// rebuild of the value index, questions do not start another until as
// long has passed as the last one took (each read here takes a second);
// WaitIndex still starts one at once.
func TestRebuildPaced(t *testing.T) {
	t.Parallel()
	c := newChanging()
	c.delay = time.Second
	cat := &owning{changing: c}
	defer cat.close()
	an := understand.New(testModel(t, "shop.yaml", colourModel), cat)
	defer an.Close()
	ctx := context.Background()
	ask := func() {
		if _, err := an.Analyze(ctx, "how many red items", understand.Settings{Now: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	ask() // the first index, built by the question
	ask() // the values changed: a rebuild starts
	an.WaitIndex(ctx)
	if n := cat.ran.Load(); n != 1 {
		t.Fatalf("%d rebuilds after a change: want 1", n)
	}
	ask()
	ask()
	if n := cat.ran.Load(); n != 1 {
		t.Errorf("%d rebuilds: questions right after a rebuild of a second started another", n)
	}
	an.WaitIndex(ctx)
	if n := cat.ran.Load(); n != 2 {
		t.Errorf("%d rebuilds after WaitIndex: want 2", n)
	}
}
