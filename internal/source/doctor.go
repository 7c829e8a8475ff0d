package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// Finding is one result of checking what a source's database account may
// do. Clarify only reads: anything more is a risk the deployment should
// remove (docs/guard.md describes the least-privilege role).
type Finding struct {
	// Warn is set for a privilege beyond reading.
	Warn bool `json:"warn"`
	// Message says what was found and what to do.
	Message string `json:"message"`
}

func warn(format string, args ...any) Finding {
	return Finding{Warn: true, Message: fmt.Sprintf(format, args...)}
}

func ok(format string, args ...any) Finding { return Finding{Message: fmt.Sprintf(format, args...)} }

// CheckPrivileges reports what the source's account may do beyond reading:
// write or DDL privileges, superuser-like attributes, server file access,
// large objects and links to other databases (PostgreSQL); grants other
// than SELECT (MySQL/MariaDB); a writable file (SQLite).
func (s *Source) CheckPrivileges(ctx context.Context) ([]Finding, error) {
	switch s.Target.Dialect {
	case model.Postgres:
		return s.pgPrivileges(ctx)
	case model.MySQL:
		return s.mysqlPrivileges(ctx)
	}
	return sqlitePrivileges(s.Target.DSN), nil
}

func sqlitePrivileges(path string) []Finding {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return []Finding{ok("the database file is read-only for this user")}
		}
		return []Finding{warn("cannot check the database file: %v", err)}
	}
	f.Close()
	return []Finding{warn("the database file %s is writable by this user: Clarify opens it read-only (mode=ro, query_only, an authorizer), but a file Clarify's user cannot write is safer (chmod a-w, or a read-only mount)", path)}
}

// pgChecks are catalog queries returning one text row per risk found.
var pgChecks = []struct{ query, format string }{
	{`SELECT a FROM (SELECT CASE WHEN rolsuper THEN 'superuser' END a FROM pg_roles WHERE rolname = current_user
		UNION ALL SELECT CASE WHEN rolcreaterole THEN 'CREATEROLE' END FROM pg_roles WHERE rolname = current_user
		UNION ALL SELECT CASE WHEN rolcreatedb THEN 'CREATEDB' END FROM pg_roles WHERE rolname = current_user
		UNION ALL SELECT CASE WHEN rolbypassrls THEN 'BYPASSRLS' END FROM pg_roles WHERE rolname = current_user
		UNION ALL SELECT CASE WHEN rolreplication THEN 'REPLICATION' END FROM pg_roles WHERE rolname = current_user) x
		WHERE a IS NOT NULL`,
		"the role has the %s attribute: use a role without it"},
	{`SELECT p.priv || ' on ' || count(*) || ' table(s), e.g. ' || min(quote_ident(n.nspname) || '.' || quote_ident(c.relname))
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER', 'REFERENCES']) AS p(priv)
		WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
		AND n.nspname NOT LIKE 'pg_toast%' AND has_table_privilege(c.oid, p.priv)
		GROUP BY p.priv ORDER BY p.priv`,
		"the role may %s: grant SELECT only"},
	{`SELECT 'CREATE on database ' || quote_ident(current_database()) WHERE has_database_privilege(current_database(), 'CREATE')
		UNION ALL SELECT 'TEMPORARY on database ' || quote_ident(current_database()) WHERE has_database_privilege(current_database(), 'TEMPORARY')
		UNION ALL SELECT 'CREATE on schema ' || quote_ident(nspname) FROM pg_namespace
			WHERE has_schema_privilege(oid, 'CREATE') AND nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'`,
		"the role has %s: revoke it"},
	{`SELECT r FROM unnest(ARRAY['pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program',
			'pg_signal_backend', 'pg_read_all_settings', 'pg_write_all_data']) AS r
		WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) AND pg_has_role(current_user, r, 'MEMBER')`,
		"the role is a member of %s: revoke the membership"},
	{`SELECT f FROM unnest(ARRAY['lo_import(text)', 'lo_export(oid, text)', 'lo_from_bytea(oid, bytea)', 'lo_put(oid, bigint, bytea)']) AS f
		WHERE has_function_privilege(f, 'EXECUTE')`,
		"the role may execute %s: REVOKE EXECUTE ON FUNCTION … FROM PUBLIC (large objects reach server files and storage)"},
	{`SELECT extname FROM pg_extension WHERE extname IN ('dblink', 'postgres_fdw', 'file_fdw', 'adminpack')`,
		"extension %s is installed in the database: drop it, or make sure the role cannot use it"},
}

func (s *Source) pgPrivileges(ctx context.Context) ([]Finding, error) {
	var out []Finding
	for _, c := range pgChecks {
		res, err := s.metaQuery(ctx, c.query, nil, 1000)
		if err != nil {
			return nil, fmt.Errorf("check privileges: %w", err)
		}
		for _, r := range res.Rows {
			out = append(out, warn(c.format, fmt.Sprint(r[0])))
		}
	}
	if len(out) == 0 {
		out = append(out, ok("the role can only read"))
	}
	return out, nil
}

var grantRe = regexp.MustCompile(`(?i)^GRANT (.+?) ON (.+?) TO `)

// readOnlyGrants are the MySQL privileges that do not let an account
// change anything.
var readOnlyGrants = map[string]bool{"SELECT": true, "USAGE": true, "SHOW VIEW": true, "SHOW DATABASES": true}

func (s *Source) mysqlPrivileges(ctx context.Context) ([]Finding, error) {
	res, err := s.metaQuery(ctx, "SHOW GRANTS", nil, 1000)
	if err != nil {
		return nil, fmt.Errorf("check privileges: %w", err)
	}
	risky := map[string][]string{}
	for _, r := range res.Rows {
		m := grantRe.FindStringSubmatch(fmt.Sprint(r[0]))
		if m == nil {
			continue
		}
		if strings.Contains(strings.ToUpper(fmt.Sprint(r[0])), "WITH GRANT OPTION") {
			risky["GRANT OPTION"] = append(risky["GRANT OPTION"], m[2])
		}
		for _, p := range splitGrants(m[1]) {
			if !readOnlyGrants[p] {
				risky[p] = append(risky[p], m[2])
			}
		}
	}
	var out []Finding
	names := make([]string, 0, len(risky))
	for p := range risky {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		out = append(out, warn("the account has %s on %s: grant SELECT only", p, strings.Join(risky[p], ", ")))
	}
	if len(out) == 0 {
		out = append(out, ok("the account can only read"))
	}
	return out, nil
}

// splitGrants splits "SELECT, INSERT (a, b), ALL PRIVILEGES" into
// privilege names, dropping column lists.
func splitGrants(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s + "," {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				p := strings.TrimSpace(s[start:min(i, len(s))])
				if j := strings.IndexByte(p, '('); j >= 0 {
					p = strings.TrimSpace(p[:j])
				}
				if p != "" {
					out = append(out, strings.ToUpper(p))
				}
				start = i + 1
			}
		}
	}
	return out
}
