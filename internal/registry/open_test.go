package registry_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/demo/models"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/registry"
)

// writeModel writes a demo model to dir/name.yaml and returns its path.
func writeModel(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := models.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenSQLite: each way a SQLite source gets its model (builtin, a
// file, a draft) opens, and each way it cannot fails with an error naming
// the source.
func TestOpenSQLite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "clinic.db")
	copyClinic(t, db)
	clinicYAML := writeModel(t, dir, "clinic")
	shopYAML := writeModel(t, dir, "retail")
	draft := func(ctx context.Context, _ *sql.DB, d model.Dialect, name string) ([]byte, error) {
		if d != model.SQLite || name != "c" {
			return nil, errors.New("drafted the wrong source")
		}
		return models.Get("clinic")
	}
	for _, tc := range []struct {
		name    string
		src     config.Source
		opt     registry.Options
		want    registry.Info // fields compared: Name, Dialect, DSN, Model, Drafted, Now, Engine
		wantErr string
	}{
		{name: "builtin model", src: config.Source{Name: "c", DSN: "sqlite:" + db, Model: "builtin:clinic"},
			want: registry.Info{Name: "c", Dialect: "sqlite", DSN: "sqlite:" + db, Model: "builtin:clinic", Engine: "rules"}},
		{name: "model file", src: config.Source{Name: "c", DSN: "sqlite:" + db, Model: clinicYAML},
			want: registry.Info{Name: "c", Dialect: "sqlite", DSN: "sqlite:" + db, Model: clinicYAML, Engine: "rules"}},
		{name: "bare file DSN", src: config.Source{Name: "c", DSN: db, Model: clinicYAML},
			want: registry.Info{Name: "c", Dialect: "sqlite", DSN: "sqlite:" + db, Model: clinicYAML, Engine: "rules"}},
		{name: "drafted model", src: config.Source{Name: "c", DSN: "sqlite:" + db}, opt: registry.Options{Draft: draft},
			want: registry.Info{Name: "c", Dialect: "sqlite", DSN: "sqlite:" + db, Drafted: true, Engine: "rules"}},
		{name: "fixed date", src: config.Source{Name: "c", DSN: "sqlite:" + db, Model: "builtin:clinic", Now: "2026-01-02"},
			want: registry.Info{Name: "c", Dialect: "sqlite", DSN: "sqlite:" + db, Model: "builtin:clinic", Now: "2026-01-02", Engine: "rules"}},
		{name: "date from the database", src: config.Source{Name: "c", DSN: "sqlite:" + db, Model: "builtin:clinic"}, opt: registry.Options{UseAsOf: true},
			want: registry.Info{Name: "c", Dialect: "sqlite", DSN: "sqlite:" + db, Model: "builtin:clinic", Now: demotest.AsOf.Format(time.DateOnly), Engine: "rules"}},
		{name: "no model and no drafter", src: config.Source{Name: "c", DSN: "sqlite:" + db}, wantErr: "source c has no model"},
		{name: "model file missing", src: config.Source{Name: "c", DSN: "sqlite:" + db, Model: filepath.Join(dir, "none.yaml")}, wantErr: "load model"},
		{name: "model of another database", src: config.Source{Name: "c", DSN: "sqlite:" + db, Model: shopYAML}, wantErr: "source c: the model does not match the database"},
		{name: "database missing", src: config.Source{Name: "c", DSN: "sqlite:" + filepath.Join(dir, "none.db"), Model: "builtin:clinic"}, wantErr: "source c: open sqlite:"},
		{name: "unknown DSN", src: config.Source{Name: "c", DSN: "oracle:x", Model: "builtin:clinic"}, wantErr: "source c: unknown DSN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eng, info, err := registry.Open(context.Background(), tc.src, tc.opt)
			if tc.wantErr != "" {
				if err == nil {
					eng.Source().Close()
					t.Fatalf("opened; want an error %q", tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Source().Close() })
			info.Description, info.Engines = "", nil
			if d := cmp.Diff(tc.want, info); d != "" {
				t.Errorf("info (-want +got):\n%s", d)
			}
		})
	}
}

// TestConfigPaths: a config file naming its database and model relative
// to itself opens, wherever the process runs (the test's working
// directory is the package's, not the file's).
func TestConfigPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	copyClinic(t, filepath.Join(dir, "data", "clinic.db"))
	writeModel(t, dir, "clinic")
	cfgPath := filepath.Join(dir, "clarify.yaml")
	yaml := "sources:\n  - {name: c, dsn: 'sqlite:data/clinic.db', model: clinic.yaml}\n"
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	r := registry.New(cfg, t.TempDir(), registry.Options{})
	t.Cleanup(func() { r.Close() })
	if _, err := r.Info(context.Background(), "c"); err != nil {
		t.Fatal(err)
	}
}

// TestNames: sources in configuration order, the first the default; the
// demo sources when the config has none; of two sources with one name the
// first (config.Validate refuses this; the registry stays predictable).
func TestNames(t *testing.T) {
	t.Parallel()
	db := demotest.Path(t, "clinic")
	for _, tc := range []struct {
		name string
		cfg  *config.Config
		want []string
	}{
		{name: "configured", cfg: &config.Config{Sources: []config.Source{{Name: "b", DSN: db}, {Name: "a", DSN: db}}}, want: []string{"b", "a"}},
		{name: "no config: the demo", want: demo.Names()},
		{name: "no sources: the demo", cfg: &config.Config{}, want: demo.Names()},
		{name: "duplicate names", cfg: &config.Config{Sources: []config.Source{{Name: "a", DSN: db}, {Name: "b", DSN: db}, {Name: "a", DSN: "other.db"}}}, want: []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := registry.New(tc.cfg, t.TempDir(), registry.Options{})
			if d := cmp.Diff(tc.want, r.Names()); d != "" {
				t.Errorf("names (-want +got):\n%s", d)
			}
			if r.Default() != tc.want[0] {
				t.Errorf("default %q, want %q", r.Default(), tc.want[0])
			}
		})
	}
}

// TestDuplicateOpensFirst: a name configured twice opens the first
// source's database, not the last.
func TestDuplicateOpensFirst(t *testing.T) {
	t.Parallel()
	db := demotest.Path(t, "clinic")
	cfg := &config.Config{Sources: []config.Source{
		{Name: "a", DSN: "sqlite:" + db, Model: "builtin:clinic"},
		{Name: "a", DSN: "sqlite:" + filepath.Join(t.TempDir(), "missing.db"), Model: "builtin:clinic"},
	}}
	r := registry.New(cfg, t.TempDir(), registry.Options{})
	t.Cleanup(func() { r.Close() })
	info, err := r.Info(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	if info.DSN != "sqlite:"+db {
		t.Errorf("opened %s, want the first source's %s", info.DSN, db)
	}
}

// TestUnknownSourceInfo: Info and the Engines adapter report a name not
// configured as an UnknownSourceError listing the known ones.
func TestUnknownSourceInfo(t *testing.T) {
	t.Parallel()
	r := clinic(t, demotest.Path(t, "clinic"))
	_, err := r.Info(context.Background(), "shop")
	var u *registry.UnknownSourceError
	if !errors.As(err, &u) || u.Name != "shop" || !cmp.Equal(u.Known, []string{"clinic"}) || !u.UnknownSource() {
		t.Fatalf("Info = %v, want an UnknownSourceError for shop knowing clinic", err)
	}
	if _, err := (registry.Engines{Registry: r}).Engine(context.Background(), "shop"); !errors.As(err, &u) {
		t.Fatalf("Engines.Engine = %v, want an UnknownSourceError", err)
	}
}

// TestClose: Close closes the database of every opened source (and
// leaves alone those never opened).
func TestClose(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var srcs []config.Source
	for _, n := range []string{"a", "b", "never"} {
		p := filepath.Join(dir, n+".db")
		copyClinic(t, p)
		srcs = append(srcs, config.Source{Name: n, DSN: "sqlite:" + p, Model: "builtin:clinic"})
	}
	r := registry.New(&config.Config{Sources: srcs}, t.TempDir(), registry.Options{})
	ctx := context.Background()
	a, _, err := r.Engine(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := registry.Engines{Registry: r}.Engine(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	engines := map[string]*engine.Engine{"a": a, "b": b}
	for n, e := range engines {
		if _, err := e.Source().Query(ctx, "SELECT 1", nil, 1); err != nil {
			t.Fatalf("source %s before Close: %v", n, err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for n, e := range engines {
		if _, err := e.Source().Query(ctx, "SELECT 1", nil, 1); err == nil {
			t.Errorf("source %s answers after Close", n)
		}
	}
	if err := r.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestModelBeside: the model found next to a database file, by the names
// tried in order.
func TestModelBeside(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{name: "NAME.yaml", files: []string{"x.yaml"}, want: "x.yaml"},
		{name: "NAME.model.yaml", files: []string{"x.model.yaml"}, want: "x.model.yaml"},
		{name: "NAME.yml", files: []string{"x.yml"}, want: "x.yml"},
		{name: "NAME.yaml first", files: []string{"x.yml", "x.model.yaml", "x.yaml"}, want: "x.yaml"},
		{name: "none", files: []string{"y.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			want := ""
			if tc.want != "" {
				want = filepath.Join(dir, tc.want)
			}
			if got := registry.ModelBeside(filepath.Join(dir, "x.db")); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}
