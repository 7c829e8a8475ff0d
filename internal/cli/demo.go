package cli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/source"
)

// demoMode reports whether the registry of cfg serves the demo databases:
// it does when the config names no sources.
func demoMode(cfg *config.Config) bool { return cfg == nil || len(cfg.Sources) == 0 }

// demoPath is where the registry keeps the demo database name.
func demoPath(dataDir, name string) string {
	return filepath.Join(dataDir, "demo", name+".db")
}

// ensureDemo generates the demo databases the registry serves when any is
// missing — on first start — and says on stderr what it generated and
// where. Once they exist it says nothing: the message comes once.
func (e *env) ensureDemo(ctx context.Context, reg *registry.Registry, cfg *config.Config, dataDir string) error {
	if !demoMode(cfg) {
		return nil
	}
	var missing []string
	for _, n := range demo.Names() {
		_, err := os.Stat(demoPath(dataDir, n))
		if errors.Is(err, os.ErrNotExist) {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	start := time.Now()
	if err := reg.EnsureDemo(ctx); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "clarify: no sources configured, so generated the demo database(s) %s in %s (%s);\n"+
		"  clarify demo regenerates them, --config FILE names your own databases (docs/config.md)\n",
		strings.Join(missing, ", "), filepath.Join(dataDir, "demo"), time.Since(start).Round(100*time.Millisecond))
	return nil
}

func (e *env) demo(ctx context.Context, args []string) error {
	fs := newFlagSet("demo", e)
	var c common
	c.register(fs)
	dir := fs.String("dir", "", "directory for the SQLite files (default DATA_DIR/demo)")
	asOfFlag := fs.String("as-of", "", "the datasets' today, YYYY-MM-DD (default today)")
	seed := fs.Int64("seed", 0, "generator seed (default 1)")
	pg := fs.String("postgres", "", "also load the data into this PostgreSQL database (one schema per source)")
	my := fs.String("mysql", "", "also load the data into this MySQL/MariaDB server (one database per source)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("demo takes no arguments, got %q", pos[0])
	}
	err = checkConflicts(fs,
		conflict{"dir", "data-dir", "--dir is where the files go, DATA_DIR/demo otherwise"},
		conflict{"dir", "config", "--dir is where the files go, the config's data directory otherwise"})
	if err != nil {
		return err
	}
	asOf := time.Now().UTC()
	if *asOfFlag != "" {
		t, err := time.Parse(time.DateOnly, *asOfFlag)
		if err != nil {
			return usagef("--as-of must be YYYY-MM-DD")
		}
		asOf = t
	}
	opt := demo.Options{Seed: *seed, AsOf: asOf}
	if *dir == "" {
		_, dataDir, err := c.load()
		if err != nil {
			return err
		}
		*dir = filepath.Join(dataDir, "demo")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", *dir, err)
	}
	start := time.Now()
	for _, n := range demo.Names() {
		p := filepath.Join(*dir, n+".db")
		if err := demo.WriteSQLite(ctx, n, p, opt); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\t%s\n", n, p)
	}
	fmt.Fprintf(e.stdout, "generated for %s in %s\n", asOf.Format(time.DateOnly), time.Since(start).Round(time.Millisecond))
	if *pg != "" {
		err := e.loadDemos(ctx, *pg, demo.LoadPostgres, opt, func(t source.Target, n string) string {
			return fmt.Sprintf("postgres schema %s (use %s with search_path=%s)", n, t.Display, n)
		})
		if err != nil {
			return err
		}
	}
	if *my != "" {
		err := e.loadDemos(ctx, *my, demo.LoadMySQL, opt, func(_ source.Target, n string) string {
			return "mysql database " + n
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// loadDemos loads every demo source into the server at dsn with load, in a
// schema or database named for the source, and prints where each went as
// where says.
func (e *env) loadDemos(ctx context.Context, dsn string, load func(ctx context.Context, db *sql.DB, name, ns string, opt demo.Options) error,
	opt demo.Options, where func(t source.Target, name string) string) error {
	t, err := source.ParseDSN(dsn)
	if err != nil {
		return err
	}
	db, err := openWritable(ctx, t)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, n := range demo.Names() {
		if err := load(ctx, db, n, n, opt); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\t%s\n", n, where(t, n))
	}
	return nil
}
