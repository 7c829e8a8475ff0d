// Package storetest is the one test suite and benchmark set that every
// implementation of store.Store runs, as River runs one suite against each
// of its drivers: SQLite and PostgreSQL must behave the same to package
// conversation, down to the errors they return.
//
// A caller supplies a function that returns the DSN of a fresh, empty store
// private to the test (a file in t.TempDir, a new PostgreSQL schema). The
// suite opens it with store.Open itself, so it can also reopen it, open it
// twice as two processes would, and open it concurrently.
package storetest
