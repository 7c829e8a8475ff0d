// Package guard decides whether a SQL statement may run against a source.
//
// Every statement Clarify executes passes through a Guard first — SQL the
// rules engine compiled, SQL an LLM wrote, SQL a user pasted into
// `clarify guard`. The guard parses the statement with a real parser for
// the source's dialect (PostgreSQL's own parser through pg_query, Vitess's
// MySQL grammar, rqlite's SQLite grammar backed by SQLite itself), then
// proves that it is one read-only SELECT (or WITH … SELECT) that only reads
// the tables and columns the semantic model exposes and calls only allowed
// functions. It returns the statement to execute, printed from the checked
// syntax tree rather than the text it was given (for PostgreSQL, from
// PostgreSQL's own tokens of it, proven to parse back to that tree node for
// node): every model table is replaced by a derived table exposing only the
// model's columns, filtered to the conversation's scope value when the
// conversation is scoped, and the LIMIT is capped.
//
// It sits between planning and execution in the flow of a question; the
// source package's hardened execution path is the second wall behind it.
// CheckModel checks a model's SQL fragments when the model loads.
package guard
