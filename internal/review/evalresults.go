package review

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/eval"
)

// ParseEval reads the results `clarify eval --json FILE` writes: a JSON
// array of suite results.
func ParseEval(data []byte) ([]eval.SuiteResult, error) {
	var out []eval.SuiteResult
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("not the JSON clarify eval --json writes: %w", err)
	}
	return out, nil
}

// sourceSuites keeps the suites about the reviewed source (by its name in
// the store or in the model), with a note for each one left out.
func sourceSuites(in Input) ([]eval.SuiteResult, []string) {
	var keep []eval.SuiteResult
	var notes []string
	for _, s := range in.Evals {
		if s.Source == in.Source || in.Model != nil && s.Source == in.Model.Source {
			keep = append(keep, s)
			continue
		}
		notes = append(notes, fmt.Sprintf("eval suite %s is about source %q, not %q: left out", filepath.Base(s.File), s.Source, in.Source))
	}
	return keep, notes
}

// The words an eval case's results name as unknown: the option Clarify
// offers to ignore an unknown word (`Ignore "glorp"`), in the first
// question's options or in the assumptions, and the words listed when a
// question could not be answered ("… (unknown words: glorp, zong)").
var (
	ignoreOption = regexp.MustCompile(`^Ignore "([^"]+)"$`)
	ignoreAssume = regexp.MustCompile(`= Ignore "([^"]+)"$`)
	unknownList  = regexp.MustCompile(`\(unknown words: ([^)]*)\)`)
)

// caseUnknown returns the unknown words an eval case's results name, and
// whether the case asked about an unknown word at all.
func caseUnknown(c eval.CaseResult) (words []string, asked bool) {
	for _, k := range c.Asked {
		if k == "unknown_term" {
			asked = true
		}
	}
	add := func(w string) {
		if w = normalizeWord(w); w != "" && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	if len(c.Asked) > 0 && c.Asked[0] == "unknown_term" {
		for _, o := range c.FirstOptions {
			if m := ignoreOption.FindStringSubmatch(o); m != nil {
				add(m[1])
			}
		}
	}
	for _, a := range c.Assumptions {
		if m := ignoreAssume.FindStringSubmatch(a); m != nil {
			add(m[1])
		}
	}
	if m := unknownList.FindStringSubmatch(c.ErrorMessage); m != nil {
		asked = true
		for _, w := range strings.Split(m[1], ",") {
			add(w)
		}
	}
	return words, asked
}
