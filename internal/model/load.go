package model

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong with a model, located by file, line and field.
type Problem struct {
	File  string
	Line  int
	Field string // path such as entities[1].columns[2].references
	Msg   string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error is returned by Load and Parse when a model is invalid. It lists
// every problem found, each naming file, line and field.
type Error struct{ Problems []Problem }

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return "invalid model:\n  " + strings.Join(lines, "\n  ")
}

// Load reads, parses and validates the model in file.
func Load(file string) (*Model, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	return Parse(file, data)
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// Parse parses and validates a model; file names it in errors.
func Parse(file string, data []byte) (*Model, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		probs := yamlProblems(file, err)
		if len(probs) == 1 {
			probs[0].Line = syntaxErrorLine(data, probs[0].Line, err.Error())
		}
		return nil, &Error{Problems: probs}
	}
	if len(root.Content) == 0 {
		return nil, &Error{Problems: []Problem{{File: file, Line: 1, Msg: "the model is empty"}}}
	}
	m := &Model{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(m); err != nil {
		return nil, &Error{Problems: yamlProblems(file, err)}
	}
	m.file = file
	m.lines = map[string]int{}
	walkLines(root.Content[0], "", m.lines)
	m.index()
	if probs := m.validate(); len(probs) > 0 {
		for i := range probs {
			probs[i].File = file
			probs[i].Line = m.lineOf(probs[i].Field)
		}
		return nil, &Error{Problems: probs}
	}
	return m, nil
}

// lineOf returns the line of the longest known prefix of path.
func (m *Model) lineOf(path string) int {
	for p := path; p != ""; {
		if l, ok := m.lines[p]; ok {
			return l
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 1
}

// syntaxErrorLine finds the line of a YAML syntax error. yaml.v3 reports
// the line where the enclosing mapping or sequence starts, and for parser
// errors counts it from zero, so its "line N" is at or before the mistake,
// often one line early (and it gives no line when that start is the first
// line). The mistake is on the first line from N on whose
// prefix of the document fails with the same error: the parser stops at the
// first token it cannot take, and lines after it do not change that.
func syntaxErrorLine(data []byte, reported int, msg string) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	reported = max(reported, 1)
	end := 0
	for i, l := range lines {
		end += len(l)
		if i+1 < reported {
			continue
		}
		var n yaml.Node
		if err := yaml.Unmarshal(data[:end], &n); err != nil && err.Error() == msg {
			return i + 1
		}
	}
	return reported
}

func yamlProblems(file string, err error) []Problem {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var out []Problem
	for _, msg := range msgs {
		p := Problem{File: file}
		if sm := yamlLine.FindStringSubmatch(msg); sm != nil {
			p.Line, _ = strconv.Atoi(sm[1])
			msg = sm[2]
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		msg = strings.ReplaceAll(msg, "model.", "")
		if strings.HasPrefix(msg, "field ") && strings.Contains(msg, " not found in type ") {
			parts := strings.SplitN(strings.TrimPrefix(msg, "field "), " not found in type ", 2)
			msg = fmt.Sprintf("unknown field %q in %s", parts[0], strings.ToLower(parts[1]))
		}
		p.Msg = msg
		out = append(out, p)
	}
	return out
}

func walkLines(n *yaml.Node, path string, lines map[string]int) {
	if path != "" {
		if _, ok := lines[path]; !ok {
			lines[path] = n.Line
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			lines[p] = k.Line
			walkLines(n.Content[i+1], p, lines)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkLines(c, fmt.Sprintf("%s[%d]", path, i), lines)
		}
	}
}

// Marshal renders the model as YAML.
func Marshal(m *Model) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("marshal model: %w", err)
	}
	return b.Bytes(), nil
}
