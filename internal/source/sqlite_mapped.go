package source

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"runtime/debug"
)

// SQLite's execution connections read the file through a memory map of at
// most 1 GiB (sqliteExecParams; pages past it are read as before). A
// statement reads each page where the kernel's page cache already holds
// it, instead of a read() system call and a copy into SQLite's own cache
// per page; the map is address space, not memory, shared by every
// connection that maps the file. A scan of a 2M-row table, what a
// clarification's previews count on a table with no usable index, took
// 151 ms that way and 127 ms mapped (docs/bench.md).
//
// The price is how a file that shrinks under a running statement shows
// itself: read() returns short and SQLite reports the file malformed, but
// a mapped page past the new end raises SIGBUS, which the Go runtime turns
// into a crash of the whole process. A SQLite file's own writers never
// shrink it under a reader (its locks and WAL keep a reader's pages), but a
// user who refreshes an export by copying a new file over the old one
// truncates it in place. readMapped turns such a fault into an error for
// that one statement and retires the connection that met it.

// ErrFileChanged is returned when a SQLite file could not be read while a
// statement ran: truncated or replaced in place, or a read error of the
// disk under it.
var ErrFileChanged = errors.New("the database file changed or could not be read while the statement ran")

// readMapped runs read, which reads through conn, turning a memory fault
// in it into ErrFileChanged. A fault stops SQLite in the middle of its
// work, so conn is discarded from the pool rather than given out again.
func readMapped(conn *sql.Conn, read func() (*Result, error)) (res *Result, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		fault, ok := r.(interface{ Addr() uintptr })
		if !ok {
			panic(r)
		}
		// driver.ErrBadConn from Raw makes database/sql close the
		// connection instead of returning it to the pool
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		// the address, not the runtime's text ("nil pointer
		// dereference"), which would read as Clarify's own bug
		res, err = nil, fmt.Errorf("%w (a read fault at %#x)", ErrFileChanged, fault.Addr())
	}()
	return read()
}
