// Package text is where a question's words come from: Unicode
// normalisation, tokens (words, numbers, comparison operators), stems and
// the distance between two words.
//
// It is the first step of understanding (package understand): the
// question is normalised and tokenised here, then linked to the model
// word by word. The value index (package valueindex) and the time parser
// (package timeexpr) read the same tokens. It knows nothing of models or
// databases and imports only the standard library, the Snowball stemmers
// and golang.org/x/text.
//
// Model words are matched by Snowball stems (Stem, StemPhrase); stored
// values by plural-only stems (ValueStem), so "opened" never means the
// status "Open".
package text
