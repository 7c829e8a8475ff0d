// Package llmreply turns a language model's reply into something Clarify
// can trust, and builds the data that reply is asked for from.
//
// It sits on the model path of a question (docs/design.md, section "The
// language-model engine"; the dual-mode reply): the engine links the question, calls Context for the
// request's messages and reply schema, sends them through package llm, and
// hands the reply text to Parse. Parse reads JSON of one of three kinds —
// sql, clarification, unanswerable — and, because models often ignore the
// format, prose too: SQL in a code block, a question in plain words with
// its options, a refusal. A clarification is normalised to 2–4 options
// grounded in the semantic model or the data, with one best guess; values
// the model wrote as SQL literals are checked against the column's allowed
// values (0.75 valid, 0.3 not: docs/design.md, section "Slots, methods
// and confidence").
//
// Nothing here touches the network or a database, and nothing in a Reply is
// executable except Reply.SQL, which the engine must send through the
// guard. Everything that comes from the database or the model's authors is
// put into the prompt as delimited, escaped data, never as instructions.
package llmreply
