// Package source connects Clarify to the databases it answers questions
// about: it opens SQLite files, PostgreSQL and MySQL/MariaDB servers,
// executes statements on a hardened read-only path (harden.go: the second
// wall behind the guard) with a server-side timeout and a row cap, checks
// what a source's account may do (doctor.go), and
// caches the allowed values of database-sourced columns (TTL,
// stale-while-revalidate, a cap, and a clean fallback when the database is
// unreachable) for understanding to match questions against.
//
// It sits at the end of the flow of a question: after planning and the
// guard, before the answer is assembled.
package source
