// Package doccheck holds the documentation test: it has no code of its own,
// only a test that reads every Markdown file and every Go comment of the
// repository and fails when one points at something a plain clone does not
// have.
//
// A clone must be readable on its own: the API, the model format, the
// evaluation format and the design live in docs/, and nothing may send a
// reader to a file outside the repository. TestLinks checks, in every .md
// file (testdata and hidden folders excepted):
//
//   - each relative link and image resolves, from the page's folder, to a
//     file inside the repository that exists, and a #fragment names a
//     heading of the page it points at;
//   - no path climbs out of the repository with ../, in a link or in text;
//   - no text cites a document kept outside it (a spec/*.md file, the
//     design page by section number, the seeds folder).
//
// In Go comments it checks the same escapes and citations, that every path
// under docs/, internal/, cmd/, tools/ or testdata/ exists (globs must
// match; testdata/ is looked up beside the file first), that a bare
// NAME.md names a page that exists, and that a citation written
// `docs/PAGE.md, section "Heading"` names a heading of that page.
//
// checker_test.go runs the checks on small synthetic trees, so each way a
// check fails is exercised whatever the real tree looks like today.
//
// It sits outside the flow of a question: nothing imports it.
package doccheck
