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
// query.Query those choices add up to. Answers to earlier clarifications come
// in as Resolutions keyed by slot, so a confirmed slot is never re-extracted.
//
// # Where things are
//
// The leaf packages below do not know the builder: text (normalisation,
// tokens, stems, edit distance), timeexpr (time expressions) and
// valueindex (the index of stored values). In this package:
//
//   - analyzer.go: Analyzer, Analyze, the value index kept fresh;
//   - lexicon.go, words.go: the model's words and the built-in ones;
//   - link.go: linking tokens to mentions (the best reading of the words);
//   - builder.go: the builder and the pass order (build), the filter
//     pass, and helpers that walk the mentions;
//   - one file per reading, each opening with what it reads and in which
//     pass: entities.go, columns.go, values.go, subject.go, intent.go (the
//     precedence of intent readers), ranking.go, aggregation.go,
//     grouping.go, negation.go, vague.go, terms.go, condition.go,
//     comparison.go, window.go, ordering.go, scope.go, format.go,
//     unknown.go;
//   - slots.go: Slot, Option, Resolution and how an answer settles a slot;
//   - describe.go: Describe, the stable text of an interpretation.
package understand
