package understand_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

// driverText is what a database driver says; users must never read it.
const driverText = `pq: relation "patients" does not exist (SQLSTATE 42P01)`

// failing is a catalog whose every read fails as a driver would.
type failing struct{}

var errDriver = errors.New(driverText)

func (failing) Version(context.Context) uint64 { return 1 }
func (failing) CountedValues(context.Context, *model.Column) ([]string, []int64, error) {
	return nil, nil, errDriver
}
func (failing) Rows(context.Context, *model.Entity, []string, int) ([][]string, error) {
	return nil, errDriver
}
func (failing) RowsWith(context.Context, *model.Column, string, []string, int) ([][]string, error) {
	return nil, errDriver
}
func (failing) RowsByKey(context.Context, *model.Entity, []string, []string, int) ([][]string, error) {
	return nil, errDriver
}

// TestWarningsCarryNoDriverText: when the database cannot be read, the
// warnings a user sees say so in plain words; the driver's error goes to
// the log only.
func TestWarningsCarryNoDriverText(t *testing.T) {
	t.Parallel()
	an := understand.New(demotest.Model(t, "labs"), failing{})
	var log bytes.Buffer
	an.SetLog(slog.New(slog.NewTextHandler(&log, nil)))
	in, err := an.Analyze(context.Background(), "my glucose history", understand.Settings{Now: demotest.AsOf})
	if err != nil {
		t.Fatal(err)
	}
	var values, scope bool
	for _, w := range in.Warnings {
		if strings.Contains(w, "42P01") || strings.Contains(w, "pq:") {
			t.Errorf("warning carries the driver's error: %q", w)
		}
		values = values || strings.Contains(w, "values of")
		scope = scope || strings.Contains(w, "could not list")
	}
	if !values || !scope {
		t.Errorf("want a warning on values and one on listing the scope, got %q", in.Warnings)
	}
	if !strings.Contains(log.String(), "42P01") {
		t.Errorf("the driver's error was not logged; log:\n%s", log.String())
	}
}
