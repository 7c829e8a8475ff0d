package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// ErrExists is returned when CreateConversation is given the id of an existing conversation.
var ErrExists = errors.New("conversation already exists")

// Config configures a store. With DSN set, its zero value means defaults.
type Config struct {
	// DSN selects the store (required):
	//   - "sqlite:PATH": a SQLite file, created (mode 0600) if missing, in
	//     WAL mode with synchronous=FULL, foreign keys on and a busy
	//     timeout. Every write goes to one goroutine owning the one write
	//     connection, which commits the writes that arrive together in one
	//     transaction (one fsync) and acknowledges each only once committed;
	//     reads go through a pool of read-only connections. ":memory:" is
	//     refused: the writer and the readers must see one database.
	//     Another process may open the same file (it waits up to
	//     BusyTimeout for the write lock).
	//   - "postgres://…" or "postgresql://…": a pgx connection string; the
	//     tables live in the first existing schema of its search_path (add
	//     ?search_path=NAME to choose one; it is not created). Several
	//     processes may share one database.
	DSN string
	// MaxConns bounds open connections: to PostgreSQL (default 16), or
	// SQLite's readers (default 4; SQLite always has one writer).
	MaxConns int
	// BusyTimeout is how long a SQLite statement waits while another process
	// holds the file's write lock (default 10s). Ignored by PostgreSQL.
	BusyTimeout time.Duration
	// Now is the clock for the times the store assigns: a conversation's
	// CreatedAt and UpdatedAt, an event's, answer's or query record's At,
	// when left zero, and SQLite's lease expiries (PostgreSQL times leases
	// by its own clock). Default time.Now.
	Now func() time.Time
}

// Validate reports a configuration Open cannot use.
func (c Config) Validate() error {
	if _, _, err := parseDSN(c.DSN); err != nil {
		return err
	}
	if c.MaxConns < 0 {
		return fmt.Errorf("store: MaxConns %d is negative", c.MaxConns)
	}
	if c.BusyTimeout < 0 {
		return fmt.Errorf("store: BusyTimeout %s is negative", c.BusyTimeout)
	}
	return nil
}

// Open opens the store a DSN names with the default configuration, applying
// any migrations it lacks; see Config.DSN for the forms it takes.
func Open(ctx context.Context, dsn string) (Store, error) {
	return OpenConfig(ctx, Config{DSN: dsn})
}

// OpenConfig opens a store and brings its schema up to date. Migrations are
// embedded in the binary, versioned and applied in order, each in its own
// transaction; opening an up-to-date store applies nothing, and processes
// opening one PostgreSQL store at once take turns (an advisory lock per
// schema). A store whose schema is newer than this binary is refused.
func OpenConfig(ctx context.Context, cfg Config) (Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	kind, target, _ := parseDSN(cfg.DSN)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if kind == "sqlite" {
		return openSQLite(ctx, target, cfg)
	}
	return openPostgres(ctx, target, cfg)
}

// parseDSN returns "sqlite" and a file path, or "postgres" and the DSN.
func parseDSN(dsn string) (kind, target string, err error) {
	switch {
	case dsn == "":
		return "", "", errors.New("store: no DSN: want sqlite:PATH or postgres://…")
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		if path == "" || strings.Contains(path, ":memory:") || strings.HasPrefix(path, "file:") {
			return "", "", fmt.Errorf("store: %q: want sqlite:PATH with the path of a file", dsn)
		}
		return "sqlite", path, nil
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return "postgres", dsn, nil
	}
	what := dsn
	if i := strings.IndexAny(dsn, ":@/"); i >= 0 {
		what = dsn[:i] + "…" // never echo credentials
	}
	return "", "", fmt.Errorf("store: unknown DSN %q: want sqlite:PATH or postgres://…", what)
}

func openSQLite(ctx context.Context, path string, cfg Config) (Store, error) {
	busy := cfg.BusyTimeout
	if busy == 0 {
		busy = 10 * time.Second
	}
	readers := cfg.MaxConns
	if readers == 0 {
		readers = 4
	}
	// Conversations hold users' questions: a new file is private to its
	// owner (SQLite gives the -wal and -shm files the same mode).
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	w, err := sqliteDB(path, busy, true)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	mode, err := journalMode(ctx, w, busy)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		w.Close()
		return nil, fmt.Errorf("store: open sqlite %s: journal mode is %q, not WAL (is the file on a network filesystem?)", path, mode)
	}
	if err := migrate(ctx, w, &sqliteDialect); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: sqlite %s: %w", path, err)
	}
	r, err := sqliteDB(path, busy, false)
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	s := &sqlStore{d: &sqliteDialect, w: w, r: r, slots: make(chan struct{}, readers),
		now: cfg.Now, name: "sqlite:" + path}
	if err := s.prepare(ctx, sqliteWrites, sqliteReads); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	s.wr = newWriter(w, s)
	return s, nil
}

// journalMode opens the writer's first connection — which turns a new
// file to WAL — and reads its journal mode. Processes opening one new file
// together contend for that switch, and SQLite reports the loser busy at
// once, without waiting in its busy handler; the opening is tried again
// until the busy timeout has passed.
func journalMode(ctx context.Context, w *sql.DB, busy time.Duration) (string, error) {
	deadline := time.Now().Add(busy)
	for {
		var mode string
		err := w.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return mode, err
		}
		t := time.NewTimer(5 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		case <-t.C:
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED (or
// one of their extended codes).
func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code() & 0xff
	return c == 5 || c == 6
}

// The statements prepared once per SQLite store.
var (
	sqliteWrites = []string{
		insertConversation, updateConversation, conversationExists, insertEvent,
		deleteLock, deleteEvents, deleteConversation, expireConversations,
		sqliteDialect.lockSQL, sqliteDialect.renewSQL, unlock, savepoint, releaseSavepoint, rollbackSavepoint,
		insertAnswer, rememberValue, forgetAnswers, forgetRemembered, setNeverAsk,
		insertQuery, insertAudit,
	}
	sqliteReads = []string{
		selectConversation, sqliteDialect.headsSQL, selectEvents, learnedOfUser, selectNeverAsk,
		conversationStats, latencyPercentiles, selectQueryLog, selectAnswers,
		listConversations, listConversationsAfter,
	}
)

// writerCacheKiB is the page cache of SQLite's write connection: enough
// for a group of maxGroup writes (a conversation's answer changes about
// 30 KiB of pages) to commit without spilling to the WAL first. Pages are
// allocated as they are used, so a quiet store costs less.
const writerCacheKiB = 8 << 10

// sqliteDB opens a pool on a SQLite file. The writer's transactions begin
// IMMEDIATE, taking the write lock up front, so that a transaction never
// fails halfway on a lock another process holds; readers are query_only.
func sqliteDB(path string, busy time.Duration, writer bool) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		// The writer's group transactions put each write in a savepoint,
		// whose statement journal (the pages a write changes, to undo it
		// alone) SQLite writes to a temporary file once past 64 KiB: kept
		// in memory instead, it costs a copy, not system calls. It holds
		// one write's pages at a time and never reaches the database
		// file, so durability is unchanged.
		q.Add("_pragma", "temp_store(MEMORY)")
		// A group of writes that outgrows the page cache spills pages to
		// the WAL before its COMMIT; writerCacheKiB holds a full group.
		q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", writerCacheKiB))
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	// In a file: URI the path's %, ? and # must be escaped.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	c, err := sqlite.NewConnector("file:" + esc + "?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	return sql.OpenDB(c), nil
}

func openPostgres(ctx context.Context, dsn string, cfg Config) (Store, error) {
	display := "postgres"
	if u, err := url.Parse(dsn); err == nil {
		display = u.Redacted()
	}
	pc, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors redact the password.
		return nil, fmt.Errorf("store: open %s: %w", display, err)
	}
	return openPostgresConfig(ctx, pc, display, cfg)
}

// openPostgresConfig opens a PostgreSQL store on the connections pc
// configures; display names it in errors.
func openPostgresConfig(ctx context.Context, pc *pgx.ConnConfig, display string, cfg Config) (Store, error) {
	n := cfg.MaxConns
	if n == 0 {
		n = 16
	}
	db := stdlib.OpenDB(*pc)
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", display, err)
	}
	if err := migrate(ctx, db, &postgresDialect); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", display, err)
	}
	var schema string
	if err := db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: read the schema: %w", display, err)
	}
	channel := notifyChannel(schema)
	return &pgNotifier{sqlStore: &sqlStore{d: &postgresDialect, w: db, r: db, slots: make(chan struct{}, n),
		now: cfg.Now, name: display, channel: channel, ann: newAnnouncer(db, postgresDialect.notifySQL, channel)},
		listen: pc.Copy()}, nil
}
