package config

import (
	"path/filepath"
	"strings"
)

// resolvePaths applies the one rule for paths in a config file: every
// relative path is relative to dir, the directory of the file. It covers
// data_dir, each source's model and SQLite DSN, server.store when it is a
// SQLite file, and server.tls_cert and tls_key. Absolute paths, builtin
// models and DSNs that name no file (postgres://, mysql:, :memory:) are
// left as they are, so resolving twice changes nothing.
func (c *Config) resolvePaths(dir string) {
	c.DataDir = resolvePath(c.DataDir, dir)
	for i := range c.Sources {
		s := &c.Sources[i]
		if !strings.HasPrefix(s.Model, "builtin:") {
			s.Model = resolvePath(s.Model, dir)
		}
		s.DSN = resolveDSN(s.DSN, dir)
	}
	c.Server.Store = resolveDSN(c.Server.Store, dir)
	c.Server.TLSCert = resolvePath(c.Server.TLSCert, dir)
	c.Server.TLSKey = resolvePath(c.Server.TLSKey, dir)
}

// resolvePath joins a relative path to dir; "" stays "" (the field's
// default).
func resolvePath(p, dir string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// resolveDSN resolves the file of a SQLite DSN in the forms the sources
// and the store read: sqlite:PATH, sqlite://PATH, a bare PATH ending in
// .db, .sqlite or .sqlite3, and a file: URI in any of them. Server DSNs
// are returned unchanged.
func resolveDSN(dsn, dir string) string {
	for _, server := range []string{"postgres://", "postgresql://", "mysql:"} {
		if strings.HasPrefix(dsn, server) {
			return dsn
		}
	}
	if rest, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		p := strings.TrimPrefix(rest, "//")
		if r := resolveSQLitePath(p, dir); r != p {
			return "sqlite:" + r
		}
		return dsn
	}
	for _, ext := range []string{".db", ".sqlite", ".sqlite3"} {
		if strings.HasSuffix(dsn, ext) {
			return resolveSQLitePath(dsn, dir)
		}
	}
	return dsn
}

// resolveSQLitePath resolves a SQLite file name or file: URI (whose path
// ends at "?"); in-memory databases and file:// URIs with an authority or
// an absolute path stay as they are.
func resolveSQLitePath(p, dir string) string {
	if p == "" || strings.Contains(p, ":memory:") {
		return p
	}
	uri, ok := strings.CutPrefix(p, "file:")
	if !ok {
		return resolvePath(p, dir)
	}
	path, query, hasQuery := strings.Cut(uri, "?")
	if path == "" || strings.HasPrefix(path, "//") || strings.Contains(query, "mode=memory") {
		return p
	}
	path = resolvePath(path, dir)
	if hasQuery {
		path += "?" + query
	}
	return "file:" + filepath.ToSlash(path)
}
