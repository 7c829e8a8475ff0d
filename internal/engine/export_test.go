package engine

// SetBeforeTurn makes e run f first in every turn (tests of what a turn
// does when something inside it fails).
func SetBeforeTurn(e *Engine, f func(Request)) { e.beforeTurn = f }
