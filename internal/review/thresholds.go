package review

// The thresholds of the proposals. A proposal needs agreement between
// several answers: one answer is an anecdote, not a pattern.
const (
	// MinAgreeing is the least number of answers that must agree on what
	// a word means (or on an option) before it is proposed.
	MinAgreeing = 2
	// MinDefaultAnswers is the least number of answers to a question with
	// a best guess before a different best guess (or ranking default) is
	// proposed; users must also have overridden the current one in the
	// majority of them.
	MinDefaultAnswers = 3
	// MinVagueUses is how many conversations (and failing eval cases) must
	// have used an unknown, adjective-like word before it is proposed as a
	// vague term to define.
	MinVagueUses = 3
	// TopQuestions is how many of the questions asked most a report keeps.
	TopQuestions = 20
	// TextRows is how many rows each table of the text report shows.
	TextRows = 10
)
