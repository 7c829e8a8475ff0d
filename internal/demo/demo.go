package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sync/errgroup"
)

// ErrUnknownSource is returned (wrapped) for a source name that is not one
// of Names().
var ErrUnknownSource = errors.New("unknown demo source")

// Names returns the demo source names in a fixed order: clinic, labs,
// trades, retail.
func Names() []string { return []string{"clinic", "labs", "trades", "retail"} }

// Options says which variant of the demo data to generate.
type Options struct {
	// Seed selects the random draw; 0 means the default seed, 1.
	Seed int64
	// AsOf is the dataset's "today": every event is at or before it and
	// relative windows ("last 30 days") end at it. Only its date (in its own
	// location) is used. Required: the package never reads the clock.
	AsOf time.Time
}

// Validate reports whether the options can be used.
func (o Options) Validate() error {
	if o.AsOf.IsZero() {
		return errors.New("demo options: AsOf is required")
	}
	if y := o.AsOf.Year(); y < 1900 || y > 9999 {
		return fmt.Errorf("demo options: AsOf year %d is out of range 1900-9999", y)
	}
	return nil
}

func (o Options) seed() int64 {
	if o.Seed == 0 {
		return 1
	}
	return o.Seed
}

// generate builds source name in memory.
func generate(name string, opt Options) (*dataset, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	seed, asOf := opt.seed(), day(opt.AsOf)
	var (
		ds  *dataset
		err error
	)
	switch name {
	case "clinic":
		ds, err = genClinic(seed, asOf)
	case "labs":
		ds, err = genLabs(seed, asOf)
	case "trades":
		ds, err = genTrades(seed, asOf)
	case "retail":
		ds, err = genRetail(seed, asOf)
	default:
		return nil, fmt.Errorf("%w %q (want one of %v)", ErrUnknownSource, name, Names())
	}
	if err != nil {
		return nil, fmt.Errorf("generate %s: %w", name, err)
	}
	ds.tables = append(ds.tables, metaTable(name, seed, asOf))
	return ds, nil
}

// WriteSQLite generates source name into a new SQLite file at path. The data
// is written to a temporary file in the same directory that is renamed over
// path only when complete, so a crash never leaves a half-written database;
// an existing file at path is replaced.
func WriteSQLite(ctx context.Context, name, path string, opt Options) (err error) {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write demo %s: %w", name, err)
	}
	ds, err := generate(name, opt)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write demo %s: %w", name, err)
	}
	tmp := f.Name()
	if err := f.Close(); err != nil {
		return fmt.Errorf("write demo %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if err := writeSQLite(ctx, tmp, ds); err != nil {
		return fmt.Errorf("write demo %s to %s: %w", name, path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("write demo %s: %w", name, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write demo %s: %w", name, err)
	}
	return nil
}

// EnsureSQLite generates every demo source missing from dir as
// dir/<name>.db, concurrently, and returns the path of every source by name.
// Files that already exist are kept as they are. dir is created if needed.
func EnsureSQLite(ctx context.Context, dir string, opt Options) (map[string]string, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ensure demo sources: %w", err)
	}
	paths := make(map[string]string, len(Names()))
	g, gctx := errgroup.WithContext(ctx)
	for _, name := range Names() {
		path := filepath.Join(dir, name+".db")
		paths[name] = path
		_, err := os.Stat(path)
		if err == nil {
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("ensure demo source %s: %w", name, err)
		}
		g.Go(func() error { return WriteSQLite(gctx, name, path, opt) })
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("ensure demo sources in %s: %w", dir, err)
	}
	return paths, nil
}

// LoadPostgres loads source name into schema of the PostgreSQL database db
// (a *sql.DB from pgx's stdlib), in one transaction: it creates the schema if
// needed, drops the source's tables there if present, then creates and fills
// them. Column types follow SQLite's: TEXT stays TEXT (dates too), REAL
// becomes DOUBLE PRECISION so values are bit-identical, INTEGER stays INTEGER
// except counters that need BIGINT.
func LoadPostgres(ctx context.Context, db *sql.DB, name, schema string, opt Options) error {
	if schema == "" {
		return errors.New("load demo into postgres: empty schema name")
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("load demo %s into postgres: %w", name, err)
	}
	ds, err := generate(name, opt)
	if err != nil {
		return err
	}
	if err := loadPostgres(ctx, db, ds, schema); err != nil {
		return fmt.Errorf("load demo %s into postgres schema %s: %w", name, schema, err)
	}
	return nil
}

// LoadMySQL loads source name into database of the MySQL/MariaDB server
// behind db: it creates the database if missing, drops the source's tables
// there if present, creates them (TEXT becomes VARCHAR(255), REAL DOUBLE;
// InnoDB, utf8mb4 with binary collation so comparisons are case-sensitive as
// in SQLite) and fills them in one transaction. MySQL commits DDL implicitly,
// so a failed load can leave empty tables behind; loading again replaces them.
// db needs no multiStatements.
func LoadMySQL(ctx context.Context, db *sql.DB, name, database string, opt Options) error {
	if database == "" {
		return errors.New("load demo into mysql: empty database name")
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("load demo %s into mysql: %w", name, err)
	}
	ds, err := generate(name, opt)
	if err != nil {
		return err
	}
	if err := loadMySQL(ctx, db, ds, database); err != nil {
		return fmt.Errorf("load demo %s into mysql database %s: %w", name, database, err)
	}
	return nil
}

// AsOf reads the as_of date stored in clarify_meta of an open demo database.
// For PostgreSQL and MySQL the connection's search path or default database
// must reach the demo's tables.
func AsOf(ctx context.Context, db *sql.DB) (time.Time, error) {
	// SELECT * rather than naming the columns: "key" is reserved in MySQL
	// and this function does not know the dialect.
	rows, err := db.QueryContext(ctx, "SELECT * FROM clarify_meta")
	if err != nil {
		return time.Time{}, fmt.Errorf("read demo as_of: %w", err)
	}
	defer rows.Close()
	var (
		asOf  string
		found bool
	)
	for rows.Next() {
		var k, v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return time.Time{}, fmt.Errorf("read demo as_of: %w", err)
		}
		if k.String == "as_of" {
			asOf, found = v.String, true
		}
	}
	if err := rows.Err(); err != nil {
		return time.Time{}, fmt.Errorf("read demo as_of: %w", err)
	}
	if !found {
		return time.Time{}, errors.New("read demo as_of: clarify_meta has no as_of row")
	}
	t, err := time.Parse(dateLayout, asOf)
	if err != nil {
		return time.Time{}, fmt.Errorf("read demo as_of: %w", err)
	}
	return t, nil
}
