package guard

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	sqlite "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/sqliteauth"
)

// sentinelPrefix renames the tables inside scoped projections while the
// verifier compiles a statement.
const sentinelPrefix = "clarify_scoped_"

func sentinel(name string) string { return sentinelPrefix + name }

// verifier compiles SQLite statements with SQLite itself, against an empty
// in-memory database holding only the model's tables and columns, with an
// authorizer that allows nothing but reading those tables and calling the
// allowed functions. It turns any disagreement between rqlite/sql and
// SQLite into a rejection: the statement SQLite would run is the one
// checked.
type verifier struct {
	mu sync.Mutex
	db *sql.DB
	// tables are the shadow tables (lower case): model tables and, for
	// scoped checks, their sentinel copies.
	tables map[string]bool
	// scopedTables are the real names of the scoped model tables.
	scopedTables map[string]bool
	schema       []string

	// state of the check under way, guarded by mu
	scoped bool
	denied string
}

func newVerifier(m *model.Model) (*verifier, error) {
	v := &verifier{tables: map[string]bool{}, scopedTables: map[string]bool{}}
	scoped, _ := scopePaths(m)
	for _, e := range m.Entities {
		cols := make([]string, len(e.Columns))
		for i, c := range e.Columns {
			cols[i] = model.SQLite.QuoteIdent(c.Name)
		}
		for _, name := range []string{e.TableName(), sentinel(e.TableName())} {
			v.schema = append(v.schema, "CREATE TABLE "+model.SQLite.QuoteIdent(name)+" ("+strings.Join(cols, ", ")+")")
			v.tables[strings.ToLower(name)] = true
		}
		if scoped[e] != nil {
			v.scopedTables[strings.ToLower(e.TableName())] = true
		}
	}
	base, err := sqlite.NewConnector("file::memory:?_dqs=0")
	if err != nil {
		return nil, fmt.Errorf("guard: open SQLite verifier: %w", err)
	}
	// Each connection builds the shadow schema, then takes the authorizer
	// (the in-memory database lives as long as the connection does).
	v.db = sql.OpenDB(sqliteauth.Connector{Connector: base, Authorize: v.authorize, Setup: v.schema})
	v.db.SetMaxOpenConns(1)
	v.db.SetMaxIdleConns(1)
	v.db.SetConnMaxLifetime(0)
	v.db.SetConnMaxIdleTime(0)
	return v, nil
}

func (v *verifier) deny(format string, args ...any) sqlite.AuthorizerReturnCode {
	if v.denied == "" {
		v.denied = fmt.Sprintf(format, args...)
	}
	return sqlite.AuthorizerDeny
}

// authorize runs inside SQLite while verify holds v.mu.
func (v *verifier) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect:
		return sqlite.AuthorizerOK
	case sqlite.AuthRead:
		t := strings.ToLower(arg1)
		switch {
		case arg2 == "" && !v.tables[t]:
			// count(*) over a CTE or subquery reads no column of it
			return sqlite.AuthorizerOK
		case !v.tables[t]:
			return v.deny("it reads %s, which is not a model table", t)
		case v.scoped && v.scopedTables[t]:
			return v.deny("it reads scoped table %s outside the scope filter", t)
		case !v.scoped && strings.HasPrefix(t, sentinelPrefix):
			return v.deny("it reads %s, which is not a model table", t)
		}
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		if !SQLiteFunctions[strings.ToLower(arg2)] {
			return v.deny("it calls function %s, which is not allowed", strings.ToLower(arg2))
		}
		return sqlite.AuthorizerOK
	}
	return v.deny("it does something other than reading (SQLite action %d)", int(action))
}

// verify compiles stmt in the shadow database and reports what SQLite
// refused.
func (v *verifier) verify(stmt string, scoped bool) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.scoped, v.denied = scoped, ""
	ps, err := v.db.PrepareContext(context.Background(), stmt)
	if err == nil {
		ps.Close()
	}
	switch {
	case v.denied != "":
		if scoped && strings.Contains(v.denied, "scope filter") {
			return scopeViolation("SQLite refused the statement: %s", v.denied)
		}
		return reject("SQLite refused the statement: %s", v.denied)
	case err != nil:
		return reject("SQLite cannot compile the statement over the model's tables: %s", sqliteMessage(err))
	}
	return nil
}

// sqliteMessage keeps the part of a SQLite error that names what is wrong
// (no such column: x) without the driver's decoration.
func sqliteMessage(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg[:i], "SQL logic error") {
		msg = msg[strings.Index(msg, "SQL logic error: ")+len("SQL logic error: "):]
	}
	if i := strings.LastIndex(msg, " ("); i > 0 {
		msg = msg[:i]
	}
	if strings.ContainsAny(msg, "'") || len(msg) > 120 {
		return "syntax or name error"
	}
	return msg
}
