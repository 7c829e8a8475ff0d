package review

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// patch is the YAML document Patch writes.
type patch struct {
	Source    string     `yaml:"source"`
	Proposals []Proposal `yaml:"proposals"`
}

// patchHeader opens every patch: what it is and how to use it.
const patchHeader = `# Proposed changes to the semantic model of source %q, drafted by
# clarify model review from %s.
#
# This is a proposal for people to review, not a model file: nothing applies
# it. Apply the entries you agree with to the model by hand, then run
# clarify model check. Each entry says its evidence. The entries:
#   add_synonym        add word to the synonyms of an entity, a column
#                      (entity + column) or a measure
#   add_stopword       add word to stopwords: users asked for it to be ignored
#   set_best_guess     move best_guess: true to option, in a vague term
#                      (vague_term) or in policies.time_window_options
#   set_default        move default: true to metric in the ranking of an entity
#   define_vague_term  write a vague term with word among its words; its
#                      options are yours to define (examples: what users typed)
# The format is described in docs/review.md.
`

// Patch writes the report's proposals as a YAML patch (docs/review.md): a
// header comment saying it is a proposal to review, then the source and
// the list of proposals, each a one-key mapping naming its kind.
func Patch(w io.Writer, r *Report) error {
	var body bytes.Buffer
	enc := yaml.NewEncoder(&body)
	enc.SetIndent(2)
	ps := r.Proposals
	if ps == nil {
		ps = []Proposal{}
	}
	if err := enc.Encode(patch{Source: r.Source, Proposals: ps}); err != nil {
		return fmt.Errorf("encode the patch: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encode the patch: %w", err)
	}
	if _, err := fmt.Fprintf(w, patchHeader, r.Source, readFrom(r)); err != nil {
		return err
	}
	if len(r.Proposals) == 0 {
		if _, err := io.WriteString(w, "#\n# Nothing has enough evidence yet.\n"); err != nil {
			return err
		}
	}
	_, err := w.Write(body.Bytes())
	return err
}

// readFrom says what a report was drawn from, for the patch's header.
func readFrom(r *Report) string {
	t := r.Totals
	parts := []string{plural(t.Turns, "logged turn"), plural(t.Answers, "answer")}
	if t.EvalCases > 0 {
		parts = append(parts, plural(t.EvalCases, "eval case"))
	}
	s := strings.Join(parts, ", ")
	if !r.Since.IsZero() {
		s += " since " + r.Since.UTC().Format(time.DateTime) + " UTC"
	}
	return s
}
