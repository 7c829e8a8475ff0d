// Package plan compiles a settled query.Query (built by package
// understand) into SQL for SQLite, PostgreSQL or MySQL: the step after
// routing and before the guard and execution in the flow of a question.
//
// Identifiers are quoted; every value, and every date a model fragment
// computes from the clock, is a bound parameter, so no user text ever
// becomes SQL text. Joins follow the model's join paths: many-to-one steps
// are joined, one-to-many steps become EXISTS subqueries so subject rows are
// never repeated. A Plan also carries the answer's columns, a chart hint and
// a plain-language statement of what was computed.
package plan
