// Package review turns what users did with a source into proposals for its
// semantic model, so that a drafted model gets better from real use. It
// sits after the conversation, outside the flow of a question: `clarify
// model review` reads the query log and the answers to clarifications from
// the store (and, optionally, the results of `clarify eval --json`), and
// this package, with no database access and no clock of its own, reports
//
//   - the words users used that linked to nothing, most used first;
//   - the questions asked most and how they ended;
//   - the clarifications answered most, with the answers given;
//   - the best guesses users overrode;
//
// and proposes additions to the model — a synonym, a stopword, a different
// best guess or ranking default, a vague term to define — each with the
// counts that support it. Build makes the Report; Text renders it for
// people and Patch as a YAML patch for a data team to review (docs/review.md).
//
// Proposals are deliberately modest: each rule is a few lines a reviewer
// can check against its evidence, and none fires on a single answer (see
// the thresholds in thresholds.go).
package review
