// Package conversation turns one-shot engine turns into conversations many
// people hold at once: a question that pauses for a clarification and
// resumes — after a page reload, a crash, or on another server instance.
//
// Every transition is persisted in the store before it is acknowledged
// (active → awaiting_clarification → active → answered | failed |
// abandoned). A conversation's lease (store.Lock) makes one request at a
// time work on it, across instances. Each turn appends its events (step,
// clarification, assumptions, sql, result, chart, suggestions, error,
// done) to the conversation's log, which is what SSE clients replay.
// Answers are remembered per user, source and slot: a remembered choice,
// or the same answer three times, is applied as an assumption next time.
package conversation
