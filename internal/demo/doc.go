// Package demo generates the four demo databases that ship with Clarify:
// clinic (wound care), labs (personal lab results), trades (market data) and
// retail (a WideWorldImporters-shaped wholesale distributor).
//
// The demo data sits underneath everything else: `clarify demo` and the
// server's first start write the sources into SQLite files with EnsureSQLite,
// the evaluation suites (docs/eval.md) run their gold SQL against those files,
// and the integration tests of other packages load the very same rows into
// PostgreSQL (LoadPostgres) and MySQL/MariaDB (LoadMySQL).
//
// The tables, columns, fixed rows and value domains are a contract written
// down in docs/demo.md. Generation is deterministic: every dataset
// is first built as plain Go values from a PCG random source seeded with
// (Options.Seed, source name) and from Options.AsOf, the dataset's "today"
// (the package never reads the clock), and only then written through one small
// per-dialect writer: DDL, batched multi-row INSERTs with bound parameters, and
// indexes, inside a transaction. The same (seed, as_of) therefore gives the
// same rows on every dialect and byte-identical SQLite files.
//
// Each generator checks the spec's invariants on its own output (for example
// that the product and customer rankings of retail differ at ranks 3, 5 and 10
// without ties) and, when a draw misses one, draws again from a source derived
// from the next attempt number, so the result stays deterministic.
package demo
