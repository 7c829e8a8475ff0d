// Package clarify decides, for an Interpretation, whether to answer or to
// ask — and what to ask. It sits between understanding and planning in the
// flow of a question.
//
// Route applies the confidence tiers of docs/design.md (≥ 0.85 silent,
// 0.60–0.85 shown as an assumption, below 0.60 or a vague/near-tie/missing
// slot asked), picks at most one question per turn by priority (critical →
// important → helpful), stops asking after the model's max rounds, and in
// non-interactive turns applies best guesses as open questions — except the
// scope, which is never assumed. Interpret reads a user's reply to a
// question: an option number, a label, "yes"/"да" (the best guess),
// "skip"/"I don't know", or free text for the slot to understand.
package clarify
