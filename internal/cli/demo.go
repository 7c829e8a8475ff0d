package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/source"
)

func (e *env) demo(ctx context.Context, args []string) error {
	fs := newFlagSet("demo", e)
	var c common
	c.register(fs)
	dir := fs.String("dir", "", "directory for the SQLite files (default DATA_DIR/demo)")
	asOfFlag := fs.String("as-of", "", "the datasets' today, YYYY-MM-DD (default today)")
	seed := fs.Int64("seed", 0, "generator seed (default 1)")
	pg := fs.String("postgres", "", "also load the data into this PostgreSQL database (one schema per source)")
	my := fs.String("mysql", "", "also load the data into this MySQL/MariaDB server (one database per source)")
	if _, err := parse(fs, args); err != nil {
		return usagef("%v", err)
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
		t, err := source.ParseDSN(*pg)
		if err != nil {
			return err
		}
		db, err := openWritable(ctx, t)
		if err != nil {
			return err
		}
		defer db.Close()
		for _, n := range demo.Names() {
			if err := demo.LoadPostgres(ctx, db, n, n, opt); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s\tpostgres schema %s (use %s with search_path=%s)\n", n, n, t.Display, n)
		}
	}
	if *my != "" {
		t, err := source.ParseDSN(*my)
		if err != nil {
			return err
		}
		db, err := openWritable(ctx, t)
		if err != nil {
			return err
		}
		defer db.Close()
		for _, n := range demo.Names() {
			if err := demo.LoadMySQL(ctx, db, n, n, opt); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s\tmysql database %s\n", n, n)
		}
	}
	return nil
}
