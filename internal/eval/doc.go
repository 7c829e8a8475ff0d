// Package eval runs evaluation suites (docs/eval.md) through the
// real pipeline and scores them: accuracy against gold SQL, whether
// Clarify asked when it should (ask_recall, ask_precision) and did not ask
// when it should not (false_ask), error codes, questions per case and
// latency. Users run it in their CI on their own models; we run it on the
// demo sources.
package eval
