package cli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/introspect"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
)

// draftModel drafts a model for a database without one.
func draftModel(ctx context.Context, db *sql.DB, d model.Dialect, name string) ([]byte, error) {
	s, err := introspect.Inspect(ctx, db, d)
	if err != nil {
		return nil, err
	}
	s.Now = time.Now()
	return introspect.Draft(s, name)
}

func (e *env) modelCheck(ctx context.Context, args []string) error {
	fs := newFlagSet("model check", e)
	dsn := fs.String("db", "", "also check the model against this database")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("model check needs one model file")
	}
	m, err := model.Load(pos[0])
	if err != nil {
		return err
	}
	if err := guard.CheckModel(m); err != nil {
		return err
	}
	if *dsn != "" {
		src, err := source.Open(ctx, m.Source, *dsn, m, source.Options{})
		if err != nil {
			return err
		}
		defer src.Close()
		if err := src.CheckSchema(ctx); err != nil {
			return err
		}
	}
	n := 0
	for _, en := range m.Entities {
		n += len(en.Columns)
	}
	fmt.Fprintf(e.stdout, "%s: ok — source %s, %d entities, %d columns, %d measures, %d terms, %d vague terms\n",
		pos[0], m.Source, len(m.Entities), n, len(m.Measures), len(m.Terms), len(m.Vague))
	return nil
}

func (e *env) modelInit(ctx context.Context, args []string) error {
	fs := newFlagSet("model init", e)
	dsn := fs.String("db", "", "database to introspect (sqlite:PATH, postgres://…, mysql://…)")
	out := fs.String("out", "", "write the model here (default: standard output)")
	name := fs.String("name", "", "source name (default: from the database)")
	force := fs.Bool("force", false, "overwrite the --out file if it exists")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("model init takes no arguments, got %q (the database goes in --db)", pos[0])
	}
	if *dsn == "" {
		return usagef("model init needs --db DSN")
	}
	if *force && *out == "" {
		return usagef("--force goes with --out: it overwrites that file")
	}
	// refused before the database is read, and again when writing
	if _, err := os.Stat(*out); *out != "" && !*force && err == nil {
		return existsError(*out)
	}
	t, err := source.ParseDSN(*dsn)
	if err != nil {
		return err
	}
	db, err := source.OpenDB(ctx, t)
	if err != nil {
		return err
	}
	defer db.Close()
	if *name == "" {
		*name = defaultName(t)
	}
	data, err := draftModel(ctx, db, t.Dialect, *name)
	if err != nil {
		return err
	}
	if _, err := model.Parse("drafted.yaml", data); err != nil {
		return fmt.Errorf("the drafted model does not load (please report this): %w", err)
	}
	if *out == "" {
		_, err = e.stdout.Write(data)
		return err
	}
	if err := writeModel(*out, data, *force); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s\n", *out)
	return nil
}

// existsError refuses to overwrite path; it wraps os.ErrExist.
func existsError(path string) error {
	return fmt.Errorf("refusing to overwrite %s: %w; pass --force to replace it", path, os.ErrExist)
}

// writeModel writes a drafted model to path; an existing file is
// overwritten only with force.
func writeModel(path string, data []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return existsError(path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// defaultName names a drafted source after its database file or name.
func defaultName(t source.Target) string {
	name := t.DSN
	if i := strings.LastIndexAny(name, "/\\"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexAny(name, ".?"); i > 0 {
		name = name[:i]
	}
	if name == "" {
		return string(t.Dialect)
	}
	return name
}

// openWritable opens a database for loading demo data (not read-only).
func openWritable(ctx context.Context, t source.Target) (*sql.DB, error) {
	db, err := sql.Open(t.Driver, t.DSN)
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", t.Display, err)
	}
	return db, nil
}
