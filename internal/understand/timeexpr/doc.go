// Package timeexpr reads time expressions: "last 30 days", "since
// March", "in 2025", "from January to March 2024", "older than 600
// days", "за последние 30 дней".
//
// It sits beside the lexicon in the first step of understanding (package
// understand): while a question's tokens (package text) are linked, each
// position is also offered to the Parser, and a period it reads competes
// with the model's words for those tokens. ParseWindow reads a whole
// free-text answer to a time-window question.
//
// A period is a Window of dates, computed from the engine's clock; the
// semantics ("last N units" runs from now − N units to the end of today,
// calendar periods start on their first day) are those of docs/eval.md,
// section "The suite format". It imports only the standard library and package
// text.
package timeexpr
