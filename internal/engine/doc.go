// Package engine runs one turn of a question through the pipeline:
// understand → route (ask or answer) → plan → execute → answer, for one
// source. A turn is a function of (model, question, answers so far, clock):
// pausing for a clarification keeps no state here — the caller (the CLI,
// the evaluation harness, the conversation service) stores the answers and
// runs the next turn with them, so a confirmed slot is never re-extracted.
//
// Outcomes use the JSON shapes of docs/api.md; docs/design.md tells the
// flow of a turn in full.
package engine
