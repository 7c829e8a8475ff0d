package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib" // also registers the "pgx" driver
	_ "modernc.org/sqlite"           // registers the "sqlite" driver

	"github.com/clarify-sql/clarify/internal/model"
)

// ErrUnreachable wraps failures to reach a database.
var ErrUnreachable = errors.New("database unreachable")

// Target is a parsed DSN.
type Target struct {
	Dialect model.Dialect
	Driver  string
	DSN     string // the driver's DSN
	// Display is the DSN with any password removed, safe to show.
	Display string
}

// ParseDSN understands sqlite:PATH (or a path ending in .db, .sqlite or
// .sqlite3), postgres://… and postgresql://…, and mysql://user:pass@host:port/db
// (or mysql:<go-sql-driver DSN>).
func ParseDSN(dsn string) (Target, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		u, err := url.Parse(dsn)
		if err != nil {
			return Target{}, fmt.Errorf("parse postgres DSN: %w", redact(err, dsn))
		}
		return Target{Dialect: model.Postgres, Driver: "pgx", DSN: dsn, Display: u.Redacted()}, nil
	case strings.HasPrefix(dsn, "mysql://"):
		u, err := url.Parse(dsn)
		if err != nil {
			return Target{}, fmt.Errorf("parse mysql DSN: %w", redact(err, dsn))
		}
		cfg := mysql.NewConfig()
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
		cfg.Net = "tcp"
		cfg.Addr = u.Host
		if !strings.Contains(cfg.Addr, ":") {
			cfg.Addr += ":3306"
		}
		cfg.DBName = strings.TrimPrefix(u.Path, "/")
		for k, vs := range u.Query() {
			if cfg.Params == nil {
				cfg.Params = map[string]string{}
			}
			cfg.Params[k] = vs[0]
		}
		cfg.ParseTime = false
		cfg.MultiStatements = false
		return Target{Dialect: model.MySQL, Driver: "mysql", DSN: cfg.FormatDSN(), Display: u.Redacted()}, nil
	case strings.HasPrefix(dsn, "mysql:"):
		raw := strings.TrimPrefix(dsn, "mysql:")
		cfg, err := mysql.ParseDSN(raw)
		if err != nil {
			return Target{}, fmt.Errorf("parse mysql DSN: %w", err)
		}
		cfg.MultiStatements = false
		display := cfg.User + "@" + cfg.Net + "(" + cfg.Addr + ")/" + cfg.DBName
		return Target{Dialect: model.MySQL, Driver: "mysql", DSN: cfg.FormatDSN(), Display: display}, nil
	case strings.HasPrefix(dsn, "sqlite:"), strings.HasSuffix(dsn, ".db"), strings.HasSuffix(dsn, ".sqlite"), strings.HasSuffix(dsn, ".sqlite3"):
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		return Target{Dialect: model.SQLite, Driver: "sqlite", DSN: path, Display: "sqlite:" + path}, nil
	}
	return Target{}, fmt.Errorf("unknown DSN %q: want sqlite:PATH, postgres://… or mysql://…", safePrefix(dsn))
}

func safePrefix(dsn string) string {
	if i := strings.IndexAny(dsn, "@:"); i > 0 {
		return dsn[:i] + "…"
	}
	return dsn
}

// redact removes a DSN's text from an error message.
func redact(err error, dsn string) error {
	return errors.New(strings.ReplaceAll(err.Error(), dsn, "<dsn>"))
}

// sqliteIdle is how long a connection of a SQLite metadata pool stays open
// unused. The driver's SQLite keeps the page caches of all connections of
// the process in one group with one LRU list, and a connection that has
// read more than its own cache holds (loading the values of a column of a
// big table reads all of it) keeps the pages it took from the others' for
// as long as it is open: a connection of the execution pool left below its
// own size in that full group keeps no page once unpinned, and reads every
// page a statement touches from the file again, the b-tree's root and
// inner pages included (on the trades ×10 database, after one scan on
// another pool, "average bid-ask spread for TSLA" read 14,000–21,000 pages
// instead of 1,664, until that pool's connection was closed a minute
// later). Closed after 2 s unused, such a connection gives its pages back
// soon after its burst, for the price of opening the file again.
const sqliteIdle = 2 * time.Second

// openPool opens a database/sql pool. A PostgreSQL pool describes each
// text once per connection and then runs it unnamed (pgx's
// cache_describe mode) unless the DSN says otherwise: pgx's default
// prepares each text by a name made from its hash, which a pooler in
// transaction mode refuses as soon as two connections' transactions meet
// on one of its sessions ("prepared statement stmtcache_… already
// exists"; pg_pooled.go). These pools read the catalog and load values,
// statements that take milliseconds or more, where parsing again costs
// little.
func openPool(driver, dsn string) (*sql.DB, error) {
	if driver != "pgx" || strings.Contains(dsn, "default_query_exec_mode") {
		return sql.Open(driver, dsn)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse postgres DSN: %w", err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	return stdlib.OpenDB(*cfg), nil
}

// OpenDB opens a read-only connection pool for a target and checks that the
// database answers.
func OpenDB(ctx context.Context, t Target) (*sql.DB, error) {
	dsn := t.DSN
	if t.Dialect == model.SQLite {
		if _, err := os.Stat(dsn); err != nil {
			return nil, fmt.Errorf("open %s: %w: %w", t.Display, ErrUnreachable, err)
		}
		dsn = "file:" + dsn + "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
	}
	db, err := openPool(t.Driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.Display, redact(err, t.DSN))
	}
	// as many idle connections as open ones (setPoolSize): the metadata
	// and value loads come in bursts, and database/sql's default of two
	// idle closed and reopened a session for most of a burst
	if t.Dialect == model.SQLite {
		setPoolSize(db, 4)
		db.SetConnMaxIdleTime(sqliteIdle)
	} else {
		setPoolSize(db, 10)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w: %w", t.Display, ErrUnreachable, redact(err, t.DSN))
	}
	return db, nil
}
