// Package archtest holds Clarify's architecture test: it has no code of its
// own, only tests that read the import graph of the module and fail when the
// code and docs/architecture.md disagree.
//
// The graph is read offline with go/build over every directory of the
// module (testdata, hidden and underscore-prefixed directories excepted),
// the same package list `go list ./...` gives for this platform. Imports
// from non-test files make the edges the rules apply to; imports from
// _test.go files count only for the rule that test helpers (testdb,
// llmtest, demotest, storetest) are imported from tests alone.
//
// The tests:
//
//   - TestRules checks the dependency rules of docs/architecture.md
//     ("Dependency rules"), a table of named cases with their documented
//     exceptions; an exception that no longer matches any import fails too,
//     so the table stays true.
//   - TestHelpersListed keeps the list of test helpers complete.
//   - TestNoCycles checks that the packages' imports form no cycle.
//   - TestTree compares the generated block of docs/architecture.md (each
//     package, its layer, its internal imports and the first sentence of its
//     package comment) with the code; `go test ./internal/archtest -update`
//     rewrites it.
//   - TestDocNames checks that the repository paths the architecture page
//     names exist, and that in its "Where to change what" section every
//     name written after a Go or JavaScript file is declared in that file and
//     every `go test … -run TestX` names a test of that package.
//
// checker_test.go tests the checkers themselves on synthetic graphs and
// pages, and breaks the real graph on purpose (one forbidden import at a
// time) to show that the rule table names each break.
//
// It sits outside the flow of a question: nothing imports it.
package archtest
