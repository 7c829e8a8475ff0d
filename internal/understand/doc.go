// Package understand turns a question into an Interpretation: the first step
// in the flow of a question, before routing (package clarify) and planning
// (package plan).
//
// It is deterministic and offline. A question is normalized (Unicode NFKC,
// case folding), tokenized and stemmed (English and Russian); its n-grams are
// linked against a lexicon built from the semantic model (entities, columns,
// measures, terms, vague terms, values and value groups, with fuzzy matching
// over the allowed values), and numbers with comparators and units, time
// expressions, rankings, format words and first-person words are recognized.
// Content words that link to nothing are reported, never dropped.
//
// The Interpretation holds one Slot per decision (subject, each filter, time
// window, ranking, scope, format, each vague term…), each with ranked
// candidates, the method that chose one and a confidence, and the best-guess
// Query those choices add up to. Answers to earlier clarifications come in as
// Resolutions keyed by slot, so a confirmed slot is never re-extracted.
package understand
