// Package sqliteauth has SQLite itself refuse what a statement may not
// do: it installs an authorizer (sqlite3_set_authorizer) on every
// connection a pool opens. The guard's verifier compiles each statement
// under one that allows only the model's tables and the allowed functions;
// the source's read-only execution path runs each statement under one
// that allows only reading and a list of functions.
package sqliteauth
