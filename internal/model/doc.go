// Package model is the semantic model of one data source: what the words of a
// domain mean in one database.
//
// A model is a YAML file (format in docs/model.md) describing entities
// (tables) and their columns, measures, business terms, vague terms with the
// options a user chooses between, rankings, the scope a question must be
// limited to, policies and schema areas. Everything else in Clarify reads it:
// understanding links words to it, clarification asks with its options, and
// planning compiles its join paths, conditions and SQL fragments.
//
// Load validates a model and reports errors that name the file, line and
// field. Draft builds a first model by introspecting a database.
package model
