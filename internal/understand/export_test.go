package understand

import "github.com/clarify-sql/clarify/internal/understand/text"

// Suggest returns what an analyzer offers for an unknown word in a
// question that has a subject: up to three names of its model.
func (a *Analyzer) Suggest(words string) []string {
	return a.lex.suggest.similar(text.Normalize(words), 3)
}

// EntityWords and MeasureLabel are the names suggestions compare words
// with, for the reference scan in the tests.
var (
	EntityWords  = entityWords
	MeasureLabel = measureLabel
)
