package eval

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Suite is one evaluation file.
type Suite struct {
	Source string `yaml:"source"`
	Cases  []Case `yaml:"cases"`

	File string `yaml:"-"`
}

// Case is one question with what must happen.
type Case struct {
	ID                 string   `yaml:"id"`
	Question           string   `yaml:"question"`
	Expect             Expect   `yaml:"expect"`
	Answers            []string `yaml:"answers,omitempty"`
	GoldSQL            string   `yaml:"gold_sql,omitempty"`
	Interactive        *bool    `yaml:"interactive,omitempty"`
	AssumptionsInclude []string `yaml:"assumptions_include,omitempty"`
	Ordered            bool     `yaml:"ordered,omitempty"`
}

// Expect is answer, {ask: KIND | [KIND…], options_include}, or {error: CODE}.
type Expect struct {
	Answer         bool
	Ask            []string
	OptionsInclude []string
	Error          string
}

// UnmarshalYAML reads the three forms of expect.
func (e *Expect) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.Value != "answer" {
			return fmt.Errorf("line %d: expect must be answer, {ask: …} or {error: …}, got %q", n.Line, n.Value)
		}
		e.Answer = true
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: expect must be answer, {ask: …} or {error: …}", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "ask":
			switch v.Kind {
			case yaml.ScalarNode:
				e.Ask = []string{v.Value}
			case yaml.SequenceNode:
				if err := v.Decode(&e.Ask); err != nil {
					return fmt.Errorf("line %d: expect.ask: %w", v.Line, err)
				}
			default:
				return fmt.Errorf("line %d: expect.ask must be a kind or a list of kinds", v.Line)
			}
			for _, kind := range e.Ask {
				if !knownKinds[kind] {
					return fmt.Errorf("line %d: expect.ask: unknown clarification kind %q", v.Line, kind)
				}
			}
		case "options_include":
			if err := v.Decode(&e.OptionsInclude); err != nil {
				return fmt.Errorf("line %d: expect.options_include: %w", v.Line, err)
			}
		case "error":
			e.Error = v.Value
		default:
			return fmt.Errorf("line %d: unknown field %q in expect (want ask, options_include or error)", k.Line, k.Value)
		}
	}
	if (len(e.Ask) > 0) == (e.Error != "") {
		return fmt.Errorf("line %d: expect needs exactly one of ask or error", n.Line)
	}
	if len(e.OptionsInclude) > 0 && len(e.Ask) == 0 {
		return fmt.Errorf("line %d: expect.options_include goes with ask", n.Line)
	}
	return nil
}

var knownKinds = map[string]bool{"vague_qualifier": true, "column_ambiguity": true, "value_ambiguity": true,
	"table_ambiguity": true, "scope": true, "time_window": true, "ranking_metric": true, "format": true,
	"latest_or_history": true, "unknown_term": true, "aggregation": true}

// SuiteError is a malformed suite; it names the file, case and field.
type SuiteError struct {
	File, Case, Field, Msg string
}

func (e *SuiteError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Case != "" {
		b.WriteString(": case " + e.Case)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	return b.String() + ": " + e.Msg
}

// LoadSuite reads and checks a suite file.
func LoadSuite(path string) (*Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &SuiteError{File: path, Msg: err.Error()}
	}
	s := &Suite{File: path}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(s); err != nil {
		var te *yaml.TypeError
		msg := err.Error()
		if errors.As(err, &te) {
			msg = strings.Join(te.Errors, "; ")
		}
		return nil, &SuiteError{File: path, Msg: strings.TrimPrefix(msg, "yaml: ")}
	}
	if s.Source == "" {
		return nil, &SuiteError{File: path, Field: "source", Msg: "a suite needs a source"}
	}
	if len(s.Cases) == 0 {
		return nil, &SuiteError{File: path, Field: "cases", Msg: "a suite needs cases"}
	}
	ids := map[string]bool{}
	for i, c := range s.Cases {
		id := c.ID
		if id == "" {
			return nil, &SuiteError{File: path, Case: fmt.Sprintf("#%d", i+1), Field: "id", Msg: "a case needs an id"}
		}
		if ids[id] {
			return nil, &SuiteError{File: path, Case: id, Field: "id", Msg: "duplicate id"}
		}
		ids[id] = true
		switch {
		case strings.TrimSpace(c.Question) == "":
			return nil, &SuiteError{File: path, Case: id, Field: "question", Msg: "a case needs a question"}
		case !c.Expect.Answer && len(c.Expect.Ask) == 0 && c.Expect.Error == "":
			return nil, &SuiteError{File: path, Case: id, Field: "expect", Msg: "a case needs expect"}
		case c.Expect.Error != "" && c.GoldSQL != "":
			return nil, &SuiteError{File: path, Case: id, Field: "gold_sql", Msg: "an error case has no gold_sql"}
		case c.Expect.Answer && c.GoldSQL == "" && len(c.AssumptionsInclude) == 0:
			// an answer case without gold only checks that nothing was asked
		}
	}
	return s, nil
}
