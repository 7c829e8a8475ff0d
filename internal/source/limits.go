package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// Server-side limits: every statement on the hardened path runs with the
// server's own time limit and the per-statement memory and disk limits
// its dialect offers, so that a statement the client gave up on is
// stopped by the server too, and one statement cannot take the server's
// memory. Which limits exist per dialect, and which do not, is written
// down in docs/guard.md ("Server-side limits").

// limit is one server setting applied to each statement. A limit that is
// not required is left out, with a warning logged once, when the
// database refuses it (a role without the privilege, a server version
// without the setting); a required one failing fails the statement.
type limit struct {
	name, value string
	required    bool
}

// postgresLimits are the startup parameters of each connection of the
// hardened pool, so the session returns to them after every statement;
// statement_timeout is also set locally for a statement whose caller's
// deadline is nearer (exec_postgres.go).
func postgresLimits(timeout time.Duration) []limit {
	return []limit{
		{name: "statement_timeout", value: strconv.FormatInt(max(timeout.Milliseconds(), 1), 10), required: true},
		// each sort or hash node keeps at most this much in memory before
		// spilling to temporary files
		{name: "work_mem", value: "16MB"},
		{name: "hash_mem_multiplier", value: "1"},
		// temporary files of one statement (superuser or GRANT SET only)
		{name: "temp_file_limit", value: "1GB"},
		// one statement uses at most two server processes
		{name: "max_parallel_workers_per_gather", value: "1"},
		{name: "idle_in_transaction_session_timeout", value: strconv.FormatInt(timeout.Milliseconds()+5000, 10)},
		// no JIT compilation: its threshold is a cost estimate, which a
		// scan of a big table passes, and compiling then took longer than
		// the statement (1.4 s of a preview's 1.3 s EXPLAIN ANALYZE on
		// 2M trades; the statements here are interactive, and a preview
		// has 150 ms)
		{name: "jit", value: "off"},
	}
}

// PostgresSettings returns the settings each PostgreSQL execution
// connection starts with for a query timeout (postgresLimits), by name:
// for a tool that runs a statement directly to compare with the hardened
// path, with the same planner and memory settings (jit off, one parallel
// worker …).
func PostgresSettings(timeout time.Duration) map[string]string {
	m := map[string]string{}
	for _, l := range postgresLimits(timeout) {
		m[l.name] = l.value
	}
	return m
}

// mysqlLimits hold for each statement: on MariaDB the statement carries
// them (SET STATEMENT … FOR), on MySQL they are set on its connection
// before it serves a statement (a new one, or one whose session was reset
// after its last statement, so they end with it); exec_mysql.go. Values
// are numbers written by this package, never user text.
func mysqlLimits(timeout time.Duration, mariadb bool) []limit {
	mem := []limit{
		// every transaction of the session is READ ONLY, the statement's
		// own autocommit one included (MySQL 8 knows only the new name)
		{name: readOnlyVar(mariadb), value: "1", required: true},
		// in-memory temporary tables (GROUP BY, DISTINCT, derived tables)
		// move to disk past this size
		{name: "max_heap_table_size", value: "67108864"},
		{name: "sort_buffer_size", value: "4194304"},
		{name: "join_buffer_size", value: "1048576"},
		// refuse up front a statement the optimizer expects to examine
		// more than this many row combinations (sets sql_big_selects=0)
		{name: "max_join_size", value: "10000000000"},
	}
	if mariadb {
		return append([]limit{
			{name: "max_statement_time", value: strconv.FormatFloat(max(timeout.Seconds(), 0.001), 'f', 3, 64), required: true},
			{name: "tmp_memory_table_size", value: "67108864"},
			// on-disk temporary tables of one statement
			{name: "tmp_disk_table_size", value: "1073741824"},
		}, mem...)
	}
	return append([]limit{
		{name: "max_execution_time", value: strconv.FormatInt(max(timeout.Milliseconds(), 1), 10), required: true},
		{name: "tmp_table_size", value: "67108864"},
	}, mem...)
}

func readOnlyVar(mariadb bool) string {
	if mariadb {
		return "tx_read_only"
	}
	return "transaction_read_only"
}

// limitSet remembers which optional limits a pool's database accepts: it
// is probed once per pool (again after a probe that failed for another
// reason than a refusal).
type limitSet struct {
	mu      sync.Mutex
	probed  bool
	refused map[string]bool
	// distrusted: a connection that asked for every limit was refused
	// one, so each must be tried (PostgreSQL's startup parameters)
	distrusted bool
	// tried counts the limits tried one by one (tests read it)
	tried int
}

// assumeAll reports whether a connection should ask for every limit, as
// nothing is known yet of which the database refuses, or it accepted all.
func (ls *limitSet) assumeAll() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return !ls.distrusted && (!ls.probed || len(ls.refused) == 0)
}

// acceptedAll records that a connection asking for every limit started:
// the database accepts them all. It changes nothing once the limits have
// been tried one by one.
func (ls *limitSet) acceptedAll() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if !ls.distrusted && !ls.probed {
		ls.probed, ls.refused = true, map[string]bool{}
	}
}

// distrust records that a connection asking for every limit was refused
// for a setting, so that the next tries each limit; it reports whether
// that changed anything (a second refusal is the connection's error).
func (ls *limitSet) distrust() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.distrusted {
		return false
	}
	ls.distrusted, ls.probed = true, false
	return true
}

// usable returns the limits the database accepts, probing them first if
// needed with try, which applies one limit and returns the database's
// error. Refusals are logged once as warnings.
func (ls *limitSet) usable(ctx context.Context, log *slog.Logger, dialect string, all []limit, try func(context.Context, limit) error) ([]limit, error) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if !ls.probed {
		refused := map[string]bool{}
		for _, l := range all {
			ls.tried++
			err := try(ctx, l)
			if err == nil {
				continue
			}
			if l.required || !refusal(err) {
				return nil, fmt.Errorf("set %s: %w", l.name, err)
			}
			refused[l.name] = true
			log.Warn("the database refused a per-statement limit; statements run without it",
				"dialect", dialect, "setting", l.name, "value", l.value, "err", err)
		}
		ls.probed, ls.refused = true, refused
	}
	out := make([]limit, 0, len(all))
	for _, l := range all {
		if !ls.refused[l.name] {
			out = append(out, l)
		}
	}
	return out, nil
}

// refusal reports whether err is the database refusing a setting (no
// privilege, unknown or read-only variable) rather than failing.
func refusal(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// insufficient_privilege, undefined_object (unknown parameter),
		// cant_change_runtime_param, invalid_parameter_value
		switch pg.Code {
		case "42501", "42704", "55P02", "22023":
			return true
		}
	}
	var my *mysql.MySQLError
	if errors.As(err, &my) {
		// ER_SPECIFIC_ACCESS_DENIED_ERROR, ER_UNKNOWN_SYSTEM_VARIABLE,
		// ER_INCORRECT_GLOBAL_LOCAL_VAR, ER_WRONG_VALUE_FOR_VAR,
		// ER_SET_STATEMENT_NOT_SUPPORTED (MariaDB)
		switch my.Number {
		case 1227, 1193, 1238, 1231, 1971:
			return true
		}
	}
	return false
}

// statementTimeout is how long the server may run a statement: the
// source's timeout, or less when the caller's deadline (which includes
// time spent waiting for a slot) comes first.
func statementTimeout(ctx context.Context, timeout time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		if r := time.Until(dl); r < timeout {
			return max(r, time.Millisecond)
		}
	}
	return timeout
}

// setMySQLLimits prepares conn, a new or reset connection, for
// statements: with the sql_mode that keeps backslash escapes on (the
// guard's printer assumes them) and, on MySQL, the limits as session
// settings for a statement of the full query timeout. MariaDB statements
// carry their limits (mariadbStatement); here they are only probed, once
// per pool.
func (p *execPool) setMySQLLimits(ctx context.Context, conn *sql.Conn, log *slog.Logger, timeout time.Duration) error {
	use, err := p.usableMySQLLimits(ctx, conn, log, timeout)
	if err != nil {
		return err
	}
	set := "SET SESSION sql_mode = TRIM(BOTH ',' FROM REPLACE(CONCAT(',', @@SESSION.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','))"
	if !p.mariadb {
		for _, l := range use {
			set += ", " + l.name + " = " + l.value
		}
	}
	_, err = conn.ExecContext(ctx, set)
	return err
}

// usableMySQLLimits returns the limits of a statement of timeout that the
// database accepts, probing them on conn the first time: on MariaDB in
// the form statements carry them, SET STATEMENT, which refuses some
// settings SET SESSION takes.
func (p *execPool) usableMySQLLimits(ctx context.Context, conn *sql.Conn, log *slog.Logger, timeout time.Duration) ([]limit, error) {
	dialect := "mysql"
	if p.mariadb {
		dialect = "mariadb"
	}
	return p.limits.usable(ctx, log, dialect, mysqlLimits(timeout, p.mariadb), func(ctx context.Context, l limit) error {
		q := "SET SESSION " + l.name + " = " + l.value
		if p.mariadb {
			q = "SET STATEMENT " + l.name + " = " + l.value + " FOR DO 0"
		}
		_, err := conn.ExecContext(ctx, q)
		return err
	})
}

// mariadbStatement returns query carrying the limits of a statement whose
// caller's deadline is ctx's (SET STATEMENT … FOR query): MariaDB applies
// them to that statement alone, its time limit included. query must hold
// no SET STATEMENT of its own (mysqlStatementAllowed, mariadbCommentFree):
// an inner one would override these.
func (p *execPool) mariadbStatement(ctx context.Context, conn *sql.Conn, log *slog.Logger, timeout time.Duration, query string) (string, error) {
	use, err := p.usableMySQLLimits(ctx, conn, log, statementTimeout(ctx, timeout))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(300 + len(query))
	b.WriteString("SET STATEMENT ")
	for i, l := range use {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.name)
		b.WriteString(" = ")
		b.WriteString(l.value)
	}
	b.WriteString(" FOR ")
	b.WriteString(query)
	return b.String(), nil
}
