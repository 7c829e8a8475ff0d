// Package query is the meaning of a question, once every decision about it
// is made: what to count, list, rank or group, over which rows, under
// which filters, in which period. It is the contract between the step
// that understands a question (package understand, which builds a Query
// from the choices of its slots) and the step that compiles it to SQL
// (package plan), so neither depends on the other.
//
// A Query refers to the semantic model (package model) and holds values
// only as bound literals, never user text as SQL. Its periods are
// timeexpr.Windows, computed from the engine's clock.
package query
