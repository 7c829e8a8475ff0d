// Package store persists Clarify's conversations, their event log, users'
// answers and preferences, and the query log — in SQLite (WAL, the default)
// or PostgreSQL (when several instances share one store). It sits under
// package conversation: every transition of a conversation is written
// here before it is acknowledged, so a crash or a restart loses nothing.
//
// Open takes "sqlite:PATH" or "postgres://…" and returns a Store whose
// schema is up to date: the migrations under migrations/ are embedded,
// numbered and applied in order. Both dialects share one implementation
// over database/sql (modernc.org/sqlite, pgx); what differs — column types,
// the migration lock, the lease clock — is in dialect.go. The shared test
// suite in storetest runs against both.
//
// Concurrency: a conversation's Version is checked and bumped by the UPDATE
// that also reserves its events' seqs (last_seq), so concurrent writers of
// one conversation get ErrConflict, never duplicate seqs. SQLite writes go
// through one goroutine that commits the writes arriving together as one
// transaction (writer.go); PostgreSQL relies on row locks and, across
// processes, on leases (Lock) timed by the server's clock.
package store
